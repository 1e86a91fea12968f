import type { DbTransaction, Executor } from "../connection";

/**
 * The waveform job's rows (ARCHITECTURE "Long recordings and the corpus"): audios and translated
 * recordings whose file has not been decoded yet (waveform_status 'pending', partial index on
 * created_at), and what decoding found.
 */

/** The tables whose rows carry a waveform. */
type WaveformTable = "audios" | "translatedRecordings";

/** A row whose waveform is still to be computed. */
export interface PendingWaveform {
  table: WaveformTable;
  id: string;
  /** Storage key of its audio file. */
  fileKey: string;
  /** MIME type sniffed at upload. */
  mimeType: string;
  createdAt: Date;
}

/** A row of one of the tables, by id. */
export interface WaveformRowRef {
  table: WaveformTable;
  id: string;
}

/** What decoding a row's file came to: its peaks and what was found, or a file the decoder cannot read. */
export type WaveformOutcome =
  | { status: "ready"; peaksKey: string; durationSeconds: number; sampleRate: number; channelCount: number }
  | { status: "failed" };

/**
 * The oldest pending row of either table (by created_at, audios first on a tie), leaving out the
 * rows in `skip`; undefined when there is none. Two queries, each on the partial index of pending rows.
 */
export async function nextPendingWaveform(
  db: Executor,
  skip: readonly WaveformRowRef[] = [],
): Promise<PendingWaveform | undefined> {
  const skipped = (table: WaveformTable) => skip.filter((r) => r.table === table).map((r) => r.id);
  const skipAudios = skipped("audios");
  const skipRecordings = skipped("translatedRecordings");
  const audio = await db
    .selectFrom("audios")
    .select(["id", "fileKey", "mimeType", "createdAt"])
    .where("waveformStatus", "=", "pending")
    .$if(skipAudios.length > 0, (q) => q.where("id", "not in", skipAudios))
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
  const recording = await db
    .selectFrom("translatedRecordings")
    .select(["id", "fileKey", "mimeType", "createdAt"])
    .where("waveformStatus", "=", "pending")
    .$if(skipRecordings.length > 0, (q) => q.where("id", "not in", skipRecordings))
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
  if (recording && (!audio || recording.createdAt < audio.createdAt)) {
    return { table: "translatedRecordings", ...recording };
  }
  return audio && { table: "audios", ...audio };
}

/** How many rows of both tables are pending. */
export async function countPendingWaveforms(db: Executor): Promise<number> {
  const counts = await Promise.all(
    (["audios", "translatedRecordings"] as const).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("waveformStatus", "=", "pending")
        .executeTakeFirstOrThrow(),
    ),
  );
  return counts.reduce((sum, row) => sum + Number(row.n), 0);
}

/**
 * Records what decoding the row's file came to, only while the row is still pending: 'ready' with
 * its peaks key, duration (seconds), sample rate (Hz) and channel count, or 'failed'. Returns
 * `recorded`, `not pending` (another runner recorded it first) or `gone` (the row was deleted: its
 * audio went, and with it the list of files to remove, so the caller removes the peaks it stored).
 *
 * A translated recording's audio row is locked FOR KEY SHARE first, so deleting the audio (which
 * locks it FOR UPDATE, then lists its files) either waits for this to commit and then finds the
 * peaks key, or runs first and this finds the row gone.
 */
export async function recordWaveform(
  trx: DbTransaction,
  row: WaveformRowRef,
  outcome: WaveformOutcome,
): Promise<"recorded" | "not pending" | "gone"> {
  const values =
    outcome.status === "ready"
      ? {
          waveformStatus: "ready" as const,
          peaksKey: outcome.peaksKey,
          durationSeconds: outcome.durationSeconds,
          sampleRate: outcome.sampleRate,
          channelCount: outcome.channelCount,
        }
      : {
          waveformStatus: "failed" as const,
          peaksKey: null,
          durationSeconds: null,
          sampleRate: null,
          channelCount: null,
        };
  if (row.table === "translatedRecordings") {
    const audio = await trx
      .selectFrom("translatedRecordings")
      .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .innerJoin("audios", "audios.id", "tasks.audioId")
      .select("audios.id")
      .where("translatedRecordings.id", "=", row.id)
      .forKeyShare("audios")
      .executeTakeFirst();
    if (!audio) return "gone";
  }
  const updated = await trx
    .updateTable(row.table)
    .set(values)
    .where("id", "=", row.id)
    .where("waveformStatus", "=", "pending")
    .returning("id")
    .executeTakeFirst();
  if (updated) return "recorded";
  const exists = await trx.selectFrom(row.table).select("id").where("id", "=", row.id).executeTakeFirst();
  return exists ? "not pending" : "gone";
}

/** The id of the audio a waveform row belongs to (itself, or a translated recording's audio); undefined when gone. */
export async function audioIdOfWaveformRow(db: Executor, row: WaveformRowRef): Promise<string | undefined> {
  if (row.table === "audios") {
    const audio = await db.selectFrom("audios").select("id").where("id", "=", row.id).executeTakeFirst();
    return audio?.id;
  }
  const found = await db
    .selectFrom("translatedRecordings")
    .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .select("tasks.audioId")
    .where("translatedRecordings.id", "=", row.id)
    .executeTakeFirst();
  return found?.audioId;
}
