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

/** What a stored file is, as far as naming it goes: its kind and its audio's filename. */
export type StoredFileOwner =
  | { kind: "audio" | "initial-transcript" | "recording"; audioFilename: string }
  /** A translated transcript version, with the .cha name it was saved under. */
  | { kind: "transcript"; audioFilename: string; fileName: string };

/**
 * The row that points at stored file `key`, or null when none does: the audio file itself, its
 * initial transcript, a translated transcript version or a translated recording, with the audio's
 * filename. Says nothing about who may read it.
 */
export async function storedFileOwner(db: Executor, key: string): Promise<StoredFileOwner | null> {
  const audio = await db
    .selectFrom("audios")
    .select(["filename", "fileKey"])
    .where((eb) => eb.or([eb("fileKey", "=", key), eb("transcriptKey", "=", key)]))
    .executeTakeFirst();
  if (audio) return { kind: audio.fileKey === key ? "audio" : "initial-transcript", audioFilename: audio.filename };

  const transcript = await db
    .selectFrom("transcriptVersions as v")
    .innerJoin("submissions as s", "s.id", "v.submissionId")
    .innerJoin("tasks as t", "t.id", "s.taskId")
    .innerJoin("audios as a", "a.id", "t.audioId")
    .select(["a.filename", "v.fileName"])
    .where("v.fileKey", "=", key)
    .executeTakeFirst();
  if (transcript) return { kind: "transcript", audioFilename: transcript.filename, fileName: transcript.fileName };

  const recording = await db
    .selectFrom("translatedRecordings as r")
    .innerJoin("submissions as s", "s.id", "r.submissionId")
    .innerJoin("tasks as t", "t.id", "s.taskId")
    .innerJoin("audios as a", "a.id", "t.audioId")
    .select("a.filename")
    .where("r.fileKey", "=", key)
    .executeTakeFirst();
  return recording ? { kind: "recording", audioFilename: recording.filename } : null;
}
