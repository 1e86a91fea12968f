import type { Category } from "./categories";
import { postForm, type RestResult } from "../../../lib/rest";

/**
 * Uploads one audio of a category through `POST /api/audios/upload/AUDIO` (SPEC §2.16, §7.1),
 * fields in order category then file. Answers {status:'success', filename, _id} or
 * {status:'failed', message}; never throws.
 */
export function uploadAudio(category: Category, file: File): Promise<RestResult> {
  const form = new FormData();
  form.append("category", category);
  form.append("file", file);
  return postForm("/api/audios/upload/AUDIO", form);
}

/**
 * Attaches an initial transcript (.doc, .docx, .pdf, .txt) to an audio through
 * `POST /api/audios/upload/INITIAL_TRANSCRIPT` (SPEC §2.18, §7.2), fields audioId (then
 * replace=true when `replace`) then file. The server refuses to overwrite an existing transcript
 * (409 'This audio already has a transcript.') unless `replace` is set.
 */
export function uploadInitialTranscript(
  audioId: string,
  file: File,
  { replace = false }: { replace?: boolean } = {},
): Promise<RestResult> {
  const form = new FormData();
  form.append("audioId", audioId);
  if (replace) form.append("replace", "true");
  form.append("file", file);
  return postForm("/api/audios/upload/INITIAL_TRANSCRIPT", form);
}

/** Whether a REST answer reports failure (SPEC §7.3). */
export function isFailed(result: RestResult): boolean {
  return result.status === "failed" || result.success === false;
}
