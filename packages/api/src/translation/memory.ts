import {
  matchScore,
  MIN_FUZZY_SCORE,
  normalizeForMatch,
  parseTranscript,
  wordDiff,
  type LanguagePair,
} from "@tafsiri/domain";
import type { DbTransaction } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findTranscriptVersion } from "@tafsiri/db/repositories/transcript-versions";
import { listSourceSegments } from "@tafsiri/db/repositories/translation/source-segments";
import {
  listTranslationSegments,
  markSegmentsReviewed,
  type SegmentToFix,
} from "@tafsiri/db/repositories/translation/translation-segments";
import {
  countMemory,
  deleteAudioMemory,
  findMemoryCandidates,
  insertMemoryEntries,
  listMemory,
  type NewMemoryEntry,
} from "@tafsiri/db/repositories/translation/translation-memory";
import type { Audio, Task } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { requireAdmin, requireAudioAccess } from "../services/access";
import { FormatError } from "./formats/format-error";
import { readTmx, writeTmx } from "./formats/tmx";
import { languagePairOf, readTranslationSettings } from "./translation-settings";

/** Candidates read per lookup before scoring. */
const CANDIDATES = 20;
/** Matches shown per row (one key inserts each). */
const MATCHES_SHOWN = 3;
/** The most entries one TMX export writes. */
const EXPORT_MAX = 1_000_000;

/** A memory match as the grid shows it. */
export interface MemoryMatch {
  id: string;
  score: number;
  source: string;
  target: string;
  origin: "approved" | "imported";
  audioFilename: string | null;
  translator: string | null;
  createdAt: string;
  diff: { text: string; change: "same" | "added" | "removed" }[];
}

/**
 * Decision 035: the best memory matches of `source` for an audio the caller may see, in its
 * language pair, other audios' entries only: at most three, 100 for the same normalised text,
 * fuzzy ones from MIN_FUZZY_SCORE (matchScore), best first, newest first among equals, one per
 * distinct translation; each with its origin and its source's word differences from `source`.
 * Throws NOT_FOUND / FORBIDDEN as requireAudioAccess.
 */
export async function findMatches(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; source: string },
): Promise<MemoryMatch[]> {
  const { audio } = await requireAudioAccess(deps.db, user, input.audioId);
  const norm = normalizeForMatch(input.source);
  if (norm === "") return [];
  const pair = languagePairOf(await readTranslationSettings(deps.db), audio);
  const candidates = await findMemoryCandidates(deps.db, pair, norm, CANDIDATES, audio.id);
  const scored = candidates
    .map((c) => ({ ...c, score: matchScore(input.source, c.source) }))
    .filter((c) => c.score >= MIN_FUZZY_SCORE)
    .sort((a, b) => b.score - a.score || b.createdAt.getTime() - a.createdAt.getTime());
  const seen = new Set<string>();
  const matches: MemoryMatch[] = [];
  for (const c of scored) {
    const key = c.target.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    matches.push({ ...c, createdAt: c.createdAt.toISOString(), diff: wordDiff(c.source, input.source) });
    if (matches.length === MATCHES_SHOWN) break;
  }
  return matches;
}

/**
 * The entries an approved translation gives: its grid rows with a source and a translation, or,
 * when it was never edited in the grid, the transcript's lines paired with the source segments
 * when there are as many of each.
 */
async function approvedEntries(trx: DbTransaction, audio: Audio, task: Task): Promise<NewMemoryEntry[]> {
  let pairs: { id: string | null; source: string; target: string }[] = (
    await listTranslationSegments(trx, audio.id)
  ).map((r) => ({ id: r.id, source: r.source, target: r.target }));
  if (pairs.length === 0) {
    const source = await listSourceSegments(trx, audio.id);
    const submission = await findSubmissionByTask(trx, task.id);
    const version = submission?.translationScript
      ? await findTranscriptVersion(trx, submission.id, submission.translationScript)
      : undefined;
    const lines = version ? parseTranscript(version.text).filter((l) => l.text.trim() !== "") : [];
    if (lines.length === source.length)
      pairs = source.map((s, i) => ({ id: null, source: s.text, target: lines[i]!.text }));
  }
  return pairs
    .filter((p) => p.source.trim() !== "" && p.target.trim() !== "")
    .map((p) => ({
      source: p.source.trim(),
      sourceNorm: normalizeForMatch(p.source),
      target: p.target.trim(),
      audioId: audio.id,
      segmentId: p.id,
      translatorId: task.assignedTo,
    }));
}

/** The message when a rejection names a segment the translation does not have. */
const UNKNOWN_SEGMENT = "A segment named in the rejection is not part of this translation.";

/**
 * Decision 035: called in the transaction of a transcript review. An approval puts the audio's
 * translated segments into the memory of its language pair (replacing what an earlier approval
 * of it put there); a rejection or deletion takes them out. An approval or rejection keeps each
 * row's translation as reviewed, and a rejection marks `toFix` (others unmarked); BAD_REQUEST
 * 'A segment named in the rejection is not part of this translation.' for an id of no row.
 */
export async function recordReviewedTranslation(
  trx: DbTransaction,
  audio: Audio,
  task: Task,
  action: "approve" | "reject" | "remove",
  toFix: readonly SegmentToFix[],
): Promise<void> {
  if (action !== "remove") {
    const unknown = await markSegmentsReviewed(trx, audio.id, toFix);
    if (unknown.length > 0) throw new AppError("BAD_REQUEST", UNKNOWN_SEGMENT);
  }
  await deleteAudioMemory(trx, audio.id);
  if (action !== "approve") return;
  const pair = languagePairOf(await readTranslationSettings(trx), audio);
  await insertMemoryEntries(trx, pair, await approvedEntries(trx, audio, task), "approved");
}

/**
 * Decision 035 (admin): imports a TMX file's units of `pair` into the memory as 'imported'
 * entries, audited 'memory.imported'. Throws FORBIDDEN for staff, BAD_REQUEST with the format's
 * message for a file that is not TMX, or 'The file has no translation units for eng → swa.'.
 * Returns the sentence said and the count.
 */
export async function importMemory(
  deps: AppDeps,
  user: SessionUser,
  input: { pair: LanguagePair; content: string },
): Promise<{ message: string; imported: number }> {
  requireAdmin(user);
  let units;
  try {
    units = readTmx(input.content, input.pair);
  } catch (error) {
    if (error instanceof FormatError) throw new AppError("BAD_REQUEST", error.message);
    throw error;
  }
  const entries = units
    .filter((u) => u.source.trim() !== "" && u.target.trim() !== "")
    .map((u) => ({
      source: u.source.trim(),
      sourceNorm: normalizeForMatch(u.source),
      target: u.target.trim(),
      ...(u.createdAt ? { createdAt: u.createdAt } : {}),
    }));
  if (entries.length === 0) {
    throw new AppError(
      "BAD_REQUEST",
      `The file has no translation units for ${input.pair.source} → ${input.pair.target}.`,
    );
  }
  await deps.db.transaction().execute(async (trx) => {
    await insertMemoryEntries(trx, input.pair, entries, "imported");
    await insertAuditEntry(trx, user.id, "memory.imported", "translation-memory", null, {
      ...input.pair,
      count: entries.length,
    });
  });
  const n = entries.length;
  return { message: `${n} translation memory entr${n === 1 ? "y" : "ies"} imported.`, imported: n };
}

/**
 * Decision 035 (admin): the memory of `pair` as a TMX 1.4b file (at most 1,000,000 entries),
 * named `tafsiri-memory-{source}-{target}.tmx`. Throws FORBIDDEN for staff.
 */
export async function exportMemory(
  deps: AppDeps,
  user: SessionUser,
  pair: LanguagePair,
): Promise<{ fileName: string; contentType: string; content: string; count: number }> {
  requireAdmin(user);
  const rows = await listMemory(deps.db, pair, EXPORT_MAX);
  const content = writeTmx(
    rows.map((r) => ({
      id: r.id,
      source: r.source,
      target: r.target,
      sourceLanguage: pair.source,
      targetLanguage: pair.target,
      createdAt: r.createdAt,
      ...(r.translator ? { creator: r.translator } : {}),
      props: { "x-origin": r.origin, ...(r.audioFilename ? { "x-audio": r.audioFilename } : {}) },
    })),
    pair,
  );
  return {
    fileName: `tafsiri-memory-${pair.source}-${pair.target}.tmx`,
    contentType: "application/x-tmx+xml",
    content,
    count: await countMemory(deps.db, pair),
  };
}
