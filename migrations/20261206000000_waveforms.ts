import { sql, type Kysely } from "kysely";

/**
 * Waveforms and durations of long recordings (ARCHITECTURE "Long recordings and the corpus"): an
 * audio and a translated recording carry what decoding their file found (duration in seconds,
 * sample rate in Hz, channel count), the storage key of their peaks (a file beside theirs), and
 * where that work stands: `pending` until the waveform job has decoded the file, then `ready`, or
 * `failed` when the decoder cannot read it (the file still plays). Rows stored before this
 * migration start `pending`, so the same job gives them their peaks once.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["audios", "translated_recordings"]) {
    await db.schema
      .alterTable(table)
      .addColumn("duration_seconds", "double precision")
      .addColumn("sample_rate", "integer")
      .addColumn("channel_count", "integer")
      .addColumn("peaks_key", "text")
      .addColumn("waveform_status", "text", (c) =>
        c
          .notNull()
          .defaultTo("pending")
          .check(sql`waveform_status in ('pending', 'ready', 'failed')`),
      )
      .execute();
    // The waveform job takes the oldest pending row first; the index holds only those.
    await db.schema
      .createIndex(`${table}_waveform_pending_idx`)
      .on(table)
      .column("created_at")
      .where(sql.ref("waveform_status"), "=", "pending")
      .execute();
    // The file sweep asks which stored keys a row points at.
    await db.schema.createIndex(`${table}_peaks_key_idx`).on(table).column("peaks_key").execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["audios", "translated_recordings"]) {
    await db.schema.dropIndex(`${table}_peaks_key_idx`).execute();
    await db.schema.dropIndex(`${table}_waveform_pending_idx`).execute();
    await db.schema
      .alterTable(table)
      .dropColumn("waveform_status")
      .dropColumn("peaks_key")
      .dropColumn("channel_count")
      .dropColumn("sample_rate")
      .dropColumn("duration_seconds")
      .execute();
  }
}
