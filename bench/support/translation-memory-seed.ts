/**
 * The translation memory of the translation benchmark (bench/translation.ts, decision 035): a
 * language pair's entries written set-based (`insert … select … from generate_series`), so a
 * million rows take a minute or two rather than an hour of inserts through the service.
 *
 * - Sentences: one in SHORT_EVERY of 1 to 3 words (answers such as "yes" or "the boy"), the others
 *   4 to 20 words (uniformly), each word drawn from a vocabulary of `vocabularySize`
 *   words by a Zipf law (rank r with probability ∝ 1/r: `floor(V ^ random())`), the most common
 *   ranks being real English function words ("the", "and", "you", …) and the rest made-up
 *   pronounceable words (onset, vowel, coda; one to three syllables), so trigram posting lists are
 *   as uneven as in English: " th", "the" in most rows, most trigrams in few.
 * - Interviewer prompts: `prompts` questions (an opener such as "Can you tell me" and 4 to 9
 *   words), each stored 2 to 6 times as written (from different audios, one with another
 *   translation), once with other case and spacing (the same normalised text), once with a word
 *   dropped, once with a word replaced, and every other one with a word added.
 * - Every entry is from an approved translation of one of `segments / 200` audios by one of 20
 *   staff, except one in ten imported (no audio, no translator); created over the last two years.
 *   `source_norm` is normalizeForMatch(source) computed in SQL (lower-case, whitespace runs as one
 *   space, trimmed: the same for the ASCII text written here), `words`, `word_count` and
 *   `word_pairs` are memoryWordsOf, tokensOf's length and memoryWordPairsOf (ASCII_WORD),
 *   translation_memory_words counts the words and
 *   translation_memory_short_sources the short sources;
 *   checkNormalisation compares them with the TypeScript.
 *
 * The memory's indexes are dropped for the insert and built again afterwards from their own
 * definitions (pg_indexes), then the table is analysed.
 */
import { sql, type RawBuilder } from "kysely";
import {
  MEMORY_WORD_MAX,
  memoryWordPairsOf,
  memoryWordsOf,
  normalizeForMatch,
  tokensOf,
  type LanguagePair,
} from "@tafsiri/domain";
import type { Database } from "@tafsiri/db";
import type { SessionUser } from "@tafsiri/api";

/** The pair the benchmark's memory is in: the programme's default (decision 035). */
const PAIR: LanguagePair = { source: "eng", target: "swa" };
/** Memory entries per seeded audio (an interview's segments). */
const SEGMENTS_PER_AUDIO = 200;
/** Staff whose approved translations fill the memory. */
const TRANSLATORS = 20;
/** Shortest and longest generated sentence, in words. */
const MIN_WORDS = 4;
const MAX_WORDS = 20;
/** One generated sentence in this many is short: 1 to SHORT_MAX words. */
const SHORT_EVERY = 5;
const SHORT_MAX = 3;
/** The memory's word of the seed's ASCII text (tokensOf's for it); memoryWordsOf cuts it to MEMORY_WORD_MAX. */
const ASCII_WORD = "[a-z0-9]+(?:'[a-z0-9]+)*";

/** The most common English words, most common first: the top ranks of the vocabulary. */
const COMMON_WORDS = `the and i you it to a of that in is was he we they she what this do my on have
for but not with be so there just like know me one at are yes no all about his her when then
them your were had did can if out up go get think well from said see because as would there's
very here how people now time going said or an by do went some our who more could will
back want little come good day where house mother father children school water picture boy girl
man woman home work money years old remember tell again morning night food eat drink walk church
market town village family friend name always never sometimes before after together something
nothing everything why which than into over down many much too also only still really yeah okay`
  .split(/\s+/)
  .filter((w, i, all) => w !== "" && all.indexOf(w) === i);

const ONSETS = ["", "", "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "y", "z"]
  .concat(["br", "cr", "dr", "fr", "gr", "pr", "tr", "bl", "cl", "fl", "gl", "pl", "sl", "sh", "ch", "th", "st"])
  .concat(["sp", "sk", "sm", "sn", "sw", "wh", "qu", "kw", "mb", "ng"]);
const NUCLEI = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "ai", "ea", "ee", "oa", "oo", "ou", "y", "ie", "au"];
const CODAS = ["", "", "", "", "n", "r", "l", "s", "t", "d", "m", "ng", "st", "nd", "ck", "sh", "th", "x", "p"].concat([
  "ll",
  "rt",
  "nt",
  "mp",
  "ft",
  "lk",
]);

const OPENERS = [
  "tell me about",
  "can you tell me",
  "could you describe",
  "what do you remember about",
  "how do you feel about",
  "please describe",
  "what happens when",
  "do you remember",
  "why do you think",
  "where did you see",
  "tell me everything you see in",
  "what did your mother say about",
  "how often do you go to",
  "who was with you at",
  "what else can you tell me about",
  "can you count",
  "please name",
  "what is happening in",
  "how did you learn",
  "when did you last visit",
];

/** mulberry32: a small seeded generator of numbers in [0, 1), so every run seeds the same text. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** `size` distinct lower-case words, most common first: COMMON_WORDS, then made-up ones. */
function makeVocabulary(size: number, random = seededRandom(35)): string[] {
  const words = new Set(COMMON_WORDS.slice(0, size));
  while (words.size < size) {
    const syllables = 1 + Math.floor(random() * random() * 3.5);
    let word = "";
    for (let s = 0; s < syllables; s++) word += pick(random, ONSETS) + pick(random, NUCLEI) + pick(random, CODAS);
    if (word.length >= 2) words.add(word);
  }
  return [...words];
}

/** A Zipf-distributed word of `vocabulary` (rank r with probability ∝ 1/r, as the SQL below draws them). */
export function zipfWord(random: () => number, vocabulary: readonly string[]): string {
  return vocabulary[Math.floor(vocabulary.length ** random()) - 1]!;
}

/** `count` Zipf words of `vocabulary`. */
function words(random: () => number, vocabulary: readonly string[], count: number): string[] {
  return Array.from({ length: count }, () => zipfWord(random, vocabulary));
}

/** "Sentence case" with a final mark. */
function sentence(words: readonly string[], mark = "."): string {
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1) + mark;
}

/** A sentence of `min` to `max` Zipf words of `vocabulary`, as the seeded ones are written. */
export function randomSentence(random: () => number, vocabulary: readonly string[], min: number, max: number): string {
  return sentence(words(random, vocabulary, min + Math.floor(random() * (max - min + 1))));
}

/** `count` distinct interviewer prompts: an opener and 4 to 9 Zipf words, as questions. */
function makePrompts(count: number, vocabulary: readonly string[], random = seededRandom(7)): string[] {
  const prompts = new Set<string>();
  while (prompts.size < count) {
    const opener = pick(random, OPENERS).split(" ");
    prompts.add(sentence([...opener, ...words(random, vocabulary, 4 + Math.floor(random() * 6))], "?"));
  }
  return [...prompts];
}

/** `text` with its word `index` (counting from the end when negative) replaced by `word`. */
export function replaceWord(text: string, index: number, word: string): string {
  const parts = text.slice(0, -1).split(" ");
  const at = index < 0 ? parts.length + index : index;
  parts[at] = at === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
  return parts.join(" ") + text.slice(-1);
}

/** The stored forms of prompt `p` (see the file's comment), with the translation of each. */
function promptEntries(prompt: string, p: number, vocabulary: readonly string[]): { source: string; target: string }[] {
  const random = seededRandom(1000 + p);
  const target = `sw ${p}: ${prompt}`;
  const parts = prompt.slice(0, -1).split(" ");
  const entries: { source: string; target: string }[] = [];
  const copies = 2 + (p % 5);
  for (let c = 0; c < copies; c++) entries.push({ source: prompt, target: c === 1 ? `${target} (2)` : target });
  // Other case and spacing: the same normalised text.
  entries.push({ source: `  ${prompt.toUpperCase().replace(/ /g, "  ")} `, target });
  // A word dropped (not the opener's first), one replaced, one added.
  const dropped = 1 + Math.floor(random() * (parts.length - 1));
  entries.push({
    source: sentence(
      parts.filter((_, i) => i !== dropped).map((w) => w.toLowerCase()),
      "?",
    ),
    target,
  });
  entries.push({ source: replaceWord(prompt, -1 - Math.floor(random() * 3), zipfWord(random, vocabulary)), target });
  if (p % 2 === 0) entries.push({ source: prompt.replace(/\?$/, ` ${zipfWord(random, vocabulary)}?`), target });
  return entries;
}

/** What seedTranslationMemory made. */
export interface SeededMemory {
  /** Entries in the memory. */
  entries: number;
  /** Of which stored forms of the prompts. */
  promptEntries: number;
  vocabulary: string[];
  prompts: string[];
  /** The staff member the benchmark calls as, and the audio assigned to them (no memory entries of its own). */
  staff: SessionUser;
  audioId: string;
  /** Seconds spent inserting, building the indexes, and analysing. */
  seconds: { insert: number; indexes: number; analyze: number };
}

const seconds = (start: number) => (performance.now() - start) / 1000;
/** A fixed uuid (version 4, RFC variant, as the API's id check wants) made from the text `key`. */
const uuidOf = (key: RawBuilder<unknown>) =>
  sql`overlay(overlay(md5(${key}) placing '4' from 13) placing '8' from 17)::uuid`;
/** Lower-case letters to others, so a translation is text of the same length and look. */
const CIPHER = ["abcdefghijklmnopqrstuvwxyz", "aikuemnahiykilmnoawitueawyz"] as const;

/**
 * Seeds `db` (migrated, empty) with the translation memory of PAIR described above: `segments`
 * generated sentences plus the prompts' entries, the audios and staff they came from, and one
 * more audio assigned to the first staff member for the benchmark's calls. `log` receives progress.
 */
export async function seedTranslationMemory(
  db: Database,
  options: { segments: number; prompts: number; vocabularySize: number; log: (line: string) => void },
): Promise<SeededMemory> {
  const vocabulary = makeVocabulary(options.vocabularySize);
  const prompts = makePrompts(options.prompts, vocabulary);
  const prompted = prompts.flatMap((prompt, p) => promptEntries(prompt, p, vocabulary));
  const audios = Math.max(1, Math.ceil(options.segments / SEGMENTS_PER_AUDIO));
  const [from, to] = CIPHER;
  return db.connection().execute(async (conn) => {
    await sql`select setseed(0.35)`.execute(conn);
    await sql`set maintenance_work_mem = '256MB'`.execute(conn);
    await sql`
      insert into users (id, username, email, password_hash, role, created_at)
      select ${uuidOf(sql`'bench-staff-' || k`)}, 'tm-staff-' || k, 'tm-staff-' || k || '@bench.test', 'x', 'Staff',
             now() - interval '800 days'
      from generate_series(0, ${TRANSLATORS - 1}) k`.execute(conn);
    await sql`
      insert into audios (id, filename, category, file_key, mime_type, size_bytes, created_at)
      select ${uuidOf(sql`'bench-audio-' || k`)}, 'tm-' || lpad(k::text, 7, '0') || '.wav',
             case when k % 2 = 0 then 'Control' else 'Dementia' end,
             'audios/tm-' || k || '.wav', 'audio/wav', 1000000, now() - interval '750 days' + k * interval '1 hour'
      from generate_series(0, ${audios}) k`.execute(conn);
    // Audio `audios` (the last) is the one translated now: assigned to staff 0, no entries of its own.
    const audioId = (
      await sql<{ id: string }>`select ${uuidOf(sql`${`bench-audio-${audios}`}::text`)} as id`.execute(conn)
    ).rows[0]!.id;
    const staffId = (await sql<{ id: string }>`select ${uuidOf(sql`'bench-staff-0'`)} as id`.execute(conn)).rows[0]!.id;
    await sql`insert into tasks (audio_id, assigned_to) values (${audioId}, ${staffId})`.execute(conn);

    const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = 'translation_memory'
        and indexname <> 'translation_memory_pkey'`.execute(conn);
    for (const index of indexes) await sql`drop index ${sql.id(index.indexname)}`.execute(conn);

    let start = performance.now();
    await sql`create temporary table bench_vocabulary (rank int primary key, word text not null)`.execute(conn);
    await sql`
      insert into bench_vocabulary (rank, word)
      select r, w from unnest(${vocabulary}::text[]) with ordinality as v (w, r)`.execute(conn);
    const insertEntries = (rows: ReturnType<typeof sql>) => sql`
      insert into translation_memory (source_language, target_language, source, source_norm, target, audio_id,
                                      segment_id, translator_id, origin, created_at, words, word_count, word_pairs)
      select ${PAIR.source}, ${PAIR.target}, e.source, x.norm,
             e.target,
             case when e.n % 10 <> 0 then ${uuidOf(sql`'bench-audio-' || (e.n % ${audios})`)} end,
             case when e.n % 10 <> 0 then gen_random_uuid() end,
             case when e.n % 10 <> 0 then ${uuidOf(sql`'bench-staff-' || (e.n % ${TRANSLATORS})`)} end,
             case when e.n % 10 = 0 then 'imported' else 'approved' end,
             now() - random() * interval '730 days',
             array(select distinct left(m[1], ${MEMORY_WORD_MAX}) from regexp_matches(x.norm, ${ASCII_WORD}, 'g') m),
             (select count(*) from regexp_matches(x.norm, ${ASCII_WORD}, 'g'))::int,
             array(select distinct q.pair from (
                     select left(r.m[1], ${MEMORY_WORD_MAX}) || ' ' || lead(left(r.m[1], ${MEMORY_WORD_MAX})) over (order by r.o) as pair
                     from regexp_matches(x.norm, ${ASCII_WORD}, 'g') with ordinality as r (m, o)) q
                   where q.pair is not null)
      from (${rows}) e
      cross join lateral (select trim(regexp_replace(lower(e.source), '\\s+', ' ', 'g')) as norm) x`;
    await insertEntries(sql`
      select n, source, translate(lower(target), ${from}, ${to}) as target
      from unnest(${prompted.map((e) => e.source)}::text[], ${prompted.map((e) => e.target)}::text[])
           with ordinality as p (source, target, n)`).execute(conn);
    // Chunks of 100,000, so a progress line shows every few seconds.
    const CHUNK = 100_000;
    for (let first = 1; first <= options.segments; first += CHUNK) {
      const last = Math.min(options.segments, first + CHUNK - 1);
      await insertEntries(sql`
        select g.n, upper(left(b.body, 1)) || substr(b.body, 2) || '.' as source,
               translate(b.body, ${from}, ${to}) || '.' as target
        from (select n, case when n % ${SHORT_EVERY} = 0 then 1 + floor(random() * ${SHORT_MAX})::int
                             else ${MIN_WORDS} + floor(random() * ${MAX_WORDS - MIN_WORDS + 1})::int end as len
              from generate_series(${first}::int, ${last}::int) n) g
        cross join lateral (
          select string_agg(v.word, ' ' order by w.k) as body
          from (select k, floor(power(${vocabulary.length}::float8, random()))::int as r
                from generate_series(1, g.len) k) w
          join bench_vocabulary v on v.rank = w.r
        ) b`).execute(conn);
      options.log(`  ${last.toLocaleString("en")} sentences (${seconds(start).toFixed(0)} s)`);
    }
    await sql`drop table bench_vocabulary`.execute(conn);
    await sql`
      insert into translation_memory_words (source_language, target_language, word, entries)
      select source_language, target_language, w, count(*) from translation_memory, unnest(words) w
      group by source_language, target_language, w`.execute(conn);
    await sql`
      insert into translation_memory_short_sources (source_language, target_language, source_norm, entries)
      select source_language, target_language, source_norm, count(*) from translation_memory where word_count < 4
      group by source_language, target_language, source_norm`.execute(conn);
    const insert = seconds(start);

    start = performance.now();
    for (const index of indexes) {
      await sql.raw(index.indexdef).execute(conn);
      options.log(`  index ${index.indexname} built (${seconds(start).toFixed(0)} s)`);
    }
    const built = seconds(start);
    start = performance.now();
    await sql`analyze translation_memory`.execute(conn);
    await sql`analyze translation_memory_words`.execute(conn);
    await sql`analyze translation_memory_short_sources`.execute(conn);
    await sql`analyze audios`.execute(conn);
    await sql`analyze users`.execute(conn);
    await sql`analyze tasks`.execute(conn);
    await sql`reset maintenance_work_mem`.execute(conn);
    return {
      entries: options.segments + prompted.length,
      promptEntries: prompted.length,
      vocabulary,
      prompts,
      staff: { id: staffId, username: "tm-staff-0", email: "tm-staff-0@bench.test", role: "Staff", active: true },
      audioId,
      seconds: { insert, indexes: built, analyze: seconds(start) },
    };
  });
}

/**
 * Compares `source_norm`, `words`, `word_count` and `word_pairs` as the seed computed them in SQL
 * with normalizeForMatch(source), memoryWordsOf, tokensOf and memoryWordPairsOf for a sample of
 * entries: the prompts' forms (other case and spacing among them) and `sample` sentences. Throws on
 * the first difference; resolves to how many rows were compared.
 */
export async function checkNormalisation(db: Database, sample = 50): Promise<number> {
  const { rows } = await sql<{
    source: string;
    sourceNorm: string;
    words: string[];
    wordCount: number;
    wordPairs: string[];
  }>`
    (select source, source_norm, words, word_count, word_pairs from translation_memory where source like '%?%' limit ${sample})
    union all
    (select source, source_norm, words, word_count, word_pairs from translation_memory where source like '  %' limit 10)
    union all
    (select source, source_norm, words, word_count, word_pairs from translation_memory tablesample system (1) limit ${sample})`.execute(
    db,
  );
  const sorted = (words: readonly string[]) => JSON.stringify([...words].sort());
  for (const row of rows) {
    if (normalizeForMatch(row.source) !== row.sourceNorm)
      throw new Error(
        `source_norm ${JSON.stringify(row.sourceNorm)} differs from normalizeForMatch: ${JSON.stringify(normalizeForMatch(row.source))}`,
      );
    if (
      sorted(row.words) !== sorted(memoryWordsOf(row.sourceNorm)) ||
      row.wordCount !== tokensOf(row.sourceNorm).length ||
      sorted(row.wordPairs) !== sorted(memoryWordPairsOf(row.sourceNorm))
    )
      throw new Error(
        `words ${JSON.stringify(row.words)} (${row.wordCount}), pairs ${JSON.stringify(row.wordPairs)} differ from ` +
          `memoryWordsOf and memoryWordPairsOf of ${JSON.stringify(row.sourceNorm)}`,
      );
  }
  return rows.length;
}
