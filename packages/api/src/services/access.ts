import type { Audio, DbTransaction, Executor, Task } from "@tafsiri/db";
import { findAudio, lockAudio } from "@tafsiri/db/repositories/audios";
import { isRecommendedTo } from "@tafsiri/db/repositories/recommendations";
import { findTaskByAudio, lockTaskByAudio } from "@tafsiri/db/repositories/tasks";
import type { SessionUser } from "../context";
import { ADMINS_ONLY, AppError } from "../errors/app-error";
import { isUuid } from "../schemas/common";

export const AUDIO_NOT_FOUND = "Audio not found.";
const NO_AUDIO_ACCESS = "You do not have access to this audio.";
export const NOT_ASSIGNED = "This audio is not assigned yet.";

/** Throws FORBIDDEN unless the caller is an admin (for services the REST layer calls directly). */
export function requireAdmin(user: SessionUser): void {
  if (user.role !== "Admin") throw new AppError("FORBIDDEN", ADMINS_ONLY);
}

/** An audio the caller may work on, with its task (null when not assigned yet). */
export interface AudioAccess {
  audio: Audio;
  task: Task | null;
}

/** How the audio and its task are read: plainly, or locked until the transaction ends. */
interface AudioReaders<E extends Executor> {
  audio(db: E, id: string): Promise<Audio | undefined>;
  task(db: E, audioId: string): Promise<Task | undefined>;
}

/**
 * The one ownership rule (SPEC §6, ARCHITECTURE "Decisions"): admins may touch every audio; a
 * staff member only an audio whose task is assigned to them or recommended to them.
 */
async function decideAudioAccess<E extends Executor>(
  db: E,
  user: SessionUser,
  audioId: string,
  read: AudioReaders<E>,
): Promise<AudioAccess> {
  const audio = isUuid(audioId) ? await read.audio(db, audioId) : undefined;
  if (!audio) throw new AppError("NOT_FOUND", AUDIO_NOT_FOUND);
  const task = (await read.task(db, audioId)) ?? null;
  if (user.role === "Admin") return { audio, task };
  if (task && (task.assignedTo === user.id || (await isRecommendedTo(db, task.id, user.id)))) return { audio, task };
  throw new AppError("FORBIDDEN", NO_AUDIO_ACCESS);
}

/**
 * The audio `audioId` and its task (null when not assigned yet), when the caller may work on it
 * (the ownership rule: admins any audio; staff one assigned or recommended to them). Reads
 * without locking. Throws AppError NOT_FOUND 'Audio not found.' for an unknown id and FORBIDDEN
 * 'You do not have access to this audio.' otherwise.
 */
export function requireAudioAccess(db: Executor, user: SessionUser, audioId: string): Promise<AudioAccess> {
  return decideAudioAccess(db, user, audioId, { audio: findAudio, task: findTaskByAudio });
}

/**
 * As requireAudioAccess, but the audio and task rows stay locked (audio first, then task) until
 * `trx` ends, so every change to one audio is serialized. Takes a transaction, so a lock outside
 * one does not type-check. Same errors as requireAudioAccess.
 */
export function lockAudioAccess(trx: DbTransaction, user: SessionUser, audioId: string): Promise<AudioAccess> {
  return decideAudioAccess(trx, user, audioId, { audio: lockAudio, task: lockTaskByAudio });
}
