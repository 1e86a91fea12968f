import { z } from "zod";
import { CATEGORIES } from "@tafsiri/domain";
import { EXPORT_STATUS_CHOICES } from "@tafsiri/db";
import { CHAT_ROLES, DEFAULT_CHAT_SETTINGS } from "@tafsiri/domain";
import { ZId, ZPageInput, ZUserRef, page } from "./common";

/** The Export page's messages. */
export const EXPORT_PERIOD_ORDER = "The first day must not be after the last day.";
const EXPORT_LANGUAGE = "Each language must be a three-letter ISO 639-3 code, such as eng or swa.";
const EXPORT_LANGUAGES_COUNT = "Give from one to five languages.";
const EXPORT_CORPUS = "The corpus name may hold letters, digits, _ and - (at most 40 characters).";
const EXPORT_ROLE = `The participant role must be one of ${CHAT_ROLES.join(", ")}.`;
export const EXPORTS_BUSY = "Three exports are running already; wait for one of them to finish.";
const EXPORT_CATEGORY = "Category must be Control, Dementia or both.";
const EXPORT_STATUS = "Status must be completed or approved-transcript.";
const EXPORT_INCLUDE_RESTRICTED = "includeRestricted must be true or false.";
/** Decision 024: what a superseded export's link answers (410). */
export const EXPORT_SUPERSEDED =
  "This export was superseded: a participant in it withdrew consent. Start a new export.";
export const EXPORT_NOT_FOUND = "Export not found.";
export const EXPORT_NOT_READY = "This export is not ready to download.";
export const EXPORT_EXPIRED = "This export's link has expired. Start a new export.";

const day = (message: string) => z.iso.date({ error: message });
const FIRST_DAY_FORMAT = "The first day must be a date (YYYY-MM-DD).";
const LAST_DAY_FORMAT = "The last day must be a date (YYYY-MM-DD).";

/** The CHAT headers' settings (decision 019), with DementiaBank's defaults. */
export const ZChatSettings = z.object({
  languages: z
    .array(z.string().regex(/^[a-z]{3}$/, EXPORT_LANGUAGE), { error: EXPORT_LANGUAGES_COUNT })
    .min(1, EXPORT_LANGUAGES_COUNT)
    .max(5, EXPORT_LANGUAGES_COUNT)
    .default(DEFAULT_CHAT_SETTINGS.languages),
  participantRole: z.enum(CHAT_ROLES, { error: EXPORT_ROLE }).default(DEFAULT_CHAT_SETTINGS.participantRole),
  corpus: z
    .string({ error: EXPORT_CORPUS })
    .regex(/^[A-Za-z0-9_-]{1,40}$/, EXPORT_CORPUS)
    .default(DEFAULT_CHAT_SETTINGS.corpus),
});

/**
 * `exports.create`'s input, the Export form: category (Control, Dementia or both), status
 * ('completed': tasks whose transcript and recording are Approved; 'approved-transcript': every
 * audio with an Approved transcript, its recording when that is Approved too), the approval
 * period's first and last day (both included, in APP_TIMEZONE; for completed tasks the later of
 * the two approvals counts), the CHAT settings, and (decision 024) whether recordings of
 * participants with 'restricted' consent are included (default false: only consent 'given').
 * Everything has a default.
 */
export const ZExportChoice = z.object({
  category: z.enum([...CATEGORIES, "both"], { error: EXPORT_CATEGORY }).default("both"),
  status: z.enum(EXPORT_STATUS_CHOICES, { error: EXPORT_STATUS }).default("completed"),
  approvedFrom: day(FIRST_DAY_FORMAT).nullish(),
  approvedTo: day(LAST_DAY_FORMAT).nullish(),
  chat: ZChatSettings.prefault({}),
  includeRestricted: z.boolean({ error: EXPORT_INCLUDE_RESTRICTED }).default(false),
});
export type ExportChoice = z.infer<typeof ZExportChoice>;

/** `exports.list`'s input: a page (from 1) of `limit` exports (default 10, at most 100). */
export const ZExportListInput = ZPageInput;

/**
 * Where an export is: running, ready to download, failed, expired (its 24 hours are over), or
 * superseded (decision 024: a participant in it withdrew consent; its link answers 410).
 */
export const EXPORT_STATES_SHOWN = ["running", "ready", "failed", "expired", "superseded"] as const;

/** One export as the Export page shows it. */
export const ZExportItem = z.object({
  id: z.string(),
  /** ISO time it was started. */
  createdAt: z.string(),
  createdBy: ZUserRef.nullable(),
  category: z.enum([...CATEGORIES, "both"]),
  status: z.enum(EXPORT_STATUS_CHOICES),
  approvedFrom: z.string().nullable(),
  approvedTo: z.string().nullable(),
  chat: ZChatSettings,
  /** Whether recordings of participants with 'restricted' consent were included (decision 024). */
  includeRestricted: z.boolean(),
  state: z.enum(EXPORT_STATES_SHOWN),
  /** Audios written so far, and in all. */
  done: z.number().int(),
  total: z.number().int(),
  /** The zip's size in bytes, once ready. */
  sizeBytes: z.number().int().nullable(),
  /** Files taken from the previous export of the same choice because they had not changed. */
  reusedFiles: z.number().int(),
  /** True when nothing had changed since that export: its zip is offered again. */
  reusedArchive: z.boolean(),
  /** Why it failed. */
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** ISO time the download link stops working (24 hours after it finished). */
  expiresAt: z.string().nullable(),
  /** ISO time a participant in it withdrew consent (state 'superseded'); null otherwise. */
  supersededAt: z.string().nullable(),
  /** A signed `/files/exports/…` link to the zip while ready; null otherwise. */
  downloadUrl: z.string().nullable(),
});
export type ExportItem = z.infer<typeof ZExportItem>;

export const ZExportList = page(ZExportItem);
export type ExportList = z.infer<typeof ZExportList>;

/** `exports.download`'s input: the export. */
export const ZExportIdInput = z.object({ exportId: ZId });

/** `exports.download`'s answer: a signed link to the zip, valid until the export's link expires. */
export const ZExportDownload = z.object({ url: z.string() });
export type ExportDownload = z.infer<typeof ZExportDownload>;
