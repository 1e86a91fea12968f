import { sql, type Kysely } from "kysely";

/**
 * Decision 035, translation segment by segment:
 * - audios.source_language / target_language: an audio's own languages (ISO 639-3), null to use
 *   the programme's (settings key 'translation');
 * - source_segments: an initial transcript cut into segments when it is uploaded (one per CHAT
 *   utterance, or per line or sentence of a text), in order, with speaker and times when known;
 * - translation_segments: the segment grid's rows of an audio's translation, kept between saves
 *   (ids stable across splits and merges); the SPEC's transcript file is still written on Submit;
 *   reviewed_target is the translation as the last review saw it, fix_note (null: none) what a
 *   rejection asked to fix in the segment;
 * - translation_memory: the approved translations' segments per language pair, found by the
 *   normalised source (exact, btree) or by trigram similarity (gin_trgm_ops);
 * - glossary_terms: terms per language pair.
 * Only new tables and nullable columns: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`alter table audios add column if not exists source_language text, add column if not exists target_language text`.execute(
    db,
  );
  await sql`
    create table source_segments (
      id uuid primary key default gen_random_uuid(),
      audio_id uuid not null references audios(id) on delete cascade,
      position integer not null,
      speaker text not null check (speaker in ('PAR', 'INV')),
      start_ms integer check (start_ms >= 0),
      end_ms integer check (end_ms >= 0),
      text text not null,
      unique (audio_id, position)
    )`.execute(db);
  await sql`
    create table translation_segments (
      id uuid primary key,
      audio_id uuid not null references audios(id) on delete cascade,
      position integer not null,
      speaker text not null check (speaker in ('PAR', 'INV')),
      start_ms integer check (start_ms >= 0),
      end_ms integer check (end_ms >= 0),
      source text not null,
      target text not null,
      state text not null check (state in ('empty', 'draft', 'translated')),
      reviewed_target text,
      fix_note text,
      updated_by uuid references users(id) on delete set null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index translation_segments_audio_idx on translation_segments (audio_id, position)`.execute(db);
  await sql`
    create table translation_memory (
      id uuid primary key default gen_random_uuid(),
      source_language text not null,
      target_language text not null,
      source text not null,
      source_norm text not null,
      target text not null,
      audio_id uuid references audios(id) on delete set null,
      segment_id uuid,
      translator_id uuid references users(id) on delete set null,
      origin text not null default 'approved' check (origin in ('approved', 'imported')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index translation_memory_exact_idx on translation_memory (source_language, target_language, source_norm)`.execute(
    db,
  );
  await sql`create index translation_memory_trgm_idx on translation_memory using gin (source_norm gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index translation_memory_audio_idx on translation_memory (audio_id)`.execute(db);
  await sql`
    create table glossary_terms (
      id uuid primary key default gen_random_uuid(),
      source_language text not null,
      target_language text not null,
      source_term text not null,
      target_term text not null,
      note text not null default '',
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create unique index glossary_terms_pair_term_idx
    on glossary_terms (source_language, target_language, lower(source_term), lower(target_term))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["glossary_terms", "translation_memory", "translation_segments", "source_segments"]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
  await sql`alter table audios drop column if exists source_language, drop column if exists target_language`.execute(
    db,
  );
}
