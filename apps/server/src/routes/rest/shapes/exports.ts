import { z } from "zod";
import { EXPORT_STATES_SHOWN, type RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZDoneFields, ZPagination, ZRestUserRef, restUserRef } from "./common";
import { CATEGORIES } from "@tafsiri/domain";

type ExportItem = RouterOutputs["exports"]["list"]["items"][number];

/** The export's status choice as integrators spell it (the procedure's 'approved-transcript' is 'approved_transcript'). */
export const REST_EXPORT_STATUSES = { completed: "completed", approved_transcript: "approved-transcript" } as const;
const FROM_STATUS = { completed: "completed", "approved-transcript": "approved_transcript" } as const;

const EXAMPLE_EXPORT = {
  _id: EXAMPLE_ID,
  created_at: "2026-11-24T09:30:00.000Z",
  created_by: { _id: EXAMPLE_USER_ID, username: "admin" },
  category: "Dementia",
  status: "completed",
  approved_from: "2026-01-01",
  approved_to: "2026-06-30",
  languages: ["eng"],
  participant_role: "Participant",
  corpus: "tafsiri",
  include_restricted: false,
  state: "ready",
  done: 412,
  total: 412,
  size_bytes: 1_873_204_118,
  reused_files: 1200,
  reused_archive: false,
  error: null,
  finished_at: "2026-11-24T09:31:12.000Z",
  expires_at: "2026-11-25T09:31:12.000Z",
  superseded_at: null,
  download_url: `/files/exports/${EXAMPLE_ID}.zip?expires=1795685472&signature=Jx0…`,
} as const;

/** A dataset export as REST answers it (decision 019). */
export const ZRestExport = z
  .object({
    _id: z.string(),
    created_at: z.string(),
    created_by: ZRestUserRef,
    category: z.enum([...CATEGORIES, "both"]),
    status: z.enum(["completed", "approved_transcript"]),
    approved_from: z.string().nullable(),
    approved_to: z.string().nullable(),
    languages: z.array(z.string()),
    participant_role: z.string(),
    corpus: z.string(),
    include_restricted: z.boolean().meta({
      description: "Whether recordings of participants with 'restricted' consent were included (decision 024).",
    }),
    state: z.enum(EXPORT_STATES_SHOWN).meta({
      description:
        "running, ready (download_url works), failed (see error), expired (24 hours after it finished) or " +
        "superseded (a participant in it withdrew consent; its link answers 410).",
    }),
    done: z.number().int().meta({ description: "Audios written so far." }),
    total: z.number().int().meta({ description: "Audios the export holds." }),
    size_bytes: z.number().int().nullable(),
    reused_files: z.number().int().meta({
      description: "Files copied from the previous export of the same choice because they had not changed.",
    }),
    reused_archive: z.boolean().meta({
      description: "True when nothing had changed since that export: its zip is offered again.",
    }),
    error: z.string().nullable(),
    finished_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    superseded_at: z.string().nullable().meta({ description: "When a participant in it withdrew consent." }),
    download_url: z.string().nullable().meta({
      description: "A signed link to the zip (no Authorization header needed) while ready; null otherwise.",
    }),
  })
  .meta({ examples: [EXAMPLE_EXPORT] });

/** The REST shape of an export. */
export function restExport(e: ExportItem): z.output<typeof ZRestExport> {
  return {
    _id: e.id,
    created_at: e.createdAt,
    created_by: restUserRef(e.createdBy),
    category: e.category,
    status: FROM_STATUS[e.status],
    approved_from: e.approvedFrom,
    approved_to: e.approvedTo,
    languages: e.chat.languages,
    participant_role: e.chat.participantRole,
    corpus: e.chat.corpus,
    include_restricted: e.includeRestricted,
    state: e.state,
    done: e.done,
    total: e.total,
    size_bytes: e.sizeBytes,
    reused_files: e.reusedFiles,
    reused_archive: e.reusedArchive,
    error: e.error,
    finished_at: e.finishedAt,
    expires_at: e.expiresAt,
    superseded_at: e.supersededAt,
    download_url: e.downloadUrl,
  };
}

/** `GET /api/exports`: a page of exports, newest first. */
export const ZRestExportPage = z
  .object({ exports: z.array(ZRestExport), pagination: ZPagination })
  .meta({ examples: [{ exports: [EXAMPLE_EXPORT], pagination: { totalPages: 1 } }] });

/** `POST /api/exports`: the export started (or the running one of the same choice). */
export const ZRestExportStarted = z
  .object({ ...ZDoneFields, message: z.string(), export: ZRestExport })
  .meta({ examples: [{ status: "success", success: true, message: "Export started.", export: EXAMPLE_EXPORT }] });
