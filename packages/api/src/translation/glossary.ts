import type { GlossaryTerm, LanguagePair } from "@tafsiri/domain";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  deleteGlossaryTerm,
  listGlossary,
  upsertGlossaryTerms,
  type StoredGlossaryTerm,
} from "@tafsiri/db/repositories/translation/glossary";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { requireAdmin } from "../services/access";
import { FormatError } from "./formats/format-error";
import { readGlossaryCsv, writeGlossaryCsv } from "./formats/glossary-csv";
import { readTbx, writeTbx } from "./formats/tbx";

/** The most terms a glossary lists or exports. */
const GLOSSARY_MAX = 10_000;
/** The message for an unknown term id. */
const TERM_NOT_FOUND = "Glossary term not found.";

/** Decision 035: the glossary of `pair` by source term, for every signed-in user. */
export function getGlossary(deps: AppDeps, pair: LanguagePair): Promise<StoredGlossaryTerm[]> {
  return listGlossary(deps.db, pair, GLOSSARY_MAX);
}

/** Terms with one entry per source and target (any case), the last note kept. */
function distinctTerms(terms: readonly GlossaryTerm[]): GlossaryTerm[] {
  const byKey = new Map<string, GlossaryTerm>();
  for (const t of terms) byKey.set(`${t.sourceTerm.toLowerCase()}\u0000${t.targetTerm.toLowerCase()}`, t);
  return [...byKey.values()];
}

/**
 * Decision 035 (admin): adds a term to the glossary of `pair` (the same source and target, any
 * case, only gets the new note), audited 'glossary.added'. FORBIDDEN for staff.
 */
export async function addGlossaryTerm(
  deps: AppDeps,
  user: SessionUser,
  input: GlossaryTerm & { pair: LanguagePair },
): Promise<{ message: string }> {
  requireAdmin(user);
  const { pair, ...term } = input;
  const added = await deps.db.transaction().execute(async (trx) => {
    const n = await upsertGlossaryTerms(trx, pair, [term], user.id);
    await insertAuditEntry(trx, user.id, "glossary.added", "glossary", null, { ...pair, sourceTerm: term.sourceTerm });
    return n;
  });
  return { message: added === 1 ? `"${term.sourceTerm}" added to the glossary.` : `"${term.sourceTerm}" updated.` };
}

/** Decision 035 (admin): removes a term, audited 'glossary.removed'. NOT_FOUND 'Glossary term not found.'. */
export async function removeGlossaryTerm(deps: AppDeps, user: SessionUser, id: string): Promise<{ message: string }> {
  requireAdmin(user);
  const removed = await deps.db.transaction().execute(async (trx) => {
    const row = await deleteGlossaryTerm(trx, id);
    if (!row) throw new AppError("NOT_FOUND", TERM_NOT_FOUND);
    await insertAuditEntry(trx, user.id, "glossary.removed", "glossary", id, {
      source: row.sourceLanguage,
      target: row.targetLanguage,
      sourceTerm: row.sourceTerm,
    });
    return row;
  });
  return { message: `"${removed.sourceTerm}" removed from the glossary.` };
}

/**
 * Decision 035 (admin): imports a glossary file into `pair`: TBX (v2 or v3) when it starts as XML,
 * otherwise CSV (`source,target,note`) or OmegaT's tab-separated form. Every term is checked
 * first; nothing is written when the file is wrong (BAD_REQUEST with the format's message, such
 * as 'Line 4: the source term is empty.'). Audited 'glossary.imported'. Returns the sentence said.
 */
export async function importGlossary(
  deps: AppDeps,
  user: SessionUser,
  input: { pair: LanguagePair; content: string },
): Promise<{ message: string; added: number; updated: number }> {
  requireAdmin(user);
  let terms: GlossaryTerm[];
  try {
    terms = input.content.trimStart().startsWith("<")
      ? readTbx(input.content, input.pair)
      : readGlossaryCsv(input.content);
  } catch (error) {
    if (error instanceof FormatError) throw new AppError("BAD_REQUEST", error.message);
    throw error;
  }
  terms = distinctTerms(terms);
  if (terms.length === 0) throw new AppError("BAD_REQUEST", "The file has no glossary terms.");
  const added = await deps.db.transaction().execute(async (trx) => {
    const n = await upsertGlossaryTerms(trx, input.pair, terms, user.id);
    await insertAuditEntry(trx, user.id, "glossary.imported", "glossary", null, { ...input.pair, count: terms.length });
    return n;
  });
  const updated = terms.length - added;
  return { message: `${added} glossary term${added === 1 ? "" : "s"} added, ${updated} updated.`, added, updated };
}

/** Decision 035 (admin): the glossary of `pair` as CSV or TBX-Basic, named `tafsiri-glossary-{source}-{target}.{csv|tbx}`. */
export async function exportGlossary(
  deps: AppDeps,
  user: SessionUser,
  input: { pair: LanguagePair; format: "csv" | "tbx" },
): Promise<{ fileName: string; contentType: string; content: string }> {
  requireAdmin(user);
  const terms = await listGlossary(deps.db, input.pair, GLOSSARY_MAX);
  const name = `tafsiri-glossary-${input.pair.source}-${input.pair.target}`;
  return input.format === "tbx"
    ? { fileName: `${name}.tbx`, contentType: "application/x-tbx+xml", content: writeTbx(terms, input.pair) }
    : { fileName: `${name}.csv`, contentType: "text/csv", content: writeGlossaryCsv(terms) };
}
