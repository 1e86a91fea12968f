import { sql, type Kysely } from "kysely";

/**
 * Decision 035, speech measures of the original audio:
 * - speech_stretches holds, per original audio file (file_key: a new file is a new row), the
 *   stretches where the voice activity detector found speech (`stretches`, a JSON array of
 *   [start_ms, end_ms] pairs; null when the file could not be decoded, status 'failed'), the
 *   detector's settings (`vad`), and the approved transcript version the audio's measures were last
 *   made from (measured_transcript_key; null: not yet);
 * - speech_measures holds, per audio and speaker (PAR, INV), what was measured: the recording's
 *   duration, speaking time, its ratio, phonation, pauses, response latency, segments per minute,
 *   and the audio's category (its participant's group; an audio's category never changes);
 * - speech_measure_groups holds the Dashboard's group report of PAR (per group and measure: n, mean,
 *   SD, median, quartiles), rewritten from speech_measures by the measures job each round: sorting
 *   every recording's values for the quartiles takes too long to do on each Dashboard load.
 * Only new tables: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table speech_stretches (
      file_key text primary key,
      audio_id uuid not null references audios(id) on delete cascade,
      status text not null check (status in ('ready', 'failed')),
      stretches jsonb,
      vad text not null,
      measured_transcript_key text,
      created_at timestamptz not null default now(),
      check ((status = 'ready') = (stretches is not null))
    )`.execute(db);
  await sql`create index speech_stretches_audio_idx on speech_stretches (audio_id)`.execute(db);
  await sql`
    create table speech_measures (
      audio_id uuid not null references audios(id) on delete cascade,
      speaker text not null check (speaker in ('PAR', 'INV')),
      category text not null,
      duration_ms integer check (duration_ms > 0),
      segment_count integer not null check (segment_count > 0),
      speaking_ms integer not null check (speaking_ms >= 0),
      speaking_ratio double precision,
      phonation_ms integer check (phonation_ms >= 0),
      pause_count integer check (pause_count >= 0),
      mean_pause_ms double precision,
      response_latency_ms double precision,
      response_count integer not null check (response_count >= 0),
      segments_per_minute double precision,
      measured_at timestamptz not null default now(),
      primary key (audio_id, speaker)
    )`.execute(db);
  // The group report reads one speaker's rows (PAR) by group, with the measures it summarises.
  await sql`
    create index speech_measures_group_idx on speech_measures (speaker, category)
      include (speaking_ms, speaking_ratio, pause_count, mean_pause_ms, response_latency_ms, segments_per_minute)`.execute(
    db,
  );
  await sql`
    create table speech_measure_groups (
      category text not null,
      measure text not null,
      n integer not null check (n >= 0),
      mean double precision,
      sd double precision,
      median double precision,
      q1 double precision,
      q3 double precision,
      primary key (category, measure)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists speech_measure_groups`.execute(db);
  await sql`drop table if exists speech_measures`.execute(db);
  await sql`drop table if exists speech_stretches`.execute(db);
}
