import { promises as fs } from "node:fs";
import { CATEGORY_REQUIRED, INITIAL_TRANSCRIPT_TYPE_REQUIRED } from "@tafsiri/domain";
import { ZCategory } from "../schemas/common";
import { ZSaveTranscriptInput } from "../schemas/transcripts";
import type { AppDeps, SessionUser } from "../context";
import { ADMINS_ONLY, AppError, SIGN_IN_REQUIRED } from "../errors/app-error";
import { firstIssueMessage } from "../errors/describe-error";
import {
  attachInitialTranscript,
  createAudio,
  requireLanguageCodes,
  uploadRecording,
  type AudioLanguages,
  type TempUpload,
} from "./store-upload";
import { saveTranscript } from "../services/transcripts";
import { storeTake, UNKNOWN_SEGMENT, type TakeView } from "../translation/takes";
import { isUuid } from "../schemas/common";
import {
  TRANSLATED_TRANSCRIPT_EXTENSIONS,
  audioFilename,
  contentMatchesExtension,
  extensionOf,
  sniffAudio,
  transcriptExtension,
} from "./file-rules";
import { decodePlainText, extractText, UnreadableTextError } from "./extract-text";
import { uploadParticipantFields } from "../services/audio-participants";

/** Upload kinds of ARCHITECTURE "Decisions" (SPEC §9). */
export const UPLOAD_KINDS = ["AUDIO", "INITIAL_TRANSCRIPT", "AUDIOTRANSLATION", "TRANSLATED_TRANSCRIPT"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Kinds only administrators may upload; refused before the body is read. */
const ADMIN_KINDS: ReadonlySet<UploadKind> = new Set(["AUDIO", "INITIAL_TRANSCRIPT"]);

/** Transcript files are read into memory for their text, so they get a smaller limit (bytes). */
const TEXT_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
const TEXT_KINDS: ReadonlySet<UploadKind> = new Set(["INITIAL_TRANSCRIPT", "TRANSLATED_TRANSCRIPT"]);

/** The one file of an upload form, already written to a temp file in storage. */
export interface ReceivedFile {
  /** Absolute path from `storage.tempPath()`. */
  tempFile: string;
  /** The name the client gave the file, e.g. "interview 3.wav". */
  originalName: string;
  sizeBytes: number;
}

/** An upload form as the transport read it: its text fields and its file (null when none was sent). */
export interface UploadForm {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

/** What an upload did, by kind (the REST layer turns it into the documented answer). */
export type UploadResult =
  | { kind: "AUDIO"; message: string; audioId: string; filename: string }
  | { kind: "INITIAL_TRANSCRIPT"; message: string; audioId: string }
  | { kind: "AUDIOTRANSLATION"; message: string; status: string }
  | { kind: "TRANSLATED_TRANSCRIPT"; message: string; fileName: string; status: string };

/** The upload kind a path names (case-insensitive); NOT_FOUND for any other. */
export function uploadKind(raw: string): UploadKind {
  const kind = UPLOAD_KINDS.find((k) => k === raw.toUpperCase());
  if (!kind) throw new AppError("NOT_FOUND", `Unknown upload kind. Use one of ${UPLOAD_KINDS.join(", ")}.`);
  return kind;
}

/**
 * Who may upload `kind`, checked before the body is read: returns the user; throws UNAUTHORIZED
 * without one and FORBIDDEN for staff on AUDIO and INITIAL_TRANSCRIPT.
 */
export function requireUploader(user: SessionUser | null, kind: UploadKind): SessionUser {
  if (!user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  if (ADMIN_KINDS.has(kind) && user.role !== "Admin") throw new AppError("FORBIDDEN", ADMINS_ONLY);
  return user;
}

/** Human-readable size limit, e.g. 512 MB, 64 KB, 900 bytes. */
function formatLimit(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  const kb = bytes / 1024;
  if (kb >= 1) return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** The 413 answer's message for a limit in bytes: 'File is too large. The limit is N MB.' */
export function tooLargeMessage(maxBytes: number): string {
  return `File is too large. The limit is ${formatLimit(maxBytes)}.`;
}

/** The size limit of `kind` in bytes: MAX_UPLOAD_BYTES, or at most 20 MB for transcript files. */
export function uploadLimit(kind: UploadKind, maxUploadBytes: number): number {
  return TEXT_KINDS.has(kind) ? Math.min(maxUploadBytes, TEXT_UPLOAD_MAX_BYTES) : maxUploadBytes;
}

/**
 * The file part as the upload services take it, typed by its content: a file whose content is
 * not accepted audio is handed over as application/octet-stream, and the service refuses it
 * with the spec's message (and removes the temp file).
 */
async function sniffedUpload(file: ReceivedFile): Promise<TempUpload> {
  const kind = await sniffAudio(file.tempFile);
  return {
    tempFile: file.tempFile,
    mimeType: kind?.mimeType ?? "application/octet-stream",
    extension: kind?.extension ?? "",
    sizeBytes: file.sizeBytes,
  };
}

/** Runs a text extraction; an unreadable file becomes BAD_REQUEST with a clear message. */
async function readText(extract: () => Promise<string>): Promise<string> {
  try {
    return await extract();
  } catch (error) {
    if (error instanceof UnreadableTextError)
      throw new AppError("BAD_REQUEST", `The selected file could not be read: ${error.message}`);
    throw error;
  }
}

/**
 * Decision 035: an AUDIO form's optional `source_language` and `target_language` (ISO 639-3; left
 * out or blank: the programme's). BAD_REQUEST 'A language is an ISO 639-3 code of three lower-case
 * letters, such as eng or swa.' for any other value.
 */
export function uploadLanguageFields(fields: Record<string, string>): AudioLanguages {
  const code = (value: string | undefined) => (value === undefined || value.trim() === "" ? null : value.trim());
  return requireLanguageCodes({
    sourceLanguage: code(fields.source_language),
    targetLanguage: code(fields.target_language),
  });
}

/**
 * AUDIO (SPEC §2.16, §5): category + one audio file; the name up to its first dot is the filename.
 * Decision 024: optional `participant_code` and `session_date` link it to a participant.
 * Decision 035: optional `source_language` and `target_language` are the audio's own languages.
 */
async function uploadAudio(deps: AppDeps, user: SessionUser, form: UploadForm): Promise<UploadResult> {
  const category = ZCategory.safeParse(form.fields.category);
  if (!category.success) throw new AppError("BAD_REQUEST", firstIssueMessage(category.error) ?? CATEGORY_REQUIRED);
  const participant = uploadParticipantFields(form.fields);
  const languages = uploadLanguageFields(form.fields);
  const file = form.file;
  if (!file) throw new AppError("BAD_REQUEST", "Please select an audio file to upload.");
  // A part without a usable name (a Blob) falls back to the documented `filename` field.
  const filename =
    audioFilename(file.originalName === "blob" ? "" : file.originalName) || audioFilename(form.fields.filename ?? "");
  const audio = await createAudio(deps, user, {
    filename,
    category: category.data,
    file: await sniffedUpload(file),
    participant,
    languages,
  });
  return {
    kind: "AUDIO",
    message: `${audio.filename} has been uploaded successfully.`,
    audioId: audio.id,
    filename: audio.filename,
  };
}

/** The INITIAL_TRANSCRIPT form's `replace` field: "true" replaces an existing transcript; left out or "false" does not. */
export function replaceField(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new AppError("BAD_REQUEST", "replace must be true or false.");
}

/**
 * INITIAL_TRANSCRIPT (SPEC §2.18, §5; .cha by decision 035): .cha, .doc, .docx, .pdf or .txt; its
 * text is extracted and attached, and cut into source segments. An existing transcript is replaced only with `replace=true` (else 409).
 */
async function uploadInitialTranscript(deps: AppDeps, user: SessionUser, form: UploadForm): Promise<UploadResult> {
  const replace = replaceField(form.fields.replace);
  const file = form.file;
  if (!file) throw new AppError("BAD_REQUEST", "Please select a file to upload.");
  const ext = transcriptExtension(extensionOf(file.originalName));
  if (!ext) throw new AppError("UNSUPPORTED_MEDIA_TYPE", INITIAL_TRANSCRIPT_TYPE_REQUIRED);
  if (!(await contentMatchesExtension(file.tempFile, ext))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `The selected file is not a valid ${ext} file.`);
  }
  const text = await readText(() => extractText(file.tempFile, ext));
  const out = await attachInitialTranscript(deps, user, { audioId: form.fields.audioId ?? "", text, replace });
  return { kind: "INITIAL_TRANSCRIPT", message: "Transcript uploaded successfully!", audioId: out.audioId };
}

/** AUDIOTRANSLATION (SPEC §2.13, §5): a translated recording and who recorded it. */
async function uploadTranslatedAudio(deps: AppDeps, user: SessionUser, form: UploadForm): Promise<UploadResult> {
  const file = form.file;
  if (!file) throw new AppError("BAD_REQUEST", "Please upload an audio file.");
  const out = await uploadRecording(deps, user, {
    audioId: form.fields.audioId ?? "",
    recordedBy: form.fields.recordedBy ?? "",
    file: await sniffedUpload(file),
  });
  return { kind: "AUDIOTRANSLATION", message: out.message, status: out.status };
}

/** TRANSLATED_TRANSCRIPT (SPEC §7.2): a .cha/.txt plain-text file saved as a new transcript version. */
async function uploadTranslatedTranscript(deps: AppDeps, user: SessionUser, form: UploadForm): Promise<UploadResult> {
  const file = form.file;
  if (!file) throw new AppError("BAD_REQUEST", "Please select a file to upload.");
  if (!TRANSLATED_TRANSCRIPT_EXTENSIONS.includes(extensionOf(file.originalName))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Please select a .cha or .txt file.");
  }
  if (!(await contentMatchesExtension(file.tempFile, ".txt"))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The selected file is not a plain text file.");
  }
  const text = await readText(async () => decodePlainText(await fs.readFile(file.tempFile)));
  // The same input rules as transcripts.save ('Transcript is empty.', 'Unknown id.').
  const input = ZSaveTranscriptInput.safeParse({ audioId: form.fields.audioId ?? "", text });
  if (!input.success)
    throw new AppError("BAD_REQUEST", firstIssueMessage(input.error) ?? "The transcript is not valid.");
  const out = await saveTranscript(deps, user, input.data);
  return { kind: "TRANSLATED_TRANSCRIPT", message: out.message, fileName: out.fileName, status: out.status };
}

const HANDLERS: Record<UploadKind, (deps: AppDeps, user: SessionUser, form: UploadForm) => Promise<UploadResult>> = {
  AUDIO: uploadAudio,
  INITIAL_TRANSCRIPT: uploadInitialTranscript,
  AUDIOTRANSLATION: uploadTranslatedAudio,
  TRANSLATED_TRANSCRIPT: uploadTranslatedTranscript,
};

/**
 * Stores one upload of `kind` (ARCHITECTURE "Decisions"; SPEC §2.13, §2.16, §2.18, §5, §7.2):
 * types files by their content, applies the name and type rules of file-rules.ts, then hands
 * them to the upload services (which move the temp file into storage) or reads their text.
 * Throws AppError: BAD_REQUEST / UNSUPPORTED_MEDIA_TYPE with the spec's messages, and whatever
 * the services raise (NOT_FOUND, FORBIDDEN, CONFLICT). The caller removes the temp file after.
 */
export function receiveUpload(
  deps: AppDeps,
  user: SessionUser,
  kind: UploadKind,
  form: UploadForm,
): Promise<UploadResult> {
  return HANDLERS[kind](deps, user, form);
}

/**
 * A grid row's take (decision 035, oral translation by segment): the form's one audio file, typed
 * by its content, stored by storeTake. Throws BAD_REQUEST 'Please upload an audio file.' without a
 * file, NOT_FOUND UNKNOWN_SEGMENT for a malformed or unknown row id, and storeTake's errors. The
 * caller removes the temp file after.
 */
export async function receiveTake(
  deps: AppDeps,
  user: SessionUser,
  segmentId: string,
  form: UploadForm,
): Promise<{ message: string; take: TakeView }> {
  if (!isUuid(segmentId)) throw new AppError("NOT_FOUND", UNKNOWN_SEGMENT);
  const file = form.file;
  if (!file) throw new AppError("BAD_REQUEST", "Please upload an audio file.");
  return storeTake(deps, user, { segmentId, file: await sniffedUpload(file) });
}
