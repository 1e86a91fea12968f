import type { Database } from "@tafsiri/db";

/**
 * Which audio a REST path's file key belongs to, so the REST layer can ask the audios
 * procedures (which decide access) about it. Plain lookups: no rules here.
 */

/**
 * The id of the audio a stored file belongs to, or null when no row points at `key`: the audio
 * file itself, its initial transcript, a translated transcript version or a translated
 * recording. Says nothing about who may read it; callers ask the audios.get procedure.
 */
export async function audioIdForFileKey(db: Database, key: string): Promise<string | null> {
  const audio = await db
    .selectFrom("audios")
    .select("id")
    .where((eb) => eb.or([eb("fileKey", "=", key), eb("transcriptKey", "=", key)]))
    .executeTakeFirst();
  if (audio) return audio.id;

  const transcript = await db
    .selectFrom("transcriptVersions as v")
    .innerJoin("submissions as s", "s.id", "v.submissionId")
    .innerJoin("tasks as t", "t.id", "s.taskId")
    .select("t.audioId")
    .where("v.fileKey", "=", key)
    .executeTakeFirst();
  if (transcript) return transcript.audioId;

  const recording = await db
    .selectFrom("translatedRecordings as r")
    .innerJoin("submissions as s", "s.id", "r.submissionId")
    .innerJoin("tasks as t", "t.id", "s.taskId")
    .select("t.audioId")
    .where("r.fileKey", "=", key)
    .executeTakeFirst();
  return recording?.audioId ?? null;
}
