import type { AppDeps } from "@tafsiri/api";

/** What the REST scope needs (routes/rest/index.ts); its own module so no route imports its parent. */
export interface RestOptions {
  deps: AppDeps;
  /** Largest accepted upload in bytes (MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
}
