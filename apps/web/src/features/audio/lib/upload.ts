import type { Category } from "@tafsiri/domain";
import type { RestResult } from "#web/lib/rest";
import { startResumableUpload } from "#web/lib/resumable-upload";

/** An uploaded audio's participant (decision 024): a participant code and, optionally, the session's day (YYYY-MM-DD). */
export interface AudioParticipantLink {
  participantCode: string;
  sessionDate: string | null;
}

/** An uploaded audio's own languages (decision 035, ISO 639-3); null keeps the programme's. */
export interface AudioUploadLanguages {
  sourceLanguage: string | null;
  targetLanguage: string | null;
}

/**
 * The upload fields of an audio (SPEC §2.16): its category and, when given, its participant
 * (decision 024: `participant_code` and `session_date`) and its own languages (decision 035:
 * `source_language` and `target_language`), which the server checks before it stores anything.
 */
export function audioUploadFields(
  category: Category,
  link: AudioParticipantLink | null,
  languages: AudioUploadLanguages | null = null,
): Record<string, string> {
  const fields: Record<string, string> = { category };
  if (link?.participantCode) fields.participant_code = link.participantCode;
  if (link?.participantCode && link.sessionDate) fields.session_date = link.sessionDate;
  if (languages?.sourceLanguage) fields.source_language = languages.sourceLanguage;
  if (languages?.targetLanguage) fields.target_language = languages.targetLanguage;
  return fields;
}

/**
 * Uploads one audio of a category (SPEC §2.16), linked to a participant when `link` is given
 * (decision 024), resumable (decision 020: tus to /api/uploads, then finish, which answers as
 * `POST /api/audios/upload/AUDIO`). Answers {status:'success', filename, _id} or
 * {status:'failed', message}; never throws.
 */
export function uploadAudio(
  category: Category,
  file: File,
  link: AudioParticipantLink | null = null,
): Promise<RestResult> {
  return startResumableUpload(file, "AUDIO", audioUploadFields(category, link)).done;
}

/**
 * Attaches an initial transcript (.doc, .docx, .pdf, .txt) to an audio (SPEC §2.18, §7.2),
 * resumable (decision 020), with the fields of `POST /api/audios/upload/INITIAL_TRANSCRIPT`:
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
