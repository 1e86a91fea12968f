import { promises as fs } from "node:fs";
import { INITIAL_TRANSCRIPT_TYPE_REQUIRED } from "@tafsiri/domain";
import { CATEGORY_REQUIRED } from "@tafsiri/domain";
import { filenameExists } from "@tafsiri/db/repositories/audios";
import {
  claimResumableUpload,
  deleteResumableUpload,
  findResumableUpload,
  insertResumableUpload,
  recordResumableUploadResult,
  releaseResumableUpload,
  type ResumableUploadRow,
} from "@tafsiri/db/repositories/resumable-uploads";
import type { AppDeps, SessionUser } from "../context";
import { APP_ERROR_CODES, AppError, UNEXPECTED_ERROR, type AppErrorCode } from "../errors/app-error";
import { firstIssueMessage } from "../errors/describe-error";
import { ZCategory } from "../schemas/common";
import { NOT_ASSIGNED, requireAudioAccess } from "../services/access";
import { requireActiveStaff } from "../services/staff";
import { TRANSLATED_TRANSCRIPT_EXTENSIONS, audioFilename, extensionOf, transcriptExtension } from "./file-rules";
import {
  UPLOAD_KINDS,
  receiveUpload,
  replaceField,
  uploadLanguageFields,
  requireUploader,
  tooLargeMessage,
  uploadLimit,
  type UploadKind,
  type UploadResult,
} from "./receive-upload";
import { HAS_INITIAL_TRANSCRIPT, RECORDER_REQUIRED } from "./store-upload";
import { uploadParticipant, uploadParticipantFields } from "../services/audio-participants";
import { isUploadId, type TakenFile } from "../storage/upload-store";

const UPLOAD_NOT_FOUND = "Upload not found.";
const UPLOAD_NOT_COMPLETE = "The upload is not complete yet.";
const UPLOAD_BEING_FINISHED = "This upload is still being finished. Please try again in a moment.";
const UPLOAD_ALREADY_FINISHED = "This upload is already finished.";

/** How long a second finishing request waits for the first one's answer (ms). */
const FINISH_WAIT_MS = 30_000;
const FINISH_POLL_MS = 200;

/** What a resumable upload says about itself when it starts: the form's fields and the file's name. */
interface ResumableUploadForm {
  /**
   * The fields of the multipart form of the same kind: category, audioId, recordedBy, replace,
   * filename, participant_code, session_date, source_language, target_language.
   */
  fields: Record<string, string>;
  /** The name of the file as the user chose it, e.g. "interview 3.wav". */
  originalName: string;
}

/**
 * The checks a resumable upload of `kind` passes before its first byte is
 * accepted, so that a 40 MB recording is not sent only to be refused. The rules are those of the
 * upload itself (receiveUpload runs all of them again on the finished file, with the content
 * sniffed): AUDIO a category, a file name that does not exist yet and, when given, a known
 * participant_code of the same group and a valid session_date (decision 024), and ISO 639-3 codes
 * as source_language and target_language when given (decision 035); INITIAL_TRANSCRIPT and
 * TRANSLATED_TRANSCRIPT the file extension and access to the audio (and an initial transcript
 * already attached only with replace=true); AUDIOTRANSLATION access to an assigned audio and an
 * active recorder. Throws the AppError the upload would answer (400, 403, 404, 409, 415).
 */
async function checkResumableUpload(
  deps: AppDeps,
  user: SessionUser,
  kind: UploadKind,
  form: ResumableUploadForm,
): Promise<void> {
  const { fields } = form;
  switch (kind) {
    case "AUDIO": {
      const category = ZCategory.safeParse(fields.category);
      if (!category.success) throw new AppError("BAD_REQUEST", firstIssueMessage(category.error) ?? CATEGORY_REQUIRED);
      uploadLanguageFields(fields);
      const filename = audioFilename(form.originalName) || audioFilename(fields.filename ?? "");
      if (filename === "") throw new AppError("BAD_REQUEST", "Please select an audio file to upload.");
      if (await filenameExists(deps.db, filename)) throw new AppError("CONFLICT", `${filename} already exists.`);
      await uploadParticipant(deps.db, uploadParticipantFields(fields), category.data);
      return;
    }
    case "INITIAL_TRANSCRIPT": {
      const replace = replaceField(fields.replace);
      if (!transcriptExtension(extensionOf(form.originalName)))
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", INITIAL_TRANSCRIPT_TYPE_REQUIRED);
      const { audio } = await requireAudioAccess(deps.db, user, fields.audioId ?? "");
      if (audio.transcriptKey !== null && !replace) throw new AppError("CONFLICT", HAS_INITIAL_TRANSCRIPT);
      return;
    }
    case "AUDIOTRANSLATION": {
      const { task } = await requireAudioAccess(deps.db, user, fields.audioId ?? "");
      if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
      await requireActiveStaff(deps.db, fields.recordedBy ?? "", RECORDER_REQUIRED);
      return;
    }
    case "TRANSLATED_TRANSCRIPT": {
      if (!TRANSLATED_TRANSCRIPT_EXTENSIONS.includes(extensionOf(form.originalName)))
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Please select a .cha or .txt file.");
      await requireAudioAccess(deps.db, user, fields.audioId ?? "");
      return;
    }
  }
}

/** The upload form a resumable upload's tus metadata describes: `filename` is the file's name, the rest are fields. */
function resumableUploadForm(metadata: Record<string, string | null>): ResumableUploadForm {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (value !== null) fields[key] = value;
  return { fields, originalName: fields.filename ?? "" };
}

/** What a request starting a resumable upload says: its tus metadata and its `Upload-Length` header. */
export interface ResumableUploadStart {
  /** The decoded Upload-Metadata: `kind`, `filename` and the form's fields. */
  metadata: Record<string, string | null>;
  /** The Upload-Length header as sent: the file's size in bytes. */
  uploadLength: unknown;
  /** MAX_UPLOAD_BYTES. */
  maxUploadBytes: number;
}

function resumableKind(value: string | null | undefined): UploadKind {
  const kind = UPLOAD_KINDS.find((k) => k === (value ?? "").toUpperCase());
  if (!kind) throw new AppError("BAD_REQUEST", `Unknown upload kind. Use one of ${UPLOAD_KINDS.join(", ")}.`);
  return kind;
}

function resumableLength(raw: unknown): number {
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw))
    throw new AppError("BAD_REQUEST", "Upload-Length is required: the file's size in bytes.");
  return Number(raw);
}

/**
 * Decision 020: whether `user` may start the resumable upload `start` describes, decided before its
 * first byte. In this order: a known kind (BAD_REQUEST 'Unknown upload kind. Use one of …'), who may
 * upload it (requireUploader: 401, 403), a well-formed Upload-Length (BAD_REQUEST), the kind's size
 * limit (TOO_LARGE 'File is too large. The limit is N MB.'), then checkResumableUpload (the kind's
 * rules). Returns the upload's kind; recordResumableUpload keeps it once tus has made the upload.
 */
export async function startResumableUpload(
  deps: AppDeps,
  user: SessionUser,
  start: ResumableUploadStart,
): Promise<UploadKind> {
  const kind = resumableKind(start.metadata.kind);
  requireUploader(user, kind);
  const limit = uploadLimit(kind, start.maxUploadBytes);
  if (resumableLength(start.uploadLength) > limit) throw new AppError("TOO_LARGE", tooLargeMessage(limit));
  await checkResumableUpload(deps, user, kind, resumableUploadForm(start.metadata));
  return kind;
}

/** Records the upload the tus store just created (its id and size in bytes) as `user`'s upload of `kind`. */
export async function recordResumableUpload(
  deps: AppDeps,
  upload: { id: string; user: SessionUser; kind: UploadKind; sizeBytes: number },
): Promise<void> {
  await insertResumableUpload(deps.db, {
    id: upload.id,
    userId: upload.user.id,
    kind: upload.kind,
    sizeBytes: upload.sizeBytes,
  });
}

/**
 * The owner rule of decision 020: an upload is its owner's alone. Returns `user`'s upload `id`;
 * NOT_FOUND 'Upload not found.' for a malformed or unknown id and for another user's upload (so
 * another user's id reads as an unknown one).
 */
export async function ownResumableUpload(deps: AppDeps, user: SessionUser, id: string): Promise<ResumableUploadRow> {
  const row = isUploadId(id) ? await findResumableUpload(deps.db, id) : undefined;
  if (!row || row.userId !== user.id) throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
  return row;
}

/**
 * `user`'s upload `id` (ownResumableUpload) while it still takes bytes; CONFLICT 'This upload is
 * already finished.' once a finishing request has claimed it.
 */
export async function openResumableUpload(deps: AppDeps, user: SessionUser, id: string): Promise<ResumableUploadRow> {
  const row = await ownResumableUpload(deps, user, id);
  if (row.finishingAt !== null) throw new AppError("CONFLICT", UPLOAD_ALREADY_FINISHED);
  return row;
}

/**
 * Cancels `user`'s open upload `id` (openResumableUpload's errors): `removeBytes` drops what the tus
 * store holds and tells whether it did; only then is the upload's record deleted.
 */
export async function cancelResumableUpload(
  deps: AppDeps,
  user: SessionUser,
  id: string,
  removeBytes: () => Promise<boolean>,
): Promise<void> {
  const row = await openResumableUpload(deps, user, id);
  if (await removeBytes()) await deleteResumableUpload(deps.db, row.id);
}

/** A finishing request's answer as it is kept for the retries. */
type KeptResult = { ok: true; result: UploadResult } | { ok: false; code: AppErrorCode; message: string };

function keptFailure(error: unknown): KeptResult {
  if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
  return { ok: false, code: "INTERNAL", message: UNEXPECTED_ERROR };
}

/** The answer `kept` once more: the result, or the same AppError. */
function replay(kept: unknown): UploadResult {
  const value = kept as KeptResult;
  if (value.ok) return value.result;
  const code = value.code in APP_ERROR_CODES ? value.code : "INTERNAL";
  throw new AppError(code, value.message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for another request's answer to upload `id`; CONFLICT when it does not come in time. */
async function awaitResult(deps: AppDeps, id: string): Promise<UploadResult> {
  for (let waited = 0; waited < FINISH_WAIT_MS; waited += FINISH_POLL_MS) {
    const row = await findResumableUpload(deps.db, id);
    if (!row) throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
    if (row.result !== null) return replay(row.result);
    if (row.finishingAt === null) throw new AppError("CONFLICT", UPLOAD_NOT_COMPLETE);
    await sleep(FINISH_POLL_MS);
  }
  throw new AppError("CONFLICT", UPLOAD_BEING_FINISHED);
}

/**
 * Turns the finished resumable upload `id` of `user` into what an upload of its
 * kind makes (an audio, an initial transcript, a translated recording or transcript version),
 * through receiveUpload: the same content sniffing, size and type rules and services as the
 * multipart path, run before any of those rows is written. Exactly once: the first request claims
 * the upload, takes its file (`take`: null while bytes are missing) and keeps its answer, success
 * or refusal; every later request for the same id (a retry after a lost answer, a reload) gets
 * that answer again, waiting up to 30 s while the first still runs. Returns the UploadResult;
 * throws NOT_FOUND 'Upload not found.' (ownResumableUpload: malformed or unknown id, another user's), CONFLICT 'The upload is not
 * complete yet.', CONFLICT when the first request takes longer than the wait, and the upload's own
 * AppErrors (kept and answered again to every retry).
 */
export async function finishResumableUpload(
  deps: AppDeps,
  user: SessionUser,
  input: { id: string; take: () => Promise<TakenFile | null> },
): Promise<UploadResult> {
  const row = await ownResumableUpload(deps, user, input.id);
  if (row.result !== null) return replay(row.result);
  if (!(await claimResumableUpload(deps.db, input.id))) return awaitResult(deps, input.id);

  let file: TakenFile | null;
  try {
    file = await input.take();
  } catch (error) {
    await releaseResumableUpload(deps.db, input.id);
    throw error;
  }
  if (!file) {
    await releaseResumableUpload(deps.db, input.id);
    throw new AppError("CONFLICT", UPLOAD_NOT_COMPLETE);
  }
  try {
    const form = resumableUploadForm(file.metadata);
    const result = await receiveUpload(deps, user, row.kind as UploadKind, {
      fields: form.fields,
      file: { tempFile: file.tempFile, originalName: form.originalName, sizeBytes: file.sizeBytes },
    });
    await recordResumableUploadResult(deps.db, input.id, { ok: true, result } satisfies KeptResult);
    return result;
  } catch (error) {
    await recordResumableUploadResult(deps.db, input.id, keptFailure(error));
    throw error;
  } finally {
    await fs.rm(file.tempFile, { force: true });
  }
}
