import { afterAll, describe, expect, it } from "vitest";
import { Migrator, sql } from "kysely";
import { normalizeForMatch } from "@tafsiri/domain";
import { createDb, type Database } from "@tafsiri/db";
import {
  deleteAudioMemory,
  insertMemoryEntries,
  type NewMemoryEntry,
} from "@tafsiri/db/repositories/translation/translation-memory";
import { migrations } from "../../../migrations/index";
import { assignedAudio, harnessWithUsers } from "./workflow-fixtures";

/**
 * Decision 035: the memory's lookup by word pairs (a prefix filter on the GIN index of
 * `word_pairs`) and by trigrams for short sources, the word counts that choose the rarest pairs,
 * and the words and pairs of entries written before the lookups by them existed.
 */
const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

const PAIR = { source: "eng", target: "swa" };
const entry = (source: string, target: string, audioId: string | null = null): NewMemoryEntry => ({
  source,
  sourceNorm: normalizeForMatch(source),
  target,
  audioId,
});

/** The pair's word counts of `words`, by word. */
async function wordCounts(db: Database, words: string[]): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("translationMemoryWords")
    .select(["word", "entries"])
    .where("sourceLanguage", "=", PAIR.source)
    .where("targetLanguage", "=", PAIR.target)
    .where("word", "in", words)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.word, r.entries]));
}

/** Stores `entries` in PAIR's memory as an approval or an import does. */
const store = (entries: NewMemoryEntry[], origin: "approved" | "imported" = "approved") =>
  h.deps.db.transaction().execute((trx) => insertMemoryEntries(trx, PAIR, entries, origin));

/** The pair's short sources (fewer than 4 words) with their entry counts, those of `like` only when given. */
async function shortSources(db: Database, like = "%") {
  return db
    .selectFrom("translationMemoryShortSources")
    .select(["sourceNorm", "entries"])
    .where("sourceLanguage", "=", PAIR.source)
    .where("targetLanguage", "=", PAIR.target)
    .where("sourceNorm", "like", like)
    .orderBy("sourceNorm")
    .execute();
}

describe("translation memory lookup (decision 035)", () => {
  it("finds a sentence with a word changed, one with a word added, and a short answer spelt differently", async () => {
    const source = await assignedAudio(h, admin, staff);
    const current = await assignedAudio(h, admin, staff);
    await store([
      entry("The little boy climbs on the stool to reach the cookie jar.", "Mvulana mdogo anapanda kigoda.", source.id),
      entry("The mother is drying the dishes at the sink.", "Mama anakausha vyombo.", source.id),
      entry("The girls laugh.", "Wasichana wanacheka.", source.id),
      entry("Nothing like the others at all, truly.", "Hakuna kitu.", source.id),
    ]);
    const matches = (text: string) => h.caller(staff).translation.matches({ audioId: current.id, source: text });

    const changed = await matches("The little boy climbs on the chair to reach the cookie jar.");
    expect(changed.map((m) => m.target)).toEqual(["Mvulana mdogo anapanda kigoda."]);
    expect(changed[0]!.score).toBe(92);
    const added = await matches("The mother is drying all the dishes at the sink.");
    expect(added.map((m) => [m.target, m.score])).toEqual([["Mama anakausha vyombo.", 90]]);
    // Two words: scored by characters, found by trigrams among the short entries.
    const short = await matches("The girl laughs.");
    expect(short.map((m) => m.target)).toEqual(["Wasichana wanacheka."]);
    // Sharing common words is not enough.
    expect(await matches("The boy and the mother and the girls.")).toEqual([]);
  });

  it("counts the entries holding each word, and takes them out again when an audio's entries go", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const words = ["zebra", "crossing", "twice"];
    const before = await wordCounts(h.deps.db, words);
    await store([
      entry("A zebra crossing, a zebra crossing twice.", "Kivuko cha pundamilia.", audio.id),
      entry("The zebra ran across the field.", "Pundamilia alikimbia.", audio.id),
      entry("Zebra, zebra!", "Pundamilia!", audio.id),
      entry("ZEBRA zebra.", "Pundamilia.", audio.id),
    ]);
    // A word counts once per entry holding it, however often the entry says it.
    expect(await wordCounts(h.deps.db, words)).toEqual({
      zebra: (before.zebra ?? 0) + 4,
      crossing: (before.crossing ?? 0) + 1,
      twice: (before.twice ?? 0) + 1,
    });
    // A short source is kept once per text, with how many entries have it.
    expect(await shortSources(h.deps.db, "zebra%")).toEqual([
      { sourceNorm: "zebra zebra.", entries: 1 },
      { sourceNorm: "zebra, zebra!", entries: 1 },
    ]);
    await h.deps.db.transaction().execute((trx) => deleteAudioMemory(trx, audio.id));
    expect(await shortSources(h.deps.db, "zebra%")).toEqual([
      { sourceNorm: "zebra zebra.", entries: 0 },
      { sourceNorm: "zebra, zebra!", entries: 0 },
    ]);
    expect(await wordCounts(h.deps.db, words)).toEqual({
      zebra: before.zebra ?? 0,
      crossing: before.crossing ?? 0,
      twice: before.twice ?? 0,
    });
  });

  it("fills the words of entries a previous version stored without them when entries are next stored", async () => {
    const current = await assignedAudio(h, admin, staff);
    const written = "The old version wrote this sentence about a kettle.";
    await h.deps.db
      .insertInto("translationMemory")
      .values({
        sourceLanguage: PAIR.source,
        targetLanguage: PAIR.target,
        source: written,
        sourceNorm: normalizeForMatch(written),
        target: "Toleo la zamani.",
        words: null,
        wordCount: null,
      })
      .execute();
    const similar = "The old version wrote this sentence about a teapot.";
    const found = () => h.caller(staff).translation.matches({ audioId: current.id, source: similar });
    expect(await found()).toEqual([]);
    await store([entry("Something else entirely.", "Kitu kingine.")], "imported");
    expect((await found()).map((m) => m.target)).toEqual(["Toleo la zamani."]);
    expect(await wordCounts(h.deps.db, ["kettle"])).toEqual({ kettle: 1 });
  });

  it("fills the word pairs of entries the version before pairs stored, counting their words once", async () => {
    const current = await assignedAudio(h, admin, staff);
    const written = "The previous version wrote this sentence about a samovar.";
    const norm = normalizeForMatch(written);
    await h.deps.db.transaction().execute(async (trx) => {
      // As that version stored it: words and word count written and counted, no pairs.
      await insertMemoryEntries(trx, PAIR, [entry(written, "Toleo lililotangulia.")], "imported");
      await trx.updateTable("translationMemory").set({ wordPairs: null }).where("sourceNorm", "=", norm).execute();
    });
    const similar = "The previous version wrote this sentence about a big samovar.";
    const found = () => h.caller(staff).translation.matches({ audioId: current.id, source: similar });
    expect(await found()).toEqual([]);
    await store([entry("Yet another sentence of no interest.", "Sentensi nyingine.")], "imported");
    expect((await found()).map((m) => m.target)).toEqual(["Toleo lililotangulia."]);
    const row = await h.deps.db
      .selectFrom("translationMemory")
      .select("wordPairs")
      .where("sourceNorm", "=", norm)
      .executeTakeFirstOrThrow();
    expect(row.wordPairs).toContain("a samovar");
    expect(await wordCounts(h.deps.db, ["samovar"])).toEqual({ samovar: 1 });
  });

  it("finds a sentence of function words with a word changed, and not one that only shares them", async () => {
    const source = await assignedAudio(h, admin, staff);
    const current = await assignedAudio(h, admin, staff);
    const common = "and then she said that it was the one that I had";
    await store([
      entry(`${common}.`, "Kisha akasema.", source.id),
      entry("It was the one and then she said that I had it.", "Mpangilio mwingine.", source.id),
    ]);
    const matches = (text: string) => h.caller(staff).translation.matches({ audioId: current.id, source: text });
    const changed = await matches("And then he said that it was the one that I had.");
    expect(changed.map((m) => [m.target, m.score])).toEqual([["Kisha akasema.", 92]]);
  });
});

describe("the migrations to words and to word pairs (decision 035)", () => {
  it("fills the words, word counts and the pair's counts of the entries already stored", async () => {
    const handle = await createDb({});
    try {
      const migrator = new Migrator({
        db: handle.db.withoutPlugins(),
        provider: { getMigrations: async () => migrations },
      });
      expect((await migrator.migrateTo("20261211000600_translation_segments")).error).toBeUndefined();
      await sql`
        insert into translation_memory (source_language, target_language, source, source_norm, target)
        values ('eng', 'swa', 'Mtoto''s ball, the ball!', 'mtoto''s ball, the ball!', 'Mpira.'),
               ('eng', 'swa', 'Café au lait', 'café au lait', 'Kahawa.')`.execute(handle.db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await handle.db
        .selectFrom("translationMemory")
        .select(["sourceNorm", "words", "wordCount"])
        .orderBy("sourceNorm")
        .execute();
      expect(rows).toEqual([
        { sourceNorm: "café au lait", words: ["café", "au", "lait"], wordCount: 3 },
        { sourceNorm: "mtoto's ball, the ball!", words: ["mtoto's", "ball", "the"], wordCount: 4 },
      ]);
      expect(await wordCounts(handle.db, ["ball", "café", "the"])).toEqual({ ball: 1, café: 1, the: 1 });
      expect(await shortSources(handle.db)).toEqual([{ sourceNorm: "café au lait", entries: 1 }]);
      const pairs = await handle.db
        .selectFrom("translationMemory")
        .select(["sourceNorm", "wordPairs"])
        .orderBy("sourceNorm")
        .execute();
      expect(pairs).toEqual([
        { sourceNorm: "café au lait", wordPairs: ["café au", "au lait"] },
        { sourceNorm: "mtoto's ball, the ball!", wordPairs: ["mtoto's ball", "ball the", "the ball"] },
      ]);
    } finally {
      await handle.close();
    }
  });
});
