import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { documentedOnly } from "./conventions";
import contentDisposition from "content-disposition";
import { z } from "zod";
import {
  AppError,
  requireAdmin,
  attachConsentDocument,
  consentDocument,
  removeConsentDocument,
  REAUTH_STATUS,
  requireRecentIdentityCheck,
  StoredFileMissingError,
  type SessionUser,
} from "@tafsiri/api";
import { CONSENT_DOCUMENT_MAX_BYTES } from "@tafsiri/domain";
import type { RestOptions } from "./options";
import { signedInUser } from "./authenticate";
import { DONE, ZDoneFields, ZPathId, ZRestDone, ZRestFailure, answers } from "./shapes/common";
import { ZRestImportRefused } from "./shapes/participants";
import { readUploadForm } from "../../plugins/upload-form";

const PARTICIPANTS = ["Participants"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];
const ADMIN_ONLY = "401 without a session, 403 for staff.";
/** The CSV import's body limit: a 2 MB file as JSON (quotes and line breaks escaped) with room to spare. */
const IMPORT_BODY_LIMIT = 6 * 1024 * 1024;
const SEND_CSV = "Send the CSV file as text/csv, or as JSON { csv }.";

/**
 * The signed-in admin of a request whose body is not a procedure's input, checked by the services'
 * own rule before a file is read (401, 403 as the procedures answer).
 */
function signedInAdmin(req: FastifyRequest): SessionUser {
  const user = signedInUser(req);
  requireAdmin(user);
  return user;
}

/** A participant's `Content-Disposition: attachment` under its stored name (RFC 6266, ASCII fallback). */
function attachment(name: string): string {
  return contentDisposition(name, { type: "attachment", fallback: name.replace(/[^\x20-\x7e]/g, "_") });
}

const ZImported = z
  .object({ ...ZDoneFields, message: z.string(), created: z.number().int(), updated: z.number().int() })
  .meta({ examples: [{ ...DONE, message: "10 participants created, 2 updated.", created: 10, updated: 2 }] });

/** A file answer as the OpenAPI document describes it, and the failures. */
function fileAnswer(mediaType: string, description: string, example: string) {
  return {
    200: {
      description,
      content: { [mediaType]: { schema: z.string().meta({ format: "binary", examples: [example] }) } },
    },
    "4xx": ZRestFailure,
    "5xx": ZRestFailure,
  };
}

/** Decision 024: research participants over REST, Admin only (the `participants` procedures and the consent document). */
export const participantRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps }) => {
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: IMPORT_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  app.get(
    "/api/participants/export",
    {
      schema: {
        summary: "Export participants as CSV",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. Every participant as CSV (a header row, then one line per participant by code) with the ' +
          "columns the import reads: code, group, sex, birth_date, age_years, age_months, age_recorded_on, " +
          `education_years, languages, mmse, mmse_date, moca, moca_date, notes, consent, consent_date. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        security: BEARER,
        response: fileAnswer(
          "text/csv",
          "The participants as CSV (UTF-8).",
          "code,group,sex,birth_date,age_years,age_months,age_recorded_on,education_years,languages,mmse,mmse_date,moca,moca_date,notes,consent,consent_date\nP0042,Dementia,female,,72,2,2026-03-02,7,lug eng,21,2026-03-02,,,,given,2026-03-02\n",
        ),
      },
    },
    async (req, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      const { csv } = await req.caller.participants.exportCsv();
      reply.header("content-type", "text/csv; charset=utf-8");
      reply.header("content-disposition", attachment("participants.csv"));
      return reply.send(csv);
    },
  );

  app.post(
    "/api/participants/import",
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        summary: "Import participants from CSV",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. The CSV file as the body (`text/csv`) or as JSON `{ csv }`, at most 2 MB. A header row ' +
          "names the columns (those of the export, any order); age_years and age_months add up to the age; " +
          "languages are ISO 639-3 codes separated by spaces or ';'. A row whose code exists (any case) updates " +
          "that participant, any other creates one. Every row is checked first: when any fails, nothing is written " +
          "and the answer is 400 with `problems`, each with its CSV line (the header is line 1). 409 when another " +
          `import created one of its codes meanwhile. 413 past the body limit. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        security: BEARER,
        consumes: ["text/csv", "application/json"],
        // Either content type may carry either form: the handler reads a text or `{ csv }`.
        body: z
          .union([
            z.string().meta({ description: "The CSV file's text (text/csv)." }),
            z.object({ csv: z.string() }).meta({ description: "The CSV file's text as `{ csv }` (application/json)." }),
          ])
          .meta({ examples: ["code,group,sex,age_years\nP0042,Dementia,female,72\n"] }),
        response: { 200: ZImported, 400: ZRestImportRefused, "4xx": ZRestFailure, "5xx": ZRestFailure },
      },
      // The body is a CSV text or { csv }: read below, not by the documented schema.
      validatorCompiler: documentedOnly("body"),
    },
    async (req, reply) => {
      signedInAdmin(req);
      const body: unknown = req.body;
      const csv = typeof body === "string" ? body : (body as { csv?: unknown } | null)?.csv;
      if (typeof csv !== "string") throw new AppError("BAD_REQUEST", SEND_CSV);
      const { message, created, updated, problems } = await req.caller.participants.importCsv({ csv });
      if (problems.length > 0) return reply.code(400).send({ status: "failed", success: false, message, problems });
      return { ...DONE, message, created, updated };
    },
  );

  app.post(
    "/api/participants/:id/consent-document",
    {
      schema: {
        summary: "Attach a consent document",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. Multipart form with one `file`: a PDF (checked by its content) of at most 10 MB; replaces ' +
          "the participant's earlier document. 400 'Unknown id.' or no file, 404, 413 past 10 MB, 415 'The consent " +
          `document must be a PDF file.'. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        security: BEARER,
        consumes: ["multipart/form-data"],
        params: z.object({ id: ZPathId }),
        body: z
          .object({ file: z.string().meta({ format: "binary", description: "The consent document (PDF)." }) })
          .meta({ examples: [{ file: "(binary)" }] }),
        response: answers(
          z.object({ ...ZDoneFields, message: z.string(), consent_document_name: z.string() }).meta({
            examples: [{ ...DONE, message: "Consent document saved.", consent_document_name: "consent.pdf" }],
          }),
        ),
      },
      validatorCompiler: documentedOnly("body"),
    },
    async (req) => {
      const user = signedInAdmin(req);
      const form = await readUploadForm(req, deps.storage, CONSENT_DOCUMENT_MAX_BYTES);
      try {
        const out = await attachConsentDocument(deps, user, { participantId: req.params.id, file: form.file });
        return { ...DONE, message: out.message, consent_document_name: out.consentDocumentName };
      } finally {
        await form.discard();
      }
    },
  );

  app.get(
    "/api/participants/:id/consent-document",
    {
      compress: false,
      schema: {
        summary: "Download a consent document",
        description: `ARCHITECTURE "Long recordings and the corpus", decision 024. The participant's consent document (application/pdf, as an attachment). 400, 404. ${ADMIN_ONLY} ${REAUTH_STATUS}`,
        tags: PARTICIPANTS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: fileAnswer("application/pdf", "The consent document.", "%PDF-1.7 …"),
      },
    },
    async (req, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      const admin = signedInAdmin(req);
      requireRecentIdentityCheck({ session: req.authSession });
      const doc = await consentDocument(deps, admin, req.params.id);
      const body = await deps.storage.read(doc.key).catch((error: unknown) => {
        if (error instanceof StoredFileMissingError) throw new AppError("NOT_FOUND", "File not found.");
        throw error;
      });
      reply.header("content-type", "application/pdf");
      reply.header("content-disposition", attachment(doc.name));
      reply.header("cache-control", "private, no-store");
      return reply.send(body);
    },
  );

  app.delete(
    "/api/participants/:id/consent-document",
    {
      schema: {
        summary: "Remove a consent document",
        description: `ARCHITECTURE "Long recordings and the corpus", decision 024. Removes the participant's consent document. 400, 404. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestDone.meta({ examples: [{ ...DONE, message: "Consent document removed." }] })),
      },
    },
    async (req) => {
      const { message } = await removeConsentDocument(deps, signedInAdmin(req), req.params.id);
      return { ...DONE, message };
    },
  );
};
