import { sql, type Kysely } from "kysely";

/**
 * Decision 035, oral translation by segment: recording_spans holds, for each grid row, the
 * stretch of the translated recording that speaks its translation: in which recording file
 * (recording_key, the submission's recorded_audio when the span was written), from start_ms to
 * end_ms. The server writes them when it assembles the recording from the takes (origin
 * 'takes'); staff confirm them after uploading one whole file, from the voice activity
 * detector's proposal (origin 'confirmed'). A span counts only while its recording_key is still
 * the submission's recording, so a new upload leaves no stale span behind.
 * Existing assembled spans move over (their key: the recording of that audio at this moment).
 * segment_takes.assembled_start_ms / assembled_end_ms stay for the previous version during a
 * rolling upgrade (expand, then contract) and are no longer read.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table recording_spans (
      segment_id uuid primary key references translation_segments(id) on delete cascade,
      audio_id uuid not null references audios(id) on delete cascade,
      recording_key text not null,
      start_ms integer not null check (start_ms >= 0),
      end_ms integer not null check (end_ms > start_ms),
      origin text not null check (origin in ('takes', 'confirmed')),
      updated_by uuid references users(id) on delete set null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index recording_spans_audio_idx on recording_spans (audio_id, recording_key)`.execute(db);
  await sql`create index recording_spans_updated_by_idx on recording_spans (updated_by)`.execute(db);
  await sql`
    insert into recording_spans (segment_id, audio_id, recording_key, start_ms, end_ms, origin, updated_by)
    select st.segment_id, st.audio_id, s.recorded_audio, st.assembled_start_ms, st.assembled_end_ms, 'takes', st.recorded_by
    from segment_takes st
    join tasks t on t.audio_id = st.audio_id
    join submissions s on s.task_id = t.id
    where st.assembled_start_ms is not null and st.assembled_end_ms > st.assembled_start_ms
      and s.recorded_audio is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists recording_spans`.execute(db);
}
