import { randomUUID } from "node:crypto";
import { sourceSegments } from "@tafsiri/domain";
import { replaceSourceSegments } from "@tafsiri/db/repositories/translation/source-segments";
import { CATEGORY_REQUIRED, isCategory, LANGUAGE_CODE, type Category } from "@tafsiri/domain";
import { filenameExists, insertAudio, setTranscriptKey } from "@tafsiri/db/repositories/audios";
import { ensureSubmission } from "@tafsiri/db/repositories/submissions";
import { insertTranslatedRecording } from "@tafsiri/db/repositories/translated-recordings";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { DbTransaction } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { isAcceptedAudioType } from "./file-rules";
import { AppError } from "../errors/app-error";
import { lockAudioAccess, NOT_ASSIGNED, requireAdmin } from "../services/access";
import { publishAfter, recordAudioEvent } from "../live/record";
import { audioPayload, submissionPayload } from "../webhooks/payloads";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { notifyAdmins } from "../services/notifications";
import { requireActiveStaff } from "../services/staff";
import { adoptedUpload, commitWithFile, textFile } from "../services/stored-files";
import { applyTransition } from "../services/submissions";
import { NOTIFICATION_LINKS } from "../services/notification-links";
import { uploadParticipant, type UploadParticipantFields } from "../services/audio-participants";
import { LANGUAGE_CODE_INVALID } from "../schemas/translation";

/** A file the REST layer has streamed to `storage.tempPath()` and sniffed. */
export interface TempUpload {
  /** Absolute path of the fully written temp file; the service adopts or deletes it. */
  tempFile: string;
  /** MIME type sniffed from the content (file-type), e.g. audio/mpeg. */
  mimeType: string;
  /** Lower-case extension with the dot, e.g. ".wav". */
  extension: string;
  sizeBytes: number;
}

const INVALID_AUDIO_FILE = "The selected file is not a valid audio file.";
const INVALID_RECORDING_FILE = "Invalid file type. Please select a valid audio file.";
const EMPTY_INITIAL_TRANSCRIPT = "The transcript file has no text.";
export const HAS_INITIAL_TRANSCRIPT = "This audio already has a transcript.";
export const RECORDER_REQUIRED = "Please select a staff to recorded the audio.";
const RECORDING_LOCKED = "The recording has been approved and can no longer be replaced.";
const RECORDING_UPLOADED = "Translation Audio file uploaded successfully.";

/** The upload's extension when it looks like one (".wav"), else none. */
export function safeExtension(extension: string): string {
  const ext = extension.toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : "";
}

/** Decision 035: an audio's own languages (ISO 639-3), null for the programme's. */
export interface AudioLanguages {
  sourceLanguage: string | null;
  targetLanguage: string | null;
}

/**
 * Decision 035: `languages` when each one given is an ISO 639-3 code; BAD_REQUEST 'A language is an
 * ISO 639-3 code of three lower-case letters, such as eng or swa.' otherwise.
 */
export function requireLanguageCodes(languages: AudioLanguages): AudioLanguages {
  for (const code of [languages.sourceLanguage, languages.targetLanguage]) {
    if (code !== null && !LANGUAGE_CODE.test(code)) throw new AppError("BAD_REQUEST", LANGUAGE_CODE_INVALID);
  }
  return languages;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}

/**
 * SPEC §2.16, §5: stores a new audio (admin only). `filename` is the uploaded name up to its first
 * dot and must be unique (CONFLICT '{filename} already exists.'); the MIME type must be an audio
 * type the upload rules accept (ACCEPTED_AUDIO_TYPES.audio; BAD_REQUEST 'The selected file is not a valid audio file.'). Moves the
 * temp file to `audios/{uuid}{ext}` before the row commits, in one transaction with an audit
 * entry and an 'audio.changed' live event for the admins; on any failure the temp or adopted file is removed. Then wakes
 * the waveform job (`deps.waveforms`), which decodes the file into peaks (ARCHITECTURE "Long recordings and the corpus").
 * Decision 024: `participant` (optional) names the participant by code (any case) and the session
 * day; checked before the file is stored (BAD_REQUEST 'Unknown participant code P0042.', or the
 * category mismatch message) and linked in the same transaction.
 * Decision 035: `languages` (optional; each null for the programme's) are the audio's own source
 * and target languages, checked before the file is stored (requireLanguageCodes) and stored on the
 * new row; the audit entry 'create' carries them when given.
 * Returns the new audio id and filename.
 */
export async function createAudio(
  deps: AppDeps,
  user: SessionUser,
  input: {
    filename: string;
    category: Category;
    file: TempUpload;
    participant?: UploadParticipantFields;
    languages?: AudioLanguages;
  },
): Promise<{ id: string; filename: string }> {
  const { file } = input;
  const languages = input.languages ?? { sourceLanguage: null, targetLanguage: null };
  const hasLanguages = languages.sourceLanguage !== null || languages.targetLanguage !== null;
  const filename = input.filename.trim();
  const change = commitWithFile(
    deps.db,
    async (trx, store) => {
      requireAdmin(user);
      if (!isCategory(input.category)) throw new AppError("BAD_REQUEST", CATEGORY_REQUIRED);
      if (!isAcceptedAudioType("audio", file.mimeType) || filename === "") {
        throw new AppError("BAD_REQUEST", INVALID_AUDIO_FILE);
      }
      requireLanguageCodes(languages);
      const conflict = new AppError("CONFLICT", `${filename} already exists.`);
      if (await filenameExists(trx, filename)) throw conflict;
      const participant = input.participant ? await uploadParticipant(trx, input.participant, input.category) : null;
      const fileKey = `audios/${randomUUID()}${safeExtension(file.extension)}`;
      await store(adoptedUpload(deps.storage, file.tempFile, fileKey));
      const audio = await insertAudio(trx, {
        filename,
        category: input.category,
        fileKey,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
        uploadedBy: user.id,
        participantId: participant?.id ?? null,
        sessionDate: participant ? (input.participant?.sessionDate ?? null) : null,
        sourceLanguage: languages.sourceLanguage,
        targetLanguage: languages.targetLanguage,
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? conflict : error;
      });
      await insertAuditEntry(trx, user.id, "create", "audio", audio.id, {
        filename,
        category: audio.category,
        ...(hasLanguages ? languages : {}),
      });
      if (participant) {
        await insertAuditEntry(trx, user.id, "audio.participant_linked", "audio", audio.id, {
          filename,
          participantCode: participant.code,
          sessionDate: audio.sessionDate,
        });
      }
      await recordAudioEvent(trx, "audio.changed", audio.id, { staffIds: [] });
      await recordWebhookEvent(trx, "audio.uploaded", async () => ({ audio: await audioPayload(trx, audio.id) }));
      return { id: audio.id, filename: audio.filename };
    },
    { tempFile: file.tempFile },
  );
  const created = await publishAfter(deps, change);
  deps.waveforms?.wake();
  return created;
}

/**
 * SPEC §2.18, §7.2 INITIAL_TRANSCRIPT: attaches an initial transcript's extracted plain text to
 * an audio (admin only), stored as `initial-transcripts/{audioId}.txt` and cut into source
 * segments (decision 035: CHAT utterances, or lines and sentences of a text), with an audit entry
 * (detail `replaced`) and an 'audio.changed' live event. An audio that already has one keeps it
 * unless `replace` is true (the rule is the server's, not only the screen's); the check
 * runs under the audio's row lock, so of two concurrent first uploads one wins.
 * Throws FORBIDDEN for non-admins, BAD_REQUEST 'The transcript file has no text.' for blank text,
 * NOT_FOUND 'Audio not found.', CONFLICT 'This audio already has a transcript.'. Returns the audio id.
 */
export async function attachInitialTranscript(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; text: string; replace?: boolean },
): Promise<{ audioId: string }> {
  requireAdmin(user);
  if (input.text.trim() === "") throw new AppError("BAD_REQUEST", EMPTY_INITIAL_TRANSCRIPT);
  const change = commitWithFile(deps.db, async (trx, store) => {
    const { audio } = await lockAudioAccess(trx, user, input.audioId);
    if (audio.transcriptKey !== null && input.replace !== true) throw new AppError("CONFLICT", HAS_INITIAL_TRANSCRIPT);
    const key = `initial-transcripts/${audio.id}.txt`;
    await store(textFile(deps.storage, key, input.text, { keepOnUndo: audio.transcriptKey === key }));
    await setTranscriptKey(trx, audio.id, key);
    await replaceSourceSegments(trx, audio.id, sourceSegments(input.text));
    await insertAuditEntry(trx, user.id, "attach", "initial-transcript", audio.id, {
      replaced: audio.transcriptKey !== null,
    });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    return { audioId: audio.id };
  });
  return publishAfter(deps, change);
}

/**
 * SPEC §2.13, §4, §5 AUDIOTRANSLATION: stores a translated recording for an audio the caller may
 * work on, recorded by the active staff member `recordedBy`, as `recordings/{audioId}/{uuid}{ext}`
 * (earlier recordings are kept as history). Creates the task's submission first when there is
 * none, sets recorded_audio, recorded_by and status Pending, recomputes is_complete, notifies
 * every active admin, writes an audit entry and the live events, in one transaction; on any failure the temp or
 * adopted file is removed. Throws NOT_FOUND / FORBIDDEN (access), BAD_REQUEST 'This audio is not
 * assigned yet.', 'Please select a staff to recorded the audio.', 'Invalid file type. Please
 * select a valid audio file.', FORBIDDEN once the recording is Approved. Then wakes the waveform
 * job (`deps.waveforms`, ARCHITECTURE "Long recordings and the corpus"). `inCommit`, when given,
 * runs last in the same transaction with the new recording's file key (decision 035: the spans of
 * a recording assembled from takes are written with it).
 * Returns the new status and the success message.
 */
export async function uploadRecording(
  deps: AppDeps,
  user: SessionUser,
  input: {
    audioId: string;
    recordedBy: string;
    file: TempUpload;
    inCommit?: (trx: DbTransaction, recordingKey: string) => Promise<void>;
  },
): Promise<{ status: string; message: string }> {
  const { file } = input;
  const change = commitWithFile(
    deps.db,
    async (trx, store) => {
      const { audio, task } = await lockAudioAccess(trx, user, input.audioId);
      if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
      const recorder = await requireActiveStaff(trx, input.recordedBy, RECORDER_REQUIRED);
      if (!isAcceptedAudioType("recording", file.mimeType)) throw new AppError("BAD_REQUEST", INVALID_RECORDING_FILE);
      const submission = await ensureSubmission(trx, task.id, user.id);
      if (submission.recordedAudioApprovalStatus === "Approved") throw new AppError("FORBIDDEN", RECORDING_LOCKED);
      const fileKey = `recordings/${audio.id}/${randomUUID()}${safeExtension(file.extension)}`;
      await store(adoptedUpload(deps.storage, file.tempFile, fileKey));
      await insertTranslatedRecording(trx, {
        submissionId: submission.id,
        fileKey,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
        recordedBy: recorder.id,
        uploadedBy: user.id,
      });
      const { submission: updated } = await applyTransition(trx, task, submission, {
        submission: {
          recordedAudio: fileKey,
          recordedBy: recorder.id,
          recordedAudioApprovalStatus: "Pending",
          submissionDate: new Date(),
        },
      });
      const verb =
        submission.recordedAudio === null ? "uploaded a new the recorded audio" : "updated the recorded audio";
      await notifyAdmins(trx, {
        senderId: user.id,
        message: `${user.username} ${verb} for ${audio.filename}`,
        link: NOTIFICATION_LINKS.translatedAudio,
        audioId: audio.id,
      });
      await insertAuditEntry(trx, user.id, "upload", "recording", submission.id, {
        audioId: audio.id,
        fileKey,
        recordedBy: recorder.id,
      });
      await input.inCommit?.(trx, fileKey);
      await recordAudioEvent(trx, "audio.changed", audio.id);
      await recordWebhookEvent(trx, "recording.submitted", async () => ({
        submission: await submissionPayload(trx, submission.id),
      }));
      return { status: updated.recordedAudioApprovalStatus, message: RECORDING_UPLOADED };
    },
    { tempFile: file.tempFile },
  );
  const uploaded = await publishAfter(deps, change);
  deps.waveforms?.wake();
  return uploaded;
}
