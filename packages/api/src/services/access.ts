import { TRPCError } from "@trpc/server";
import type { Audio, Executor, Task } from "@tafsiri/db";
import { findAudio } from "@tafsiri/db/repositories/audios";
import { isRecommendedTo } from "@tafsiri/db/repositories/recommendations";
import { findTaskByAudio } from "@tafsiri/db/repositories/tasks";
import type { SessionUser } from "../context";

export const AUDIO_NOT_FOUND = "Audio not found.";
export const NO_AUDIO_ACCESS = "You do not have access to this audio.";
export const NOT_ASSIGNED = "This audio is not assigned yet.";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a well-formed uuid (ids from REST forms are checked before they reach SQL). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Throws FORBIDDEN unless the caller is an admin (for services the REST layer calls directly). */
export function requireAdmin(user: SessionUser): void {
  if (user.role !== "Admin") throw new TRPCError({ code: "FORBIDDEN", message: "Only administrators may do this." });
}

/** An audio the caller may work on, with its task (null when not assigned yet). */
export interface AudioAccess {
  audio: Audio;
  task: Task | null;
}

/**
 * The one ownership rule (SPEC §6, ARCHITECTURE "Decisions"): admins may touch every audio; a
 * staff member only an audio whose task is assigned to them or recommended to them.
 * With `lock`, the audio and task rows stay locked until the caller's transaction ends, so every
 * change to one audio is serialized. Throws NOT_FOUND 'Audio not found.' for an unknown id and
 * FORBIDDEN 'You do not have access to this audio.' otherwise.
 */
export async function requireAudioAccess(
  db: Executor,
  user: SessionUser,
  audioId: string,
  opts: { lock?: boolean } = {},
): Promise<AudioAccess> {
  const audio = isUuid(audioId) ? await findAudio(db, audioId, { forUpdate: opts.lock }) : undefined;
  if (!audio) throw new TRPCError({ code: "NOT_FOUND", message: AUDIO_NOT_FOUND });
  const task = (await findTaskByAudio(db, audioId, { forUpdate: opts.lock })) ?? null;
  if (user.role === "Admin") return { audio, task };
  if (task && (task.assignedTo === user.id || (await isRecommendedTo(db, task.id, user.id)))) return { audio, task };
  throw new TRPCError({ code: "FORBIDDEN", message: NO_AUDIO_ACCESS });
}
