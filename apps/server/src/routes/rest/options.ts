import type { AppDeps } from "@tafsiri/api";
import type { RequestLimit } from "../../plugins/request-limit";

/** What the REST scope needs (routes/rest/index.ts); its own module so no route imports its parent. */
export interface RestOptions {
  deps: AppDeps;
  /** Largest accepted upload in bytes (MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** Counts each request against the general request limit (plugins/request-limit.ts); runs first. */
  limitRequests: RequestLimit;
}
