import { sql, type Kysely } from "kysely";

/**
 * Decision 035, the translation memory found by its words (docs/performance.md, "Translation
 * memory"):
 * - translation_memory.words: the entry's distinct words (tokens of source_norm, each cut to 64
 *   characters), with a GIN index; word_count: how many words it has, repeats counted;
 * - translation_memory_words: per language pair and word, how many entries hold it, so a lookup
 *   asks the index for the rarest words of a source;
 * - translation_memory_short_sources: per language pair, each normalised source of fewer than 4
 *   words once, with how many entries have it, under the trigram index that used to cover every
 *   entry (the lookup of short sources; a long one is found by its words).
 * - translation_memory_exact_idx takes created_at too, so the newest entries of a source stored
 *   thousands of times ("yes.") are read first.
 * Existing entries are filled here. Both columns are nullable, so the previous version, which
 * does not write them, keeps running during an upgrade; the new version fills the entries it
 * wrote (fillMissingMemoryWords) when it next stores entries.
 * Frozen in time: imports no application code (the tokenizer below is a copy of tokensOf's).
 */

/** tokensOf's word: letters, marks and digits, apostrophes only inside. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*/gu;
const WORD_MAX = 64;
const BATCH = 1_000;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table translation_memory add column if not exists words text[], add column if not exists word_count integer`.execute(
    db,
  );
  await sql`
    create table translation_memory_words (
      source_language text not null,
      target_language text not null,
      word text not null,
      entries integer not null check (entries >= 0),
      primary key (source_language, target_language, word)
    )`.execute(db);
  await sql`
    create table translation_memory_short_sources (
      source_language text not null,
      target_language text not null,
      source_norm text not null,
      entries integer not null check (entries >= 0),
      primary key (source_language, target_language, source_norm)
    )`.execute(db);
  for (;;) {
    const { rows } = await sql<{ id: string; source_norm: string }>`
      select id, source_norm from translation_memory where words is null limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const tokens = rows.map((r) => r.source_norm.match(WORD) ?? []);
    // A word holds no space, so each entry's words travel as one space-separated string.
    await sql`
      update translation_memory m set words = string_to_array(v.words, ' '), word_count = v.word_count
      from unnest(${rows.map((r) => r.id)}::uuid[],
                  ${tokens.map((t) => [...new Set(t.map((w) => w.slice(0, WORD_MAX)))].join(" "))}::text[],
                  ${tokens.map((t) => t.length)}::int[]) as v (id, words, word_count)
      where m.id = v.id`.execute(db);
  }
  await sql`
    insert into translation_memory_words (source_language, target_language, word, entries)
    select source_language, target_language, w, count(*)
    from translation_memory, unnest(words) w
    group by source_language, target_language, w`.execute(db);
  await sql`
    insert into translation_memory_short_sources (source_language, target_language, source_norm, entries)
    select source_language, target_language, source_norm, count(*)
    from translation_memory where word_count < 4
    group by source_language, target_language, source_norm`.execute(db);
  await sql`create index translation_memory_words_idx on translation_memory using gin (words)`.execute(db);
  await sql`create index translation_memory_missing_words_idx on translation_memory (id) where words is null`.execute(
    db,
  );
  await sql`drop index if exists translation_memory_trgm_idx`.execute(db);
  // The newest entries of a source come first from the index, however often the source is stored.
  await sql`drop index if exists translation_memory_exact_idx`.execute(db);
  await sql`
    create index translation_memory_exact_idx
    on translation_memory (source_language, target_language, source_norm, created_at)`.execute(db);
  await sql`
    create index translation_memory_short_sources_trgm_idx on translation_memory_short_sources
    using gin (source_norm gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists translation_memory_short_sources`.execute(db);
  await sql`drop index if exists translation_memory_exact_idx`.execute(db);
  await sql`create index translation_memory_exact_idx on translation_memory (source_language, target_language, source_norm)`.execute(
    db,
  );
  await sql`create index if not exists translation_memory_trgm_idx on translation_memory using gin (source_norm gin_trgm_ops)`.execute(
    db,
  );
  await sql`drop table if exists translation_memory_words`.execute(db);
  await sql`alter table translation_memory drop column if exists words, drop column if exists word_count`.execute(db);
}
