import { sql } from "kysely";
import type { Category, GroupMeasure, GroupStatistics, Speaker, SpeakerMeasures, SpeechStretch } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../connection";

/**
 * The speech measures of the original audio (decision 035, "Speech measures"): each original audio
 * file's speech stretches (speech_stretches, by file key), each audio's measures per speaker
 * (speech_measures), the audios still to measure, and the group report.
 */

/** What is stored of a file's stretches: ready with them, or failed (the file cannot be decoded). */
export type StoredStretches = { status: "ready"; stretches: SpeechStretch[] } | { status: "failed" };

/** The stored stretches of the audio file `fileKey`; undefined when it was never run. */
export async function stretchesOfFile(db: Executor, fileKey: string): Promise<StoredStretches | undefined> {
  const row = await db
    .selectFrom("speechStretches")
    .select(["status", "stretches"])
    .where("fileKey", "=", fileKey)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.status === "failed" || row.stretches === null) return { status: "failed" };
  return { status: "ready", stretches: row.stretches.map(([startMs, endMs]) => ({ startMs, endMs })) };
}

/**
 * Stores what the detector found in the audio `audioId`'s file `fileKey` with its settings `vad`
 * (a second store of the same file keeps the first: a file is never rewritten under its key).
 */
export async function saveStretches(
  db: Executor,
  row: { fileKey: string; audioId: string; vad: string; found: StoredStretches },
): Promise<void> {
  const stretches =
    row.found.status === "ready" ? JSON.stringify(row.found.stretches.map((s) => [s.startMs, s.endMs])) : null;
  await db
    .insertInto("speechStretches")
    .values({ fileKey: row.fileKey, audioId: row.audioId, vad: row.vad, status: row.found.status, stretches })
    .onConflict((oc) => oc.column("fileKey").doNothing())
    .execute();
}

/**
 * Replaces the audio `audioId`'s measures with `measures` (its `category`, its recording's
 * duration `durationMs`, null when not known) and records that they were made from its file `fileKey`'s stretches and the
 * approved transcript version `transcriptKey`. Run in a transaction, so the report never sees half.
 */
export async function replaceSpeechMeasures(
  trx: DbTransaction,
  row: { audioId: string; category: Category; fileKey: string; transcriptKey: string; durationMs: number | null },
  measures: readonly SpeakerMeasures[],
): Promise<void> {
  await trx.deleteFrom("speechMeasures").where("audioId", "=", row.audioId).execute();
  if (measures.length > 0) {
    await trx
      .insertInto("speechMeasures")
      .values(measures.map((m) => ({ audioId: row.audioId, category: row.category, durationMs: row.durationMs, ...m })))
      .execute();
  }
  await trx
    .updateTable("speechStretches")
    .set({ measuredTranscriptKey: row.transcriptKey })
    .where("fileKey", "=", row.fileKey)
    .execute();
}

/** An audio whose approved transcript has not been measured on its current file. */
export interface UnmeasuredAudio {
  audioId: string;
  category: Category;
  fileKey: string;
  mimeType: string;
  durationSeconds: number | null;
  /** The approved transcript version's key and text. */
  transcriptKey: string;
  transcriptText: string;
}

/**
 * The first audio (by id, after the ids in `skip`) with an approved transcript whose measures are
 * not current, once its waveform is no longer pending (so its duration is known, or never will be): its file has no stored stretches, or they are ready and its measures were made from
 * another transcript version (or never). A file that could not be decoded is not asked again.
 * Undefined when there is none.
 */
export async function nextUnmeasuredAudio(
  db: Executor,
  skip: readonly string[] = [],
): Promise<UnmeasuredAudio | undefined> {
  let q = db
    .selectFrom("submissions")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .innerJoin("audios", "audios.id", "tasks.audioId")
    .innerJoin("transcriptVersions as version", (join) =>
      join
        .onRef("version.submissionId", "=", "submissions.id")
        .onRef("version.fileKey", "=", sql.ref("submissions.translationScript")),
    )
    .leftJoin("speechStretches as stored", "stored.fileKey", "audios.fileKey")
    .where("submissions.translationScriptApprovalStatus", "=", "Approved")
    // Its duration is known once the waveform job has decoded it (or found it cannot).
    .where("audios.waveformStatus", "!=", "pending")
    .where((eb) =>
      eb.or([
        eb("stored.fileKey", "is", null),
        eb.and([
          eb("stored.status", "=", "ready"),
          eb("stored.measuredTranscriptKey", "is distinct from", eb.ref("version.fileKey")),
        ]),
      ]),
    )
    .select([
      "audios.id as audioId",
      "audios.category",
      "audios.fileKey",
      "audios.mimeType",
      "audios.durationSeconds",
      "version.fileKey as transcriptKey",
      "version.text as transcriptText",
    ])
    .orderBy("audios.id")
    .limit(1);
  if (skip.length > 0) q = q.where("audios.id", "not in", skip);
  return q.executeTakeFirst();
}

/** One group's summary of one measure (GroupStatistics of @tafsiri/domain). */
export type GroupMeasureRow = GroupStatistics & { group: Category; measure: GroupMeasure };

/** The column of each measure the report summarises. */
const COLUMNS: Record<GroupMeasure, string> = {
  speakingMs: "speaking_ms",
  speakingRatio: "speaking_ratio",
  pauseCount: "pause_count",
  meanPauseMs: "mean_pause_ms",
  responseLatencyMs: "response_latency_ms",
  segmentsPerMinute: "segments_per_minute",
};
const MEASURES = Object.keys(COLUMNS) as GroupMeasure[];

/**
 * Per group (the audio's category, which its participant's group matches) and measure (GROUP_MEASURES, of `speaker`'s rows: one per measured recording), n (the
 * recordings where it is known), mean, sample SD (stddev_samp) and the quartiles (percentile_cont:
 * linear interpolation, as groupStatistics). Only groups with a row of `speaker` have rows. One
 * statement, an index-only scan of speech_measures_group_idx in group order (no join, no sort of
 * the rows: only each measure's own values are sorted for its quartiles); work_mem raised and JIT
 * off for it alone (the reviewer figures' reasons, reviewerTotals).
 */
async function speechMeasuresByGroup(db: Executor, speaker: Speaker): Promise<GroupMeasureRow[]> {
  if (!db.isTransaction) return db.transaction().execute((trx) => speechMeasuresByGroup(trx, speaker));
  await sql`set local work_mem = '32MB'`.execute(db);
  await sql`set local jit = off`.execute(db);
  const figures = sql.join(
    MEASURES.map((measure) => {
      const value = sql.ref(`m.${COLUMNS[measure]}`);
      return sql`json_build_array(count(${value}), avg(${value}), stddev_samp(${value}),
        percentile_cont(array[0.25, 0.5, 0.75]) within group (order by ${value})) as ${sql.ref(measure)}`;
    }),
  );
  const { rows } = await sql<
    Record<GroupMeasure, [number, number | null, number | null, number[] | null]> & {
      group: Category;
    }
  >`select m.category as "group", ${figures} from speech_measures m where m.speaker = ${speaker} group by m.category`.execute(
    db,
  );
  return rows.flatMap((row) =>
    MEASURES.map((measure): GroupMeasureRow => {
      const [n, mean, sd, quartiles] = row[measure];
      return {
        group: row.group,
        measure,
        n: Number(n),
        mean,
        sd,
        q1: quartiles?.[0] ?? null,
        median: quartiles?.[1] ?? null,
        q3: quartiles?.[2] ?? null,
      };
    }),
  );
}

/**
 * Decision 035, "Speech measures": rewrites speech_measure_groups, the group report of PAR, from
 * speech_measures (speechMeasuresByGroup: one statement, about 0.2 s at 78,000 measured audios on
 * PostgreSQL), in one transaction. The measures job calls it each round.
 */
export async function refreshSpeechMeasureGroups(db: Executor): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => refreshSpeechMeasureGroups(trx));
  const rows = await speechMeasuresByGroup(db, "PAR");
  await db.deleteFrom("speechMeasureGroups").execute();
  if (rows.length > 0) {
    await db
      .insertInto("speechMeasureGroups")
      .values(rows.map(({ group, ...row }) => ({ category: group, ...row })))
      .execute();
  }
}

/** Decision 035, "Speech measures": the stored group report of PAR (refreshSpeechMeasureGroups), one primary-key read. */
export async function speechMeasureGroups(db: Executor): Promise<GroupMeasureRow[]> {
  const rows = await db.selectFrom("speechMeasureGroups").selectAll().orderBy("category").orderBy("measure").execute();
  return rows.map(({ category, ...row }) => ({ group: category, ...row }));
}
