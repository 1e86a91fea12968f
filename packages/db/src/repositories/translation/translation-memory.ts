import { sql } from "kysely";
import {
  charLengthRange,
  matchScore,
  memoryWordPairsOf,
  memoryWordsOf,
  MIN_FUZZY_SCORE,
  MIN_TOKENS_FOR_WORDS,
  tokensOf,
  wordFilterOf,
  type LanguagePair,
} from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../../connection";
import type { MemoryOrigin } from "../../schema-translation";

/** Rows per insert statement. */
const CHUNK = 1_000;
/**
 * The most fuzzy candidates one lookup reads (decision 035). The word filter lets through a few
 * to a few hundred entries of a million (docs/performance.md); the cap only bounds a pathological
 * source, whose best matches may then be missed.
 */
const FUZZY_CANDIDATES_MAX = 2_000;
/** Entries read per similar short source (the newest; findMatches shows one per distinct translation). */
const SHORT_ENTRIES_PER_SOURCE = 3;
/** Entries a previous version wrote without word pairs, filled per call of fillMissingMemoryKeys. */
const FILL_BATCH = 1_000;

/** A memory entry to store. */
export interface NewMemoryEntry {
  source: string;
  /** normalizeForMatch(source). */
  sourceNorm: string;
  target: string;
  audioId?: string | null;
  segmentId?: string | null;
  translatorId?: string | null;
  createdAt?: Date;
}

/** A memory entry found for a source, with where it came from. */
export interface MemoryCandidate {
  id: string;
  source: string;
  target: string;
  origin: MemoryOrigin;
  audioId: string | null;
  audioFilename: string | null;
  translator: string | null;
  createdAt: Date;
}

/**
 * Stores entries of `pair` with their memory words and word pairs (memoryWordsOf,
 * memoryWordPairsOf) and counts them in the pair's word counts and short sources (decision 035).
 * Fills first the words and pairs of entries a previous version wrote without.
 */
export async function insertMemoryEntries(
  trx: DbTransaction,
  pair: LanguagePair,
  entries: readonly NewMemoryEntry[],
  origin: MemoryOrigin,
): Promise<void> {
  await fillMissingMemoryKeys(trx);
  for (let from = 0; from < entries.length; from += CHUNK) {
    const rows = entries.slice(from, from + CHUNK).map((e) => ({
      sourceLanguage: pair.source,
      targetLanguage: pair.target,
      source: e.source,
      sourceNorm: e.sourceNorm,
      target: e.target,
      audioId: e.audioId ?? null,
      segmentId: e.segmentId ?? null,
      translatorId: e.translatorId ?? null,
      origin,
      words: memoryWordsOf(e.sourceNorm),
      wordCount: tokensOf(e.sourceNorm).length,
      wordPairs: memoryWordPairsOf(e.sourceNorm),
      ...(e.createdAt ? { createdAt: e.createdAt } : {}),
    }));
    await trx.insertInto("translationMemory").values(rows).execute();
    await countEntries(trx, pair, rows, 1);
  }
}

/** What countEntries reads of an entry. */
interface CountedEntry {
  sourceNorm: string;
  words: readonly string[];
  wordCount: number;
}

/**
 * Adds `sign` (1 or -1) for each entry to the pair's count of each of its words, and of its
 * normalised source when it has fewer than MIN_TOKENS_FOR_WORDS words (the short sources the
 * trigram lookup reads, each text once).
 */
async function countEntries(trx: DbTransaction, pair: LanguagePair, entries: readonly CountedEntry[], sign: 1 | -1) {
  await addCounts(
    trx,
    "translation_memory_words",
    "word",
    pair,
    entries.flatMap((e) => e.words),
    sign,
  );
  const short = entries.filter((e) => e.wordCount < MIN_TOKENS_FOR_WORDS).map((e) => e.sourceNorm);
  await addCounts(trx, "translation_memory_short_sources", "source_norm", pair, short, sign);
}

/**
 * Adds `sign` to the pair's `entries` in `table` for each occurrence of a key in `keys`. The rows
 * are written in key order, so two transactions counting the same keys wait for each other
 * rather than deadlock.
 */
async function addCounts(
  trx: DbTransaction,
  table: "translation_memory_words" | "translation_memory_short_sources",
  column: "word" | "source_norm",
  pair: LanguagePair,
  keys: readonly string[],
  sign: 1 | -1,
) {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + sign);
  if (counts.size === 0) return;
  const sorted = [...counts.keys()].sort();
  const deltas = sorted.map((key) => counts.get(key)!);
  const [t, c] = [sql.table(table), sql.ref(column)];
  if (sign > 0) {
    await sql`
      insert into ${t} (source_language, target_language, ${c}, entries)
      select ${pair.source}, ${pair.target}, k.key, k.delta
      from unnest(${sorted}::text[], ${deltas}::int[]) as k (key, delta)
      order by k.key
      on conflict (source_language, target_language, ${c})
      do update set entries = ${t}.entries + excluded.entries`.execute(trx);
  } else {
    // Every key removed was counted when its entry was stored. Locked in key order first, as the insert above locks.
    await sql`
      select 1 from ${t}
      where source_language = ${pair.source} and target_language = ${pair.target} and ${c} = any(${sorted}::text[])
      order by ${c} for update`.execute(trx);
    await sql`
      update ${t} set entries = greatest(${t}.entries + k.delta, 0)
      from unnest(${sorted}::text[], ${deltas}::int[]) as k (key, delta)
      where ${t}.source_language = ${pair.source} and ${t}.target_language = ${pair.target}
        and ${t}.${c} = k.key`.execute(trx);
  }
}

/**
 * Fills the word pairs of at most FILL_BATCH entries written by a previous version, which did not
 * write them (an upgrade runs both versions for a while), and their words and word count where the
 * version before that left those out too (counting those words), in one update.
 */
async function fillMissingMemoryKeys(trx: DbTransaction): Promise<void> {
  const rows = await trx
    .selectFrom("translationMemory")
    .select(["id", "sourceLanguage", "targetLanguage", "sourceNorm", "words"])
    .where("wordPairs", "is", null)
    .limit(FILL_BATCH)
    .execute();
  if (rows.length === 0) return;
  const filled = rows.map((row) => ({
    ...row,
    words: row.words ?? memoryWordsOf(row.sourceNorm),
    wordCount: tokensOf(row.sourceNorm).length,
    wordPairs: memoryWordPairsOf(row.sourceNorm),
  }));
  // Neither a word nor a pair holds a tab, so each entry's lists travel as one tab-separated string.
  const joined = (list: readonly string[]) => list.join("\t");
  await sql`
    update translation_memory m
    set words = coalesce(string_to_array(nullif(v.words, ''), E'\t'), '{}'::text[]), word_count = v.word_count,
        word_pairs = coalesce(string_to_array(nullif(v.pairs, ''), E'\t'), '{}'::text[])
    from unnest(${filled.map((f) => f.id)}::uuid[], ${filled.map((f) => joined(f.words))}::text[],
                ${filled.map((f) => f.wordCount)}::int[], ${filled.map((f) => joined(f.wordPairs))}::text[])
         as v (id, words, word_count, pairs)
    where m.id = v.id`.execute(trx);
  // Only the words of entries that had none were never counted.
  await countEntriesByPair(
    trx,
    filled.filter((_, i) => rows[i]!.words === null),
    1,
  );
}

/** countEntries for entries of any language pairs, a call per pair. */
async function countEntriesByPair(
  trx: DbTransaction,
  entries: ReadonlyArray<CountedEntry & { sourceLanguage: string; targetLanguage: string }>,
  sign: 1 | -1,
): Promise<void> {
  const byPair = new Map<string, { pair: LanguagePair; entries: CountedEntry[] }>();
  for (const e of entries) {
    const key = `${e.sourceLanguage} ${e.targetLanguage}`;
    const group = byPair.get(key) ?? { pair: { source: e.sourceLanguage, target: e.targetLanguage }, entries: [] };
    group.entries.push(e);
    byPair.set(key, group);
  }
  for (const { pair, entries: grouped } of byPair.values()) await countEntries(trx, pair, grouped, sign);
}

/** Removes the approved entries an audio's translation gave (before its new approval adds them again), and their counts. */
export async function deleteAudioMemory(trx: DbTransaction, audioId: string): Promise<void> {
  const removed = await trx
    .deleteFrom("translationMemory")
    .where("audioId", "=", audioId)
    .where("origin", "=", "approved")
    .returning(["sourceLanguage", "targetLanguage", "sourceNorm", "words", "wordCount"])
    .execute();
  const counted = removed.flatMap(({ words, wordCount, ...r }) =>
    // An entry a previous version wrote without words was never counted.
    words === null || wordCount === null ? [] : [{ ...r, words, wordCount }],
  );
  await countEntriesByPair(trx, counted, -1);
}

/**
 * Candidates for a source in `pair`, excluding `exceptAudioId`'s own entries (decision 035;
 * docs/performance.md, "Translation memory"): the newest `limit` entries whose normalised source
 * equals `sourceNorm` (btree), then the entries that may score MIN_FUZZY_SCORE or more:
 * - a source of 4 words or more: entries with a word count in range holding both word pairs of one
 *   of the source's pair sets (wordFilterOf, on the GIN index of `word_pairs`), at most
 *   FUZZY_CANDIDATES_MAX;
 * - a shorter one: of the `limit` distinct short sources (fewer than 4 words) of a character
 *   length in range (charLengthRange) most similar by trigrams (pg_trgm's `%` at its default
 *   threshold 0.3, on translation_memory_short_sources' GiST trigram index), those scoring
 *   MIN_FUZZY_SCORE or more, the newest SHORT_ENTRIES_PER_SOURCE entries each.
 * The caller scores them (matchScore).
 */
export async function findMemoryCandidates(
  db: Executor,
  pair: LanguagePair,
  sourceNorm: string,
  limit: number,
  exceptAudioId: string | null,
): Promise<MemoryCandidate[]> {
  const exact = sql`
    select * from translation_memory
    where source_language = ${pair.source} and target_language = ${pair.target}
      and source_norm = ${sourceNorm}
      and audio_id is distinct from ${exceptAudioId}::uuid
    order by created_at desc
    limit ${limit}`;
  const fuzzy = await fuzzyCandidates(db, pair, sourceNorm, limit, exceptAudioId);
  // The origin's names by primary key per candidate (scalar subqueries are never turned into a join
  // that reads every audio: a few hundred candidates against 100,000 audios).
  const { rows } = await sql<MemoryCandidate>`
    select m.id, m.source, m.target, m.origin, m.audio_id,
           (select a.filename from audios a where a.id = m.audio_id) as audio_filename,
           (select u.username from users u where u.id = m.translator_id) as translator, m.created_at
    from ((${exact}) union all (${fuzzy})) m`.execute(db);
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/** findMemoryCandidates' fuzzy part: a statement reading the entries that may match, not the exact ones. */
async function fuzzyCandidates(
  db: Executor,
  pair: LanguagePair,
  sourceNorm: string,
  limit: number,
  exceptAudioId: string | null,
) {
  const common = sql`source_language = ${pair.source} and target_language = ${pair.target}
    and source_norm <> ${sourceNorm} and audio_id is distinct from ${exceptAudioId}::uuid`;
  const sourceWords = memoryWordsOf(sourceNorm);
  const counted =
    tokensOf(sourceNorm).length < MIN_TOKENS_FOR_WORDS
      ? []
      : await db
          .selectFrom("translationMemoryWords")
          .select(["word", "entries"])
          .where("sourceLanguage", "=", pair.source)
          .where("targetLanguage", "=", pair.target)
          .where("word", "in", sourceWords)
          .execute();
  const entries = new Map(counted.map((c) => [c.word, c.entries]));
  const filter = wordFilterOf(sourceNorm, (word) => entries.get(word) ?? 0);
  if (filter === null) {
    // The pair's short sources most like this one (each text once, however often it is stored)
    // that score high enough, then their newest entries.
    const length = charLengthRange(sourceNorm);
    const { rows: similar } = await sql<{ sourceNorm: string }>`
      select source_norm from translation_memory_short_sources
      where source_norm % ${sourceNorm} and source_norm <> ${sourceNorm}
        and source_language = ${pair.source} and target_language = ${pair.target}
        and char_length(source_norm) between ${length.min} and ${length.max} and entries > 0
      order by similarity(source_norm, ${sourceNorm}) desc, source_norm
      limit ${limit}`.execute(db);
    const matching = similar.map((s) => s.sourceNorm).filter((norm) => matchScore(sourceNorm, norm) >= MIN_FUZZY_SCORE);
    return sql`
      select m.* from unnest(${matching}::text[]) as s (source_norm)
      cross join lateral (
        select * from translation_memory
        where source_language = ${pair.source} and target_language = ${pair.target}
          and source_norm = s.source_norm and audio_id is distinct from ${exceptAudioId}::uuid
        order by created_at desc
        limit ${SHORT_ENTRIES_PER_SOURCE}
      ) m`;
  }
  const holdsASet = sql.join(
    filter.pairSets.map((set) => sql`word_pairs @> ${set}::text[]`),
    sql` or `,
  );
  return sql`
    select * from translation_memory
    where (${holdsASet}) and word_count between ${filter.minWords} and ${filter.maxWords} and ${common}
    limit ${FUZZY_CANDIDATES_MAX}`;
}

/** Other translations of the same normalised sources in `pair`, by normalised source (the 'inconsistent' check). */
export async function findMemoryVariants(
  db: Executor,
  pair: LanguagePair,
  sourceNorms: readonly string[],
  exceptAudioId: string,
): Promise<Map<string, string[]>> {
  const variants = new Map<string, string[]>();
  if (sourceNorms.length === 0) return variants;
  const rows = await db
    .selectFrom("translationMemory")
    .select(["sourceNorm", "target"])
    .distinct()
    .where("sourceLanguage", "=", pair.source)
    .where("targetLanguage", "=", pair.target)
    .where("sourceNorm", "in", [...new Set(sourceNorms)])
    .where((eb) => eb.or([eb("audioId", "is", null), eb("audioId", "<>", exceptAudioId)]))
    .execute();
  for (const r of rows) variants.set(r.sourceNorm, [...(variants.get(r.sourceNorm) ?? []), r.target]);
  return variants;
}

/** Every entry of `pair`, oldest first, at most `limit` (the TMX export). */
export function listMemory(db: Executor, pair: LanguagePair, limit: number) {
  return db
    .selectFrom("translationMemory")
    .leftJoin("users", "users.id", "translationMemory.translatorId")
    .leftJoin("audios", "audios.id", "translationMemory.audioId")
    .select([
      "translationMemory.id",
      "translationMemory.source",
      "translationMemory.target",
      "translationMemory.createdAt",
      "translationMemory.origin",
      "users.username as translator",
      "audios.filename as audioFilename",
    ])
    .where("translationMemory.sourceLanguage", "=", pair.source)
    .where("translationMemory.targetLanguage", "=", pair.target)
    .orderBy("translationMemory.createdAt")
    .orderBy("translationMemory.id")
    .limit(limit)
    .execute();
}

/** How many entries `pair` holds. */
export async function countMemory(db: Executor, pair: LanguagePair): Promise<number> {
  const row = await db
    .selectFrom("translationMemory")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("sourceLanguage", "=", pair.source)
    .where("targetLanguage", "=", pair.target)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
