import { sql } from "kysely";
import type { Category, GroupMeasure, GroupStatistics, SpeakerMeasures, SpeechStretch } from "@tafsiri/domain";
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
 * Replaces the audio `audioId`'s measures with `measures` (its recording's duration `durationMs`,
 * null when not known) and records that they were made from its file `fileKey`'s stretches and the
 * approved transcript version `transcriptKey`. Run in a transaction, so the report never sees half.
 */
export async function replaceSpeechMeasures(
  trx: DbTransaction,
  row: { audioId: string; fileKey: string; transcriptKey: string; durationMs: number | null },
  measures: readonly SpeakerMeasures[],
): Promise<void> {
  await trx.deleteFrom("speechMeasures").where("audioId", "=", row.audioId).execute();
  if (measures.length > 0) {
    await trx
      .insertInto("speechMeasures")
      .values(measures.map((m) => ({ audioId: row.audioId, durationMs: row.durationMs, ...m })))
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

/**
 * Decision 035, "Speech measures": per group (the audio's category, which its participant's group
 * matches) and measure (GROUP_MEASURES, of `speaker`'s rows: one per measured recording), n (the
 * recordings where it is known), mean, sample SD (stddev_samp), median and quartiles
 * (percentile_cont: linear interpolation, as groupStatistics). Only groups and measures with at
 * least one value have a row. One statement, reading `speaker`'s rows from
 * speech_measures_speaker_idx; work_mem raised and JIT off for it alone (the reviewer figures'
 * reasons, reviewerTotals).
 */
export async function speechMeasuresByGroup(db: Executor, speaker: "PAR" | "INV"): Promise<GroupMeasureRow[]> {
  if (!db.isTransaction) return db.transaction().execute((trx) => speechMeasuresByGroup(trx, speaker));
  await sql`set local work_mem = '32MB'`.execute(db);
  await sql`set local jit = off`.execute(db);
  const values = sql.join(
    Object.entries(COLUMNS).map(([measure, column]) => sql`(${measure}, m.${sql.ref(column)}::float8)`),
  );
  const { rows } = await sql<{
    group: Category;
    measure: GroupMeasure;
    n: string;
    mean: number | null;
    sd: number | null;
    quartiles: number[] | null;
  }>`
    select a.category as "group", v.measure, count(v.value) as n, avg(v.value) as mean, stddev_samp(v.value) as sd,
           percentile_cont(array[0.25, 0.5, 0.75]) within group (order by v.value) as quartiles
    from speech_measures m
    join audios a on a.id = m.audio_id
    cross join lateral (values ${values}) as v(measure, value)
    where m.speaker = ${speaker} and v.value is not null
    group by a.category, v.measure`.execute(db);
  return rows.map((r) => ({
    group: r.group,
    measure: r.measure,
    n: Number(r.n),
    mean: r.mean,
    sd: r.sd,
    q1: r.quartiles?.[0] ?? null,
    median: r.quartiles?.[1] ?? null,
    q3: r.quartiles?.[2] ?? null,
  }));
}
