import type { Executor } from "../connection";

/**
 * The id of the audio a stored file belongs to, or null when no row points at `key`: the audio
 * file itself, its initial transcript, a translated transcript version or a translated
 * recording. Says nothing about who may read it (callers decide access).
 */
export async function audioIdForFileKey(db: Executor, key: string): Promise<string | null> {
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
