import type { Category } from "./categories";
import type { RestResult } from "../../../lib/rest";
import { startResumableUpload } from "../../../lib/resumable-upload";

/**
 * Uploads one audio of a category (SPEC §2.16), resumable (issue 15 Build 2: tus to /api/uploads,
 * then finish, which answers as `POST /api/audios/upload/AUDIO`). Answers {status:'success',
 * filename, _id} or {status:'failed', message}; never throws.
 */
export function uploadAudio(category: Category, file: File): Promise<RestResult> {
  return startResumableUpload(file, "AUDIO", { category }).done;
}

/**
 * Attaches an initial transcript (.doc, .docx, .pdf, .txt) to an audio (SPEC §2.18, §7.2),
 * resumable (issue 15 Build 2), with the fields of `POST /api/audios/upload/INITIAL_TRANSCRIPT`:
 * audioId, and replace=true when `replace`. The server refuses to overwrite an existing transcript
 * (409 'This audio already has a transcript.') unless `replace` is set. Never throws.
 */
export function uploadInitialTranscript(
  audioId: string,
  file: File,
  { replace = false }: { replace?: boolean } = {},
): Promise<RestResult> {
  return startResumableUpload(file, "INITIAL_TRANSCRIPT", { audioId, ...(replace ? { replace: "true" } : {}) }).done;
}

/** Whether a REST answer reports failure (SPEC §7.3). */
export function isFailed(result: RestResult): boolean {
  return result.status === "failed" || result.success === false;
}
