import { sql, type Kysely } from "kysely";

/**
 * Inserts `count` audios `bench_1` … `bench_<count>` uploaded by `uploadedBy` (a user id): even
 * numbers Control, odd ones Dementia, 1000-byte WAV files, audio n uploaded n × 5 minutes ago
 * (so one every 5 minutes, the oldest about a year ago at 100,000). Resolves when inserted.
 */
export async function seedAudios<DB>(db: Kysely<DB>, count: number, uploadedBy: string): Promise<void> {
  await sql`
    insert into audios (filename, category, file_key, mime_type, size_bytes, uploaded_by, created_at)
    select 'bench_' || g, case when g % 2 = 0 then 'Control' else 'Dementia' end, 'audios/bench_' || g || '.wav',
           'audio/wav', 1000, ${uploadedBy}, now() - g * interval '5 minutes'
    from generate_series(1, ${count}) g`.execute(db);
}
