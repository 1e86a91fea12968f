import { matchSpans, spanProblem, type SegmentSpan } from "@tafsiri/domain";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findTranslatedRecording, type TranslatedRecordingRow } from "@tafsiri/db/repositories/translated-recordings";
import { listTranslationSegments } from "@tafsiri/db/repositories/translation/translation-segments";
import { replaceRecordingSpans } from "@tafsiri/db/repositories/translation/recording-spans";
import type { Audio, Executor, Task } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { publishAfter, recordAudioEvent } from "../live/record";
import { lockAudioAccess, NOT_ASSIGNED, requireAudioAccess } from "../services/access";
import { segmentsOfFile } from "../segments/suggest-segments";
import { StoredFileMissingError } from "../storage/file-storage";
import { analyzeTake, TakeDecodeError } from "../takes/analyze-take";

const NO_RECORDING = "There is no translated recording to match yet. Upload one first.";
const NO_ROWS = "This audio has no segments to match the recording to. Save the translation's segments first.";
const RECORDING_UNREADABLE = "This recording could not be read to match it to the segments.";
const SPANS_LOCKED = "The recording has been approved; its spans can no longer change.";
const RECORDING_CHANGED = "The translated recording changed meanwhile. Propose the spans again.";

/** How long measuring a recording whose waveform is not ready yet may take: 10 minutes, as a VAD run. */
const MEASURE_TIMEOUT_MS = 10 * 60 * 1000;

/** The current translated recording of `task` (its file, type and measured duration), or undefined. */
async function currentRecording(
  db: Executor,
  task: Task | null,
): Promise<{ recording: TranslatedRecordingRow; approved: boolean } | undefined> {
  const submission = task ? await findSubmissionByTask(db, task.id) : undefined;
  if (!submission?.recordedAudio) return undefined;
  const recording = await findTranslatedRecording(db, submission.id, submission.recordedAudio);
  if (!recording) return undefined;
  return { recording, approved: submission.recordedAudioApprovalStatus === "Approved" };
}

/**
 * The length of `recording` in whole ms: the waveform job's measure when it has one, else decoded
 * now (analyzeTake). Throws UNPROCESSABLE RECORDING_UNREADABLE when the file cannot be decoded or
 * is missing; a storage read error as it is.
 */
async function durationOf(deps: AppDeps, recording: TranslatedRecordingRow): Promise<number> {
  if (recording.durationSeconds !== null && recording.durationSeconds > 0) {
    return Math.round(recording.durationSeconds * 1000);
  }
  try {
    return (await analyzeTake(deps.storage, recording.fileKey, recording.mimeType, { timeoutMs: MEASURE_TIMEOUT_MS }))
      .durationMs;
  } catch (error) {
    if (error instanceof TakeDecodeError || error instanceof StoredFileMissingError) {
      throw new AppError("UNPROCESSABLE", RECORDING_UNREADABLE, { cause: error });
    }
    throw error;
  }
}

/** The audio's recording and rows, refusing BAD_REQUEST NO_RECORDING or NO_ROWS; the recording's length in ms. */
async function recordingAndRows(deps: AppDeps, audio: Audio, task: Task | null) {
  const current = await currentRecording(deps.db, task);
  if (!current) throw new AppError("BAD_REQUEST", NO_RECORDING);
  const rows = await listTranslationSegments(deps.db, audio.id);
  if (rows.length === 0) throw new AppError("BAD_REQUEST", NO_ROWS);
  return { ...current, rows };
}

/**
 * Decision 035, SPEC §2.13 (a whole translated recording uploaded in one file): proposes each grid
 * row's span in the audio's current translated recording, for staff to confirm or correct. The
 * voice activity detector finds the speech (segmentsOfFile: Silero VAD, cached by file, one run
 * at a time) and matchSpans aligns it with the rows in order by their translations' reading time.
 * For a caller who may see the audio (the ownership rule, as translation.takes). Changes nothing.
 * Returns the recording's length and one span per row in row order (whole ms, ordered, not
 * overlapping, inside the recording). Throws the access errors (NOT_FOUND / FORBIDDEN),
 * BAD_REQUEST NO_RECORDING or NO_ROWS, BAD_REQUEST when the recording is shorter than 1 ms a row,
 * segmentsOfFile's errors (422 SEGMENTS_UNREADABLE, 503 SEGMENTS_UNAVAILABLE) and 422
 * RECORDING_UNREADABLE when its length cannot be measured.
 */
export async function proposeSpans(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<{ recordingDurationMs: number; spans: SegmentSpan[] }> {
  const { audio, task } = await requireAudioAccess(deps.db, user, audioId);
  const { recording, rows } = await recordingAndRows(deps, audio, task);
  const stretches = await segmentsOfFile(deps.storage, recording.fileKey, recording.mimeType);
  const durationMs = await durationOf(deps, recording);
  if (durationMs < rows.length) {
    throw new AppError("BAD_REQUEST", `The recording is too short for its ${rows.length} segments.`);
  }
  // The detector's times come from its own 16 kHz count of samples: keep them inside the measured length.
  const inside = stretches
    .map((s) => ({ startMs: Math.min(s.startMs, durationMs), endMs: Math.min(s.endMs, durationMs) }))
    .filter((s) => s.endMs > s.startMs);
  return {
    recordingDurationMs: durationMs,
    spans: matchSpans(
      rows.map((r) => ({ id: r.id, target: r.target })),
      inside,
      durationMs,
    ),
  };
}

/**
 * Decision 035, SPEC §2.13: stores the spans staff confirm for the grid rows in the audio's current
 * translated recording (recording_spans, origin 'confirmed', replacing any earlier ones), with an
 * audit entry and the live 'audio.changed' event, in one transaction. `spans` must name every row
 * of the audio exactly once, in whole ms, in row order without overlapping, inside the recording
 * (spanProblem). For a caller who may work on the audio (the ownership rule, as the takes).
 * Throws the access errors (NOT_FOUND / FORBIDDEN), BAD_REQUEST 'This audio is not assigned yet.',
 * NO_RECORDING, NO_ROWS or spanProblem's sentence, FORBIDDEN SPANS_LOCKED once the recording is
 * Approved, CONFLICT RECORDING_CHANGED when another recording replaced it meanwhile, and 422
 * RECORDING_UNREADABLE when its length cannot be measured. Returns the sentence said.
 */
export async function confirmSpans(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; spans: SegmentSpan[] },
): Promise<{ message: string }> {
  const { audio, task } = await requireAudioAccess(deps.db, user, input.audioId);
  if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
  const { recording, approved } = await recordingAndRows(deps, audio, task);
  if (approved) throw new AppError("FORBIDDEN", SPANS_LOCKED);
  // Measured before the transaction: decoding a recording must not hold the audio's lock.
  const durationMs = await durationOf(deps, recording);
  const change = deps.db.transaction().execute(async (trx) => {
    const locked = await lockAudioAccess(trx, user, audio.id);
    const now = await currentRecording(trx, locked.task);
    if (!now) throw new AppError("BAD_REQUEST", NO_RECORDING);
    if (now.approved) throw new AppError("FORBIDDEN", SPANS_LOCKED);
    if (now.recording.fileKey !== recording.fileKey) throw new AppError("CONFLICT", RECORDING_CHANGED);
    const rows = await listTranslationSegments(trx, audio.id);
    if (rows.length === 0) throw new AppError("BAD_REQUEST", NO_ROWS);
    const problem = spanProblem(
      rows.map((r) => r.id),
      input.spans,
      durationMs,
    );
    if (problem !== null) throw new AppError("BAD_REQUEST", problem);
    await replaceRecordingSpans(trx, {
      audioId: audio.id,
      recordingKey: recording.fileKey,
      origin: "confirmed",
      userId: user.id,
      spans: input.spans,
    });
    await insertAuditEntry(trx, user.id, "confirm", "recording-spans", audio.id, {
      audioId: audio.id,
      fileKey: recording.fileKey,
      spans: input.spans.length,
    });
    await recordAudioEvent(trx, "audio.changed", audio.id);
  });
  await publishAfter(deps, change);
  return {
    message: input.spans.length === 1 ? "1 span confirmed." : `${input.spans.length} spans confirmed.`,
  };
}
