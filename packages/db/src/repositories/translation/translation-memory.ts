import { sql } from "kysely";
import { tokensOf, type LanguagePair } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../../connection";
import type { MemoryOrigin } from "../../schema-translation";

/** Rows per insert statement. */
const CHUNK = 1_000;
/**
 * pg_trgm's similarity threshold for the `%` lookup (decision 035; docs/performance.md, "Translation
 * memory"): 0.5 for a source of 4 words or more, whose matchScore compares words, and pg_trgm's
 * default 0.3 below that, where matchScore compares characters and a typo changes a larger share of
 * the trigrams. At 0.3 a sentence's common trigrams ("  t" is in 86% of the entries) let 40,000 to
 * 320,000 of a million entries through the GIN index, each read from the heap to be rechecked; at
 * 0.5 at most a few thousand: 5 times faster at p50, 6 to 7 at p99, and 99.6% of the sentence pairs
 * that score 75 or more are still above it.
 */
const WORD_SIMILARITY_THRESHOLD = 0.5;
const SHORT_SIMILARITY_THRESHOLD = 0.3;
/** From this many tokens matchScore compares words (MIN_TOKENS_FOR_WORDS in @tafsiri/domain). */
const MIN_TOKENS_FOR_WORDS = 4;
const THRESHOLD_SETTING = "pg_trgm.similarity_threshold";

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

/** Stores entries of `pair` (decision 035). */
export async function insertMemoryEntries(
  trx: DbTransaction,
  pair: LanguagePair,
  entries: readonly NewMemoryEntry[],
  origin: MemoryOrigin,
): Promise<void> {
  for (let from = 0; from < entries.length; from += CHUNK) {
    await trx
      .insertInto("translationMemory")
      .values(
        entries.slice(from, from + CHUNK).map((e) => ({
          sourceLanguage: pair.source,
          targetLanguage: pair.target,
          source: e.source,
          sourceNorm: e.sourceNorm,
          target: e.target,
          audioId: e.audioId ?? null,
          segmentId: e.segmentId ?? null,
          translatorId: e.translatorId ?? null,
          origin,
          ...(e.createdAt ? { createdAt: e.createdAt } : {}),
        })),
      )
      .execute();
  }
}

/** Removes the approved entries an audio's translation gave (before its new approval adds them again). */
export async function deleteAudioMemory(trx: DbTransaction, audioId: string): Promise<void> {
  await trx.deleteFrom("translationMemory").where("audioId", "=", audioId).where("origin", "=", "approved").execute();
}

/**
 * Candidates for a source in `pair`: entries whose normalised source equals `sourceNorm`, then
 * those most similar by trigrams (pg_trgm's `%`, at the similarity threshold set for this
 * statement only: 0.5 from 4 words, else 0.3), at most `limit`, most similar first, excluding
 * `exceptAudioId`'s own entries. The caller scores them (matchScore). Runs in a transaction of its
 * own (the threshold is `set_config(…, true)`); inside the caller's, it puts the threshold back after.
 */
export async function findMemoryCandidates(
  db: Executor,
  pair: LanguagePair,
  sourceNorm: string,
  limit: number,
  exceptAudioId: string | null,
): Promise<MemoryCandidate[]> {
  const threshold =
    tokensOf(sourceNorm).length >= MIN_TOKENS_FOR_WORDS ? WORD_SIMILARITY_THRESHOLD : SHORT_SIMILARITY_THRESHOLD;
  const setThreshold = (trx: DbTransaction, value: string) =>
    sql`select set_config(${THRESHOLD_SETTING}, ${value}, true)`.execute(trx);
  const lookup = async (trx: DbTransaction) => {
    await setThreshold(trx, String(threshold));
    return findCandidateRows(trx, pair, sourceNorm, limit, exceptAudioId);
  };
  let rows: MemoryCandidate[];
  if (db.isTransaction) {
    const trx = db as DbTransaction;
    const { rows: before } = await sql<{ value: string | null }>`
      select current_setting(${THRESHOLD_SETTING}, true) as value`.execute(trx);
    try {
      rows = await lookup(trx);
    } finally {
      await setThreshold(trx, before[0]?.value || String(SHORT_SIMILARITY_THRESHOLD));
    }
  } else {
    rows = await db.transaction().execute(lookup);
  }
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/** findMemoryCandidates' statement, at the `%` threshold the transaction has set. */
async function findCandidateRows(
  db: DbTransaction,
  pair: LanguagePair,
  sourceNorm: string,
  limit: number,
  exceptAudioId: string | null,
): Promise<MemoryCandidate[]> {
  const { rows } = await sql<MemoryCandidate>`
    select m.id, m.source, m.target, m.origin, m.audio_id, a.filename as audio_filename,
           u.username as translator, m.created_at
    from (
      select * from translation_memory
      where source_language = ${pair.source} and target_language = ${pair.target}
        and source_norm = ${sourceNorm}
        and audio_id is distinct from ${exceptAudioId}::uuid
      order by created_at desc
      limit ${limit}
    ) m
    left join audios a on a.id = m.audio_id
    left join users u on u.id = m.translator_id
    union all
    select m.id, m.source, m.target, m.origin, m.audio_id, a.filename, u.username, m.created_at
    from (
      select *, similarity(source_norm, ${sourceNorm}) as score from translation_memory
      where source_norm % ${sourceNorm}
        and source_norm <> ${sourceNorm}
        and source_language = ${pair.source} and target_language = ${pair.target}
        and audio_id is distinct from ${exceptAudioId}::uuid
      order by score desc, created_at desc
      limit ${limit}
    ) m
    left join audios a on a.id = m.audio_id
    left join users u on u.id = m.translator_id`.execute(db);
  return rows;
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
