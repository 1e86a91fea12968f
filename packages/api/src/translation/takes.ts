import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { checkTakes, takesBlockAssembly, type TakeFinding } from "@tafsiri/domain";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findSegmentAudioId, listTranslationSegments } from "@tafsiri/db/repositories/translation/translation-segments";
import {
  deleteTake,
  listTakes,
  putTake,
  setRedoNotes,
  type StoredTake,
} from "@tafsiri/db/repositories/translation/segment-takes";
import {
  currentRecordingSpans,
  replaceRecordingSpans,
  type RecordingSpan,
} from "@tafsiri/db/repositories/translation/recording-spans";
import type { DbTransaction } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { publishAfter, recordAudioEvent } from "../live/record";
import { lockAudioAccess, requireAudioAccess } from "../services/access";
import { signFileUrl } from "../services/file-urls";
import { adoptedUpload, commitWithFile } from "../services/stored-files";
import { analyzeTake } from "../takes/analyze-take";
import { assembleRecording } from "../takes/assemble-recording";
import { isAcceptedAudioType } from "../uploads/file-rules";
import { safeExtension, uploadRecording, type TempUpload } from "../uploads/store-upload";

/** Silence between two takes in the assembled translated recording, ms (decision 035). */
const TAKE_GAP_MS = 300;

export const UNKNOWN_SEGMENT = "Unknown segment. Save the translation's segments before recording them.";
const TAKES_LOCKED = "The recording has been approved; its takes can no longer change.";
const INVALID_TAKE_FILE = "Invalid file type. Please select a valid audio file.";
const UNREADABLE_TAKE = "The take could not be read as audio. Record it again or upload another file.";
const TAKES_NOT_READY = "Some segments have no take or a silent one. Record them before making the recording.";
const NO_TAKES = "There are no takes to make a recording from.";
const NOT_ASSIGNED = "This audio is not assigned yet.";
const TAKE_SAVED = "Take saved.";

/** A take as the grid and the reviewer see it. */
export interface TakeView {
  segmentId: string;
  durationMs: number;
  peakDbfs: number;
  rmsDbfs: number;
  longestSilenceMs: number;
  redoNote: string | null;
  /** A short-lived URL that plays it. */
  url: string;
  createdAt: string;
}

function takeView(deps: AppDeps, take: StoredTake): TakeView {
  return {
    segmentId: take.segmentId,
    durationMs: take.durationMs,
    peakDbfs: take.peakDbfs,
    rmsDbfs: take.rmsDbfs,
    longestSilenceMs: take.longestSilenceMs,
    redoNote: take.redoNote,
    url: signFileUrl(deps.jwtSecret, take.fileKey),
    createdAt: new Date(take.createdAt).toISOString(),
  };
}

/** The audio a grid row belongs to, or NOT_FOUND UNKNOWN_SEGMENT. */
async function audioOfSegment(db: AppDeps["db"], segmentId: string): Promise<string> {
  const audioId = await findSegmentAudioId(db, segmentId);
  if (audioId === null) throw new AppError("NOT_FOUND", UNKNOWN_SEGMENT);
  return audioId;
}

/**
 * Locks the audio of `segmentId` for a change to its takes: the caller may work on it (the
 * ownership rule), it is assigned, and its recording is not Approved. Returns the audio's id and
 * the task's assignee.
 */
async function lockForTakes(trx: DbTransaction, user: SessionUser, audioId: string) {
  const { audio, task } = await lockAudioAccess(trx, user, audioId);
  if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
  const submission = await findSubmissionByTask(trx, task.id);
  if (submission?.recordedAudioApprovalStatus === "Approved") throw new AppError("FORBIDDEN", TAKES_LOCKED);
  return { audio, task };
}

/** Removes a file no row points to any more; a failure only leaves it for the storage sweep. */
async function removeQuietly(deps: AppDeps, key: string | null): Promise<void> {
  if (key === null) return;
  await deps.storage.delete(key).catch(() => undefined);
}

/**
 * Decision 035, oral translation by segment: stores `file` as the take of grid row `segmentId`,
 * replacing its previous take (and a reviewer's request to record it again), with its levels
 * measured (analyzeTake: duration, peak, RMS, the longest silence inside). Throws NOT_FOUND
 * UNKNOWN_SEGMENT (a row not saved yet or unknown), the access errors (NOT_FOUND / FORBIDDEN),
 * BAD_REQUEST 'This audio is not assigned yet.', FORBIDDEN TAKES_LOCKED once the recording is
 * Approved, UNSUPPORTED_MEDIA_TYPE INVALID_TAKE_FILE, BAD_REQUEST UNREADABLE_TAKE. The temp file
 * is moved into storage or removed. Returns the sentence said and the stored take.
 */
export async function storeTake(
  deps: AppDeps,
  user: SessionUser,
  input: { segmentId: string; file: TempUpload },
): Promise<{ message: string; take: TakeView }> {
  const { file } = input;
  const audioId = await audioOfSegment(deps.db, input.segmentId);
  let replaced: string | null = null;
  const change = commitWithFile(
    deps.db,
    async (trx, store) => {
      const { audio } = await lockForTakes(trx, user, audioId);
      if (!isAcceptedAudioType("recording", file.mimeType))
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", INVALID_TAKE_FILE);
      const fileKey = `takes/${audio.id}/${input.segmentId}-${randomUUID()}${safeExtension(file.extension)}`;
      await store(adoptedUpload(deps.storage, file.tempFile, fileKey));
      const levels = await analyzeTake(deps.storage, fileKey, file.mimeType).catch(() => {
        throw new AppError("BAD_REQUEST", UNREADABLE_TAKE);
      });
      replaced = await putTake(trx, {
        segmentId: input.segmentId,
        audioId: audio.id,
        fileKey,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
        durationMs: Math.round(levels.durationMs),
        peakDbfs: levels.peakDbfs,
        rmsDbfs: levels.rmsDbfs,
        longestSilenceMs: Math.round(levels.longestSilenceMs),
        recordedBy: user.id,
      });
      await insertAuditEntry(trx, user.id, "upload", "take", input.segmentId, { audioId: audio.id, fileKey });
      await recordAudioEvent(trx, "audio.changed", audio.id);
      const take = (await listTakes(trx, audio.id)).find((t) => t.segmentId === input.segmentId)!;
      return takeView(deps, take);
    },
    { tempFile: file.tempFile },
  );
  const stored = await publishAfter(deps, change);
  await removeQuietly(deps, replaced);
  return { message: TAKE_SAVED, take: stored };
}

/**
 * Decision 035: removes grid row `segmentId`'s take. Same errors as storeTake (but the file's).
 * Returns the sentence said.
 */
export async function removeTake(deps: AppDeps, user: SessionUser, segmentId: string): Promise<{ message: string }> {
  const audioId = await audioOfSegment(deps.db, segmentId);
  const change = deps.db.transaction().execute(async (trx) => {
    await lockForTakes(trx, user, audioId);
    const key = await deleteTake(trx, segmentId);
    if (key !== null) {
      await insertAuditEntry(trx, user.id, "delete", "take", segmentId, { audioId });
      await recordAudioEvent(trx, "audio.changed", audioId);
    }
    return key;
  });
  await removeQuietly(deps, await publishAfter(deps, change));
  return { message: "Take removed." };
}

/**
 * Decision 035: an audio's takes, their checks (checkTakes, against the grid's rows in order) and
 * each row's span in the current translated recording (ms, ordered by start; none for a row the
 * recording has no span for), for the staff member recording them and the reviewer. Throws
 * NOT_FOUND / FORBIDDEN as requireAudioAccess.
 */
export async function listSegmentTakes(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<{ takes: TakeView[]; checks: TakeFinding[]; spans: RecordingSpan[] }> {
  const { audio } = await requireAudioAccess(deps.db, user, audioId);
  const rows = await listTranslationSegments(deps.db, audio.id);
  const takes = await listTakes(deps.db, audio.id);
  const levels = new Map(takes.map((t) => [t.segmentId, t]));
  return {
    takes: takes.map((t) => takeView(deps, t)),
    checks: checkTakes(
      rows.map((r) => ({ id: r.id, target: r.target })),
      levels,
    ),
    spans: (await currentRecordingSpans(deps.db, [audio.id])).get(audio.id) ?? [],
  };
}

/**
 * Decision 035: makes the SPEC's translated recording from an audio's takes, in the grid's row
 * order with TAKE_GAP_MS of silence between them (assembleRecording: 16 kHz mono WAV), and stores it
 * as uploadRecording does (status Pending, the admins notified, the waveform job woken), recorded by
 * the task's assignee, with each take's span in it (recording_spans) in the same transaction. Throws the access errors, BAD_REQUEST
 * 'This audio is not assigned yet.', FORBIDDEN TAKES_LOCKED, BAD_REQUEST TAKES_NOT_READY when a
 * check finds an error (a missing or silent take), NO_TAKES, and uploadRecording's errors.
 * Returns the status, the sentence said, and the recording's duration in ms.
 */
export async function assembleTakes(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<{ status: string; message: string; durationMs: number }> {
  const { audio, task } = await deps.db.transaction().execute((trx) => lockForTakes(trx, user, audioId));
  const rows = await listTranslationSegments(deps.db, audio.id);
  const takes = new Map((await listTakes(deps.db, audio.id)).map((t) => [t.segmentId, t]));
  const findings = checkTakes(
    rows.map((r) => ({ id: r.id, target: r.target })),
    takes,
  );
  if (takesBlockAssembly(findings)) throw new AppError("BAD_REQUEST", TAKES_NOT_READY);
  const ordered = rows.flatMap((r) => {
    const take = takes.get(r.id);
    return take ? [take] : [];
  });
  if (ordered.length === 0) throw new AppError("BAD_REQUEST", NO_TAKES);
  const outputPath = deps.storage.tempPath();
  await fs.mkdir(path.dirname(outputPath), { recursive: true });
  try {
    const assembled = await assembleRecording(
      deps.storage,
      ordered.map((t) => ({ fileKey: t.fileKey, mimeType: t.mimeType })),
      { gapMs: TAKE_GAP_MS, outputPath },
    );
    const uploaded = await uploadRecording(deps, user, {
      audioId: audio.id,
      recordedBy: task!.assignedTo,
      file: { tempFile: outputPath, mimeType: "audio/wav", extension: ".wav", sizeBytes: assembled.bytes },
      inCommit: (trx, recordingKey) =>
        replaceRecordingSpans(trx, {
          audioId: audio.id,
          recordingKey,
          origin: "takes",
          userId: user.id,
          spans: ordered.map((t, i) => ({ segmentId: t.segmentId, ...assembled.spans[i]! })),
        }),
    });
    return { ...uploaded, durationMs: assembled.durationMs };
  } finally {
    await fs.rm(outputPath, { force: true });
  }
}

/**
 * Decision 035, review by segment: an admin asks for takes to be recorded again, each with what to
 * change (`note`; null clears a request). Segments of other audios or without a take are left
 * alone. Throws NOT_FOUND / FORBIDDEN as lockAudioAccess. Returns the sentence said.
 */
export async function askTakeRedo(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; takes: { segmentId: string; note: string | null }[] },
): Promise<{ message: string }> {
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio } = await lockAudioAccess(trx, user, input.audioId);
    await setRedoNotes(trx, audio.id, input.takes);
    await insertAuditEntry(trx, user.id, "update", "take", audio.id, { audioId: audio.id, redo: input.takes.length });
    await recordAudioEvent(trx, "audio.changed", audio.id);
  });
  await publishAfter(deps, change);
  const asked = input.takes.filter((t) => t.note !== null).length;
  return { message: asked === 1 ? "1 take to record again." : `${asked} takes to record again.` };
}
