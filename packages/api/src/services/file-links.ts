import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { audioIdForFileKey } from "@tafsiri/db/repositories/file-keys";
import { requireAudioAccess } from "./access";
import { signFileUrl } from "./file-urls";

export const FILE_URL_REQUIRED = "fileUrl is required.";
export const FILE_NOT_FOUND = "File not found.";

/**
 * The storage key named by a `fileUrl`: the key itself ("audios/x.wav"), or a `/files/{key}`
 * path or URL as answered earlier (its query is ignored). Empty string when there is none.
 */
export function storageKeyOf(fileUrl: string): string {
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
