import type { FastifyPluginAsync } from "fastify";
import { signFileUrl } from "@tafsiri/api/services/file-urls";
import type { RestOptions } from "../rest";
import { callerAs, requireUser, restError, sendResult } from "../../lib/rest-helpers";
import { audioIdForFileKey } from "../../lib/audio-lookups";

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
 * `POST /api/fetch-files` `{ fileUrl, folder }` → `{ url }` (SPEC §7.1, §7.2; ARCHITECTURE
 * "Decisions"): a short-lived signed `/files/...` URL for a stored file. `fileUrl` is the storage
 * key (or an earlier `/files/` URL); `folder` is accepted and not needed. The caller must be
 * allowed to see the audio the file belongs to (decided by the audios.get procedure: 401, 403).
 * A key no audio owns, or a missing file, answers 404 'File not found.'.
 */
export const fetchFilesRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  app.post("/api/fetch-files", async (req, reply) =>
    sendResult(reply, async () => {
      const user = await requireUser(deps, req);
      const body = (req.body ?? {}) as { fileUrl?: unknown };
      const key = typeof body.fileUrl === "string" ? storageKeyOf(body.fileUrl) : "";
      if (!key) throw restError("BAD_REQUEST", "fileUrl is required.");
      const audioId = await audioIdForFileKey(deps.db, key);
      if (!audioId) throw restError("NOT_FOUND", "File not found.");
      const caller = await callerAs(deps, user);
      await caller.audios.get({ audioId });
      if (!(await deps.storage.exists(key))) throw restError("NOT_FOUND", "File not found.");
      return { url: signFileUrl(deps.jwtSecret, key) };
    }),
  );
};
