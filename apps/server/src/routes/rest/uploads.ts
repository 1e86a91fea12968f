import { promises as fs } from "node:fs";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import type { AppDeps, SessionUser } from "@tafsiri/api";
import { ZCategory } from "@tafsiri/api/schemas/common";
import { attachInitialTranscript, createAudio, uploadRecording, type TempUpload } from "@tafsiri/api/services/uploads";
import type { RestOptions } from "../rest";
import { callerAs, requireUser, restError, sendResult } from "../../lib/rest-helpers";
import { readUploadForm, type ReceivedFile, type UploadForm } from "../../lib/upload-form";
import { contentMatchesExtension, extensionOf, sniffAudio, transcriptExtension } from "../../lib/file-kinds";
import { decodePlainText, extractText, UnreadableTextError } from "../../lib/extract-text";

/** Upload kinds of ARCHITECTURE "Decisions" (SPEC §9). */
export const UPLOAD_KINDS = ["AUDIO", "INITIAL_TRANSCRIPT", "AUDIOTRANSLATION", "TRANSLATED_TRANSCRIPT"] as const;
type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Kinds only administrators may upload; refused before the body is read. */
const ADMIN_KINDS: ReadonlySet<UploadKind> = new Set(["AUDIO", "INITIAL_TRANSCRIPT"]);

/** Transcript files are read into memory for their text, so they get a smaller limit (bytes). */
const TEXT_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;

const TEXT_KINDS: ReadonlySet<UploadKind> = new Set(["INITIAL_TRANSCRIPT", "TRANSLATED_TRANSCRIPT"]);

/** Translated transcript files (SPEC §3: .cha, plain text). */
const TRANSLATED_TRANSCRIPT_EXTENSIONS = [".cha", ".txt"];

/** SPEC §5: the audio filename is the uploaded file's name (without folders) up to its first dot. */
export function audioFilename(originalName: string): string {
  const base = path.posix.basename(originalName.replace(/\\/g, "/"));
  return base.split(".")[0]?.trim() ?? "";
}

/**
 * The file part as the upload services take it, typed by its content: a file whose content is
 * not audio is handed over as application/octet-stream, and the service refuses it with the
 * spec's message (and removes the temp file).
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

/** AUDIO (SPEC §2.16, §5): category + one audio file; the name up to its first dot is the filename. */
async function uploadAudio(deps: AppDeps, user: SessionUser, form: UploadForm) {
  const category = ZCategory.safeParse(form.fields.category);
  if (!category.success) throw restError("BAD_REQUEST", category.error.issues[0]?.message ?? "Please select a category.");
  const file = form.file;
  if (!file) throw restError("BAD_REQUEST", "Please select an audio file to upload.");
  // A part without a usable name (a Blob) falls back to the documented `filename` field.
  const filename = audioFilename(file.originalName === "blob" ? "" : file.originalName) || audioFilename(form.fields.filename ?? "");
  const audio = await createAudio(deps, user, { filename, category: category.data, file: await sniffedUpload(file) });
  return {
    status: "success",
    success: true,
    message: `${audio.filename} has been uploaded successfully.`,
    filename: audio.filename,
    _id: audio.id,
  };
}

/** INITIAL_TRANSCRIPT (SPEC §2.18, §5): .doc, .docx, .pdf or .txt; its text is extracted and attached. */
async function uploadInitialTranscript(deps: AppDeps, user: SessionUser, form: UploadForm) {
  const file = form.file;
  if (!file) throw restError("BAD_REQUEST", "Please select a file to upload.");
  const ext = transcriptExtension(extensionOf(file.originalName));
  if (!ext) throw restError("UNSUPPORTED_MEDIA_TYPE", "Please select a .doc, .docx, .pdf or .txt file.");
  if (!(await contentMatchesExtension(file.tempFile, ext))) {
    throw restError("UNSUPPORTED_MEDIA_TYPE", `The selected file is not a valid ${ext} file.`);
  }
  const text = await readText(() => extractText(file.tempFile, ext));
  const out = await attachInitialTranscript(deps, user, { audioId: form.fields.audioId ?? "", text });
  return { status: "success", success: true, message: "Transcript uploaded successfully!", audioId: out.audioId };
}

/** AUDIOTRANSLATION (SPEC §2.13, §5): a translated recording and who recorded it. */
async function uploadTranslatedAudio(deps: AppDeps, user: SessionUser, form: UploadForm) {
  const file = form.file;
  if (!file) throw restError("BAD_REQUEST", "Please upload an audio file.");
  const out = await uploadRecording(deps, user, {
    audioId: form.fields.audioId ?? "",
    recordedBy: form.fields.recordedBy ?? "",
    file: await sniffedUpload(file),
  });
  return { status: "success", success: true, message: out.message, recorded_audio_approval_status: out.status };
}

/** TRANSLATED_TRANSCRIPT (SPEC §7.2): a .cha/.txt plain-text file saved through transcripts.save. */
async function uploadTranslatedTranscript(deps: AppDeps, user: SessionUser, form: UploadForm) {
  const file = form.file;
  if (!file) throw restError("BAD_REQUEST", "Please select a file to upload.");
  if (!TRANSLATED_TRANSCRIPT_EXTENSIONS.includes(extensionOf(file.originalName))) {
    throw restError("UNSUPPORTED_MEDIA_TYPE", "Please select a .cha or .txt file.");
  }
  if (!(await contentMatchesExtension(file.tempFile, ".txt"))) {
    throw restError("UNSUPPORTED_MEDIA_TYPE", "The selected file is not a plain text file.");
  }
  const text = await readText(async () => decodePlainText(await fs.readFile(file.tempFile)));
  const caller = await callerAs(deps, user);
  const out = await caller.transcripts.save({ audioId: form.fields.audioId ?? "", text });
  return {
    status: "success",
    success: true,
    message: out.message,
    fileName: out.fileName,
    translation_script_approval_status: out.status,
  };
}

/** Runs a text extraction; an unreadable file becomes 400 with a clear message. */
async function readText(extract: () => Promise<string>): Promise<string> {
  try {
    return await extract();
  } catch (error) {
    if (error instanceof UnreadableTextError) throw restError("BAD_REQUEST", `The selected file could not be read: ${error.message}`);
    throw error;
  }
}

const HANDLERS: Record<UploadKind, (deps: AppDeps, user: SessionUser, form: UploadForm) => Promise<object>> = {
  AUDIO: uploadAudio,
  INITIAL_TRANSCRIPT: uploadInitialTranscript,
  AUDIOTRANSLATION: uploadTranslatedAudio,
  TRANSLATED_TRANSCRIPT: uploadTranslatedTranscript,
};

/**
 * `POST /api/audios/upload/{KIND}` (ARCHITECTURE "Decisions"; SPEC §7.1, §7.2): multipart form,
 * Bearer token. KIND is AUDIO, INITIAL_TRANSCRIPT, AUDIOTRANSLATION or TRANSLATED_TRANSCRIPT.
 * Send the text fields (category, audioId, recordedBy, ...) before the file; fields after the
 * file are accepted too. The file is streamed to a temp file, its type sniffed from the content,
 * then handed to the upload services (which move it into storage) or read for its text.
 * Answers `{ status: 'success', success: true, message, ... }`; failures
 * `{ status: 'failed', success: false, message }` with 400/401/403/404/409/413/415. A refused
 * upload leaves no file behind.
 */
export const uploadRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps, maxUploadBytes }) => {
  app.post<{ Params: { kind: string } }>("/api/audios/upload/:kind", async (req, reply) =>
    sendResult(reply, async () => {
      const kind = UPLOAD_KINDS.find((k) => k === req.params.kind.toUpperCase());
      if (!kind) throw restError("NOT_FOUND", `Unknown upload kind. Use one of ${UPLOAD_KINDS.join(", ")}.`);
      const user = await requireUser(deps, req);
      if (ADMIN_KINDS.has(kind) && user.role !== "Admin") throw restError("FORBIDDEN", "Only administrators may do this.");
      const limit = TEXT_KINDS.has(kind) ? Math.min(maxUploadBytes, TEXT_UPLOAD_MAX_BYTES) : maxUploadBytes;
      const form = await readUploadForm(req, deps.storage, limit);
      try {
        return await HANDLERS[kind](deps, user, form);
      } finally {
        await form.discard();
      }
    }),
  );
};
