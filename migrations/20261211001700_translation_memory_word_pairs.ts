import { sql, type Kysely } from "kysely";

/**
 * Decision 035, the translation memory found by its word pairs (docs/performance.md, "Translation
 * memory"):
 * - translation_memory.word_pairs: the entry's distinct pairs of adjacent words ("that it", each
 *   word cut to 64 characters), with a GIN index; a fuzzy lookup asks it for two of the source's
 *   rarest pairs together, where asking `words` for three of its rarest words read the long
 *   posting lists of function words;
 * - translation_memory_short_sources: its trigram index becomes GiST. Its leaves hold each short
 *   source's trigrams, so `%` is decided in the index; the GIN index let through every short
 *   source holding "the" and rechecked each on the table.
 * Existing entries are filled here. The column is nullable, so the previous version, which does not
 * write it, keeps running during an upgrade; the new version fills the entries it wrote when it
 * next stores entries (translation_memory_missing_pairs_idx finds them). The previous version's
 * lookup by words keeps translation_memory_words_idx and translation_memory_missing_words_idx;
 * the release after this one drops them (migrations/README.md, "Expand, then contract").
 * Frozen in time: imports no application code (the tokenizer below is a copy of tokensOf's).
 */

/** tokensOf's word: letters, marks and digits, apostrophes only inside. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*/gu;
const WORD_MAX = 64;
const BATCH = 1_000;

/** The distinct pairs of adjacent words of a normalised source, joined by a tab (no word holds one). */
function pairsOf(sourceNorm: string): string {
  const words = (sourceNorm.match(WORD) ?? []).map((w) => w.slice(0, WORD_MAX));
  return [...new Set(words.slice(1).map((w, i) => `${words[i]} ${w}`))].join("\t");
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table translation_memory add column if not exists word_pairs text[]`.execute(db);
  for (;;) {
    const { rows } = await sql<{ id: string; source_norm: string }>`
      select id, source_norm from translation_memory where word_pairs is null limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    await sql`
      update translation_memory m
      set word_pairs = case when v.pairs = '' then '{}'::text[] else string_to_array(v.pairs, E'\t') end
      from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => pairsOf(r.source_norm))}::text[]) as v (id, pairs)
      where m.id = v.id`.execute(db);
  }
  await sql`create index if not exists translation_memory_word_pairs_idx on translation_memory using gin (word_pairs)`.execute(
    db,
  );
  await sql`
    create index if not exists translation_memory_missing_pairs_idx on translation_memory (id)
    where word_pairs is null`.execute(db);
  await sql`
    create index if not exists translation_memory_short_sources_trgm_gist_idx on translation_memory_short_sources
    using gist (source_norm gist_trgm_ops)`.execute(db);
  await sql`drop index if exists translation_memory_short_sources_trgm_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create index if not exists translation_memory_short_sources_trgm_idx on translation_memory_short_sources
    using gin (source_norm gin_trgm_ops)`.execute(db);
  await sql`drop index if exists translation_memory_short_sources_trgm_gist_idx`.execute(db);
  await sql`drop index if exists translation_memory_missing_pairs_idx`.execute(db);
  await sql`drop index if exists translation_memory_word_pairs_idx`.execute(db);
  await sql`alter table translation_memory drop column if exists word_pairs`.execute(db);
}
