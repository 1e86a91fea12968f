import { sql, type Kysely } from "kysely";

/**
 * Decision 035, oral translation by segment: segment_takes holds each grid row's spoken
 * translation (a take): its file, what was measured of it when it was stored (duration, peak and
 * RMS level in dBFS, the longest silence inside it), a reviewer's request to record it again
 * (redo_note, null: none), and its span in the translated recording last assembled from the takes
 * (assembled_start_ms / assembled_end_ms, null until then). A take goes with its row.
 * Only a new table: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table segment_takes (
      segment_id uuid primary key references translation_segments(id) on delete cascade,
      audio_id uuid not null references audios(id) on delete cascade,
      file_key text not null,
      mime_type text not null,
      size_bytes integer not null check (size_bytes >= 0),
      duration_ms integer not null check (duration_ms >= 0),
      peak_dbfs real not null,
      rms_dbfs real not null,
      longest_silence_ms integer not null check (longest_silence_ms >= 0),
      redo_note text,
      assembled_start_ms integer check (assembled_start_ms >= 0),
      assembled_end_ms integer check (assembled_end_ms >= 0),
      recorded_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index segment_takes_audio_idx on segment_takes (audio_id)`.execute(db);
  await sql`create index segment_takes_recorded_by_idx on segment_takes (recorded_by)`.execute(db);
  // The file sweep and backups ask which stored keys a row points at.
  await sql`create index segment_takes_file_key_idx on segment_takes (file_key)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists segment_takes`.execute(db);
}
