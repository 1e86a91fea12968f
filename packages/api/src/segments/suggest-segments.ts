import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { requireAudioAccess } from "../services/access";
import { StoredFileMissingError } from "../storage/file-storage";
import {
  detectSpeech,
  SpeechDecodeError,
  SpeechModelUnavailableError,
  type DetectSpeechOptions,
} from "./detect-speech";
import type { SpeechSegment } from "./speech-timestamps";

const SEGMENTS_UNREADABLE = "This recording could not be read to suggest segments.";
const SEGMENTS_UNAVAILABLE = "Segment suggestions are not available on this server.";

/** Answers kept, by the audio file's storage key (a file is never rewritten under its key). */
const answers = new LRUCache<string, SpeechSegment[]>({ max: 500 });
/** Runs under way, by file key: a second click while the first runs waits for the same run. */
const running = new Map<string, Promise<SpeechSegment[]>>();
/** One VAD run at a time in this process; others queue. */
const oneRun = pLimit(1);

/**
 * Decision 035, "Speech measures": detectSpeech of the stored file `fileKey` of `mimeType` with
 * `opts`, queued behind every other VAD run of this process (suggestions included), so no two run
 * at once. Not cached; rejects as detectSpeech does.
 */
export function detectSpeechInTurn(
  storage: AppDeps["storage"],
  fileKey: string,
  mimeType: string,
  opts: DetectSpeechOptions,
): Promise<SpeechSegment[]> {
  return oneRun(() => detectSpeech(storage, fileKey, mimeType, opts));
}

/**
 * Decision 024, "Who spoke, when": the speech segments of the stored audio file `fileKey` of
 * `mimeType` (whole ms, ordered), from the cache when this process has found them before, else by
 * a VAD run (detectSpeech) queued behind any other. Failed runs are not cached.
 * Throws AppError UNPROCESSABLE SEGMENTS_UNREADABLE when the file cannot be decoded or is missing,
 * SERVICE_UNAVAILABLE SEGMENTS_UNAVAILABLE when the model cannot be loaded here; a storage read
 * error as it is (answered 500).
 */
export async function segmentsOfFile(
  storage: AppDeps["storage"],
  fileKey: string,
  mimeType: string,
  opts: DetectSpeechOptions = {},
): Promise<SpeechSegment[]> {
  const known = answers.get(fileKey);
  if (known) return known;
  let run = running.get(fileKey);
  if (!run) {
    run = oneRun(() => detectSpeech(storage, fileKey, mimeType, opts));
    running.set(fileKey, run);
  }
  try {
    const segments = await run;
    answers.set(fileKey, segments);
    return segments;
  } catch (error) {
    if (error instanceof SpeechDecodeError || error instanceof StoredFileMissingError) {
      throw new AppError("UNPROCESSABLE", SEGMENTS_UNREADABLE, { cause: error });
    }
    if (error instanceof SpeechModelUnavailableError) {
      throw new AppError("SERVICE_UNAVAILABLE", SEGMENTS_UNAVAILABLE, { cause: error });
    }
    throw error;
  } finally {
    if (running.get(fileKey) === run) running.delete(fileKey);
  }
}

/**
 * Decision 024, "Who spoke, when": suggested speech segments of the audio `audioId` for a caller
 * who may edit its transcript (the ownership rule of transcripts.save: an admin, or the staff
 * member it is assigned or recommended to): `{ segments: { startMs, endMs }[] }`, whole ms from
 * the recording's start, ordered, not overlapping. Changes nothing.
 * Throws AppError NOT_FOUND 'Audio not found.', FORBIDDEN 'You do not have access to this audio.',
 * and the errors of segmentsOfFile (422 SEGMENTS_UNREADABLE, 503 SEGMENTS_UNAVAILABLE).
 */
export async function suggestSegments(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<{ segments: SpeechSegment[] }> {
  const { audio } = await requireAudioAccess(deps.db, user, audioId);
  return { segments: await segmentsOfFile(deps.storage, audio.fileKey, audio.mimeType) };
}
