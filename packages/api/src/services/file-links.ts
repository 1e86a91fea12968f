import path from "node:path";
import type { Executor } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { audioIdForFileKey, storedFileOwner } from "@tafsiri/db/repositories/file-keys";
import { exportFileName } from "@tafsiri/db/repositories/exports";
import { storedContentType } from "../storage/stored-content-type";
import { requireAudioAccess } from "./access";
import { signFileUrl } from "./file-urls";

const FILE_URL_REQUIRED = "fileUrl is required.";
const FILE_NOT_FOUND = "File not found.";

/**
 * The storage key named by a `fileUrl`: the key itself ("audios/x.wav"), or a `/files/{key}`
 * path or URL as answered earlier (its query is ignored). Empty string when there is none.
 */
function storageKeyOf(fileUrl: string): string {
  let value = fileUrl.trim();
  if (/^https?:\/\//i.test(value)) {
    try {
      value = new URL(value).pathname;
    } catch {
      return "";
    }
  }
  value = value.split(/[?#]/)[0] ?? "";
  value = value.replace(/^\/+/, "").replace(/^files\//, "");
  try {
    return decodeURIComponent(value);
  } catch {
    return "";
  }
}

/**
 * A short-lived signed `/files/...` URL (an hour) for the stored file `fileUrl` names (SPEC §7.2
 * "get a readable file URL"; ARCHITECTURE "Decisions"). The caller must be allowed to open the
 * audio the file belongs to (requireAudioAccess). Throws AppError BAD_REQUEST 'fileUrl is
 * required.', NOT_FOUND 'File not found.' for a key no audio owns or a missing file, FORBIDDEN.
 */
export async function fileLinkFor(deps: AppDeps, user: SessionUser, fileUrl: string): Promise<string> {
  const key = storageKeyOf(fileUrl);
  if (!key) throw new AppError("BAD_REQUEST", FILE_URL_REQUIRED);
  const audioId = await audioIdForFileKey(deps.db, key);
  if (!audioId) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  await requireAudioAccess(deps.db, user, audioId);
  if (!(await deps.storage.exists(key))) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  return signFileUrl(deps.jwtSecret, key);
}

/** How a stored file is offered when downloaded (`Content-Disposition`). */
export interface FileDownload {
  /** inline for audio (played in place), attachment for transcripts and documents. */
  disposition: "inline" | "attachment";
  /** The name a browser saves it under, e.g. "interview-07.wav". */
  fileName: string;
}

/**
 * The disposition and name of stored file `key`: audio (an audio's own file or a
 * translated recording) is inline, everything else an attachment. Names come from the audio:
 * `{filename}{ext}`, `{filename}_INITIALTRANSCRIPT.txt`, the transcript version's .cha name,
 * `{filename}_TRANSLATEDAUDIO{ext}`, a dataset export `tafsiri-export-{date}.zip`; a file no row points at
 * keeps its stored name.
 */
export async function fileDownload(db: Executor, key: string): Promise<FileDownload> {
  const disposition = storedContentType(key).startsWith("audio/") ? "inline" : "attachment";
  const ext = path.posix.extname(key).toLowerCase();
  if (key.startsWith("exports/")) {
    const name = await exportFileName(db, key);
    if (name) return { disposition: "attachment", fileName: name };
  }
  const owner = await storedFileOwner(db, key);
  switch (owner?.kind) {
    case "audio":
      return { disposition, fileName: `${owner.audioFilename}${ext}` };
    case "initial-transcript":
      return { disposition, fileName: `${owner.audioFilename}_INITIALTRANSCRIPT${ext}` };
    case "transcript":
      return { disposition, fileName: owner.fileName };
    case "recording":
      return { disposition, fileName: `${owner.audioFilename}_TRANSLATEDAUDIO${ext}` };
    case undefined:
      return { disposition, fileName: path.posix.basename(key) };
  }
}
