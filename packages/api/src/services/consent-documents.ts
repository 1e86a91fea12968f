import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileTypeFromFile } from "file-type";
import { CONSENT_DOCUMENT_NOT_PDF } from "@tafsiri/domain";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { setConsentDocument } from "@tafsiri/db/repositories/participants";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { requireAdmin } from "./access";
import { adoptedUpload, commitWithFile } from "./stored-files";
import { requireLockedParticipant, requireParticipant } from "./participants";

/** A participant's consent document (decision 024): a PDF an admin attaches, reads and removes. */
const NO_CONSENT_DOCUMENT = "This participant has no consent document.";
const CONSENT_DOCUMENT_REQUIRED = "Please select the consent document (a PDF file).";

/** The name a consent document is kept under: the uploaded file's base name (at most 200 characters), or consent.pdf. */
function documentName(originalName: string): string {
  const base = path.posix.basename(originalName.replace(/\\/g, "/")).trim();
  const name = base === "" || base === "blob" ? "consent.pdf" : base.slice(-200);
  return name.toLowerCase().endsWith(".pdf") ? name : `${name}.pdf`;
}

/**
 * Decision 024 (admin): stores a participant's consent document, a PDF by its content (file-type),
 * as `consent-documents/{participantId}/{uuid}.pdf`, fully written before the row points at it;
 * the previous document is removed after the commit. Audited participant.consent_document_attached
 * (detail: code, replaced). The temp file is removed in every case. Throws NOT_FOUND, BAD_REQUEST
 * 'Unknown id.' or when no file was sent, UNSUPPORTED_MEDIA_TYPE 'The consent document must be a PDF file.'.
 * Returns the document's name and the sentence said ('Consent document saved.').
 */
export async function attachConsentDocument(
  deps: AppDeps,
  user: SessionUser,
  input: { participantId: string; file: { tempFile: string; originalName: string } | null },
): Promise<{ message: string; consentDocumentName: string }> {
  requireAdmin(user);
  const file = input.file;
  if (!file) throw new AppError("BAD_REQUEST", CONSENT_DOCUMENT_REQUIRED);
  const previous = await commitWithFile(
    deps.db,
    async (trx, store) => {
      const participant = await requireLockedParticipant(trx, input.participantId);
      if ((await fileTypeFromFile(file.tempFile))?.ext !== "pdf") {
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", CONSENT_DOCUMENT_NOT_PDF);
      }
      const key = `consent-documents/${participant.id}/${randomUUID()}.pdf`;
      const name = documentName(file.originalName);
      await store(adoptedUpload(deps.storage, file.tempFile, key));
      await setConsentDocument(trx, participant.id, { key, name });
      await insertAuditEntry(trx, user.id, "participant.consent_document_attached", "participant", participant.id, {
        code: participant.code,
        replaced: participant.consentDocumentKey !== null,
      });
      return { key: participant.consentDocumentKey, name };
    },
    { tempFile: file.tempFile },
  );
  if (previous.key) await deps.storage.delete(previous.key).catch(() => undefined);
  return { message: "Consent document saved.", consentDocumentName: previous.name };
}

/** Decision 024 (admin): the consent document's storage key and name. NOT_FOUND for an unknown participant or none. */
export async function consentDocument(
  deps: AppDeps,
  user: SessionUser,
  participantId: string,
): Promise<{ key: string; name: string }> {
  requireAdmin(user);
  const row = await requireParticipant(deps.db, participantId);
  if (!row.consentDocumentKey) throw new AppError("NOT_FOUND", NO_CONSENT_DOCUMENT);
  return { key: row.consentDocumentKey, name: row.consentDocumentName ?? "consent.pdf" };
}

/**
 * Decision 024 (admin): removes the participant's consent document (row first, then the file),
 * audited participant.consent_document_removed. NOT_FOUND for an unknown participant or none.
 * Returns the sentence said ('Consent document removed.').
 */
export async function removeConsentDocument(
  deps: AppDeps,
  user: SessionUser,
  participantId: string,
): Promise<{ message: string }> {
  requireAdmin(user);
  const key = await deps.db.transaction().execute(async (trx) => {
    const row = await requireLockedParticipant(trx, participantId);
    if (!row.consentDocumentKey) throw new AppError("NOT_FOUND", NO_CONSENT_DOCUMENT);
    await setConsentDocument(trx, row.id, { key: null, name: null });
    await insertAuditEntry(trx, user.id, "participant.consent_document_removed", "participant", row.id, {
      code: row.code,
    });
    return row.consentDocumentKey;
  });
  await deps.storage.delete(key).catch(() => undefined);
  return { message: "Consent document removed." };
}
