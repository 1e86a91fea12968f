import { sql } from "kysely";
import type { GlossaryTerm, LanguagePair } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../../connection";

/** Terms per insert statement (6 parameters a term). */
const CHUNK = 1_000;

/** A stored glossary term with its id. */
export interface StoredGlossaryTerm extends GlossaryTerm {
  id: string;
}

/** The terms of `pair` by source term (any case), at most `limit` (decision 035). */
export function listGlossary(db: Executor, pair: LanguagePair, limit: number): Promise<StoredGlossaryTerm[]> {
  return db
    .selectFrom("glossaryTerms")
    .select(["id", "sourceTerm", "targetTerm", "note"])
    .where("sourceLanguage", "=", pair.source)
    .where("targetLanguage", "=", pair.target)
    .orderBy(sql`lower(source_term)`)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Adds terms to `pair`; a term whose source and target (any case) are there already gets the new
 * note. Returns how many were new.
 */
export async function upsertGlossaryTerms(
  trx: DbTransaction,
  pair: LanguagePair,
  terms: readonly GlossaryTerm[],
  userId: string,
): Promise<number> {
  let added = 0;
  for (let from = 0; from < terms.length; from += CHUNK) {
    const values = terms
      .slice(from, from + CHUNK)
      .map((t) => sql`(${pair.source}, ${pair.target}, ${t.sourceTerm}, ${t.targetTerm}, ${t.note}, ${userId}::uuid)`);
    const { rows } = await sql<{ inserted: boolean }>`
      insert into glossary_terms (source_language, target_language, source_term, target_term, note, created_by)
      values ${sql.join(values)}
      on conflict (source_language, target_language, lower(source_term), lower(target_term))
      do update set note = excluded.note
      returning (xmax = 0) as inserted`.execute(trx);
    added += rows.filter((r) => r.inserted).length;
  }
  return added;
}

/** Deletes one term; returns it, or undefined when there is none with that id. */
export function deleteGlossaryTerm(trx: DbTransaction, id: string) {
  return trx
    .deleteFrom("glossaryTerms")
    .where("id", "=", id)
    .returning(["sourceTerm", "targetTerm", "sourceLanguage", "targetLanguage"])
    .executeTakeFirst();
}
