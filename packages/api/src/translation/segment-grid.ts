import { randomUUID } from "node:crypto";
import {
  blockingFindings,
  checkSegments,
  formatTranscript,
  normalizeForMatch,
  parseTranscript,
  sameSourceText,
  SEGMENT_ID_TWICE,
  SEGMENT_OF_ANOTHER_AUDIO,
  SOURCE_CHANGED,
  TRANSCRIPT_EMPTY,
  TRANSCRIPT_MAX_CHARS,
  TRANSCRIPT_TOO_LONG,
  type SourceSegment,
  type TranslationSegment,
} from "@tafsiri/domain";
import type { Audio, Executor } from "@tafsiri/db";
import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findTranscriptVersion } from "@tafsiri/db/repositories/transcript-versions";
import { listSourceSegments } from "@tafsiri/db/repositories/translation/source-segments";
import {
  idsOfOtherAudios,
  listSegmentReviewMarks,
  listTranslationSegments,
  replaceTranslationSegments,
} from "@tafsiri/db/repositories/translation/translation-segments";
import { findMemoryVariants } from "@tafsiri/db/repositories/translation/translation-memory";
import { listGlossary } from "@tafsiri/db/repositories/translation/glossary";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import type { SegmentGrid } from "../schemas/translation";
import { lockAudioAccess, NOT_ASSIGNED, requireAudioAccess } from "../services/access";
import { saveTranscript, TRANSCRIPT_LOCKED } from "../services/transcripts";
import { languagePairOf, readTranslationSettings } from "./translation-settings";

/** The message when the programme writes no source text and a row has one. */
const SOURCE_NOT_ASKED = "The programme does not ask staff to write the source text: leave it empty.";
/** The most glossary terms a grid carries for marking and checks. */
const GRID_GLOSSARY_MAX = 5_000;

/** The current transcript's text of an audio's task, or null. */
async function currentTranscriptText(db: Executor, taskId: string | null): Promise<string | null> {
  if (!taskId) return null;
  const submission = await findSubmissionByTask(db, taskId);
  if (!submission?.translationScript) return null;
  return (await findTranscriptVersion(db, submission.id, submission.translationScript))?.text ?? null;
}

/**
 * The rows a grid starts from before its first save: the source segments (with the current
 * transcript's lines as their translations when there are as many), or else the current
 * transcript's lines as translations without a source, or else none.
 */
function initialRows(source: readonly SourceSegment[], transcript: string | null): TranslationSegment[] {
  const lines = transcript === null ? [] : parseTranscript(transcript).filter((l) => l.text.trim() !== "");
  if (source.length > 0) {
    const paired = lines.length === source.length;
    return source.map((s, i) => ({
      id: randomUUID(),
      speaker: s.speaker,
      startMs: s.startMs,
      endMs: s.endMs,
      source: s.text,
      target: paired ? lines[i]!.text : "",
      state: paired ? "translated" : "empty",
    }));
  }
  return lines.map((l) => ({
    id: randomUUID(),
    speaker: l.speaker,
    startMs: l.startMs,
    endMs: null,
    source: "",
    target: l.text,
    state: "translated",
  }));
}

/** The memory's other translations of the rows' sources, by normalised source. */
async function variantsOf(db: Executor, audio: Audio, pair: SegmentGrid["pair"], rows: readonly TranslationSegment[]) {
  const norms = rows.map((r) => normalizeForMatch(r.source)).filter((n) => n !== "");
  return Object.fromEntries(await findMemoryVariants(db, pair, norms, audio.id));
}

/** The rows' review marks: the translation the last review saw, and what a rejection asked to fix. */
async function reviewMarksOf(db: Executor, audioId: string) {
  const reviewedTargets: Record<string, string> = {};
  const toFix: Record<string, string> = {};
  for (const mark of await listSegmentReviewMarks(db, audioId)) {
    if (mark.reviewedTarget !== null) reviewedTargets[mark.id] = mark.reviewedTarget;
    if (mark.fixNote !== null) toFix[mark.id] = mark.fixNote;
  }
  return { reviewedTargets, toFix };
}

/**
 * Decision 035: the segment grid of an audio the caller may see (requireAudioAccess): its language
 * pair, settings, transcript status, rows (saved, or initialRows before the first save), the
 * pair's glossary, the memory's other translations of its sources, and the rows' review marks. Throws NOT_FOUND /
 * FORBIDDEN as requireAudioAccess.
 */
export async function getSegmentGrid(deps: AppDeps, user: SessionUser, audioId: string): Promise<SegmentGrid> {
  const { audio, task } = await requireAudioAccess(deps.db, user, audioId);
  const settings = await readTranslationSettings(deps.db);
  const pair = languagePairOf(settings, audio);
  const source = await listSourceSegments(deps.db, audio.id);
  const submission = task ? await findSubmissionByTask(deps.db, task.id) : undefined;
  const saved = await listTranslationSegments(deps.db, audio.id);
  const segments =
    saved.length > 0 ? saved : initialRows(source, await currentTranscriptText(deps.db, task?.id ?? null));
  const status = submission?.translationScriptApprovalStatus ?? "No transcript";
  return {
    pair,
    staffWriteSource: settings.staffWriteSource,
    keepChatMarkers: settings.keepChatMarkers,
    status,
    editable: task !== null && status !== "Approved",
    hasSourceTranscript: source.length > 0,
    segments,
    glossary: await listGlossary(deps.db, pair, GRID_GLOSSARY_MAX),
    memoryVariants: await variantsOf(deps.db, audio, pair, segments),
    ...(await reviewMarksOf(deps.db, audio.id)),
  };
}

/** Refuses rows that break the grid's rules (ids, the source's text); see saveSegmentDraft. */
async function checkRows(
  db: Executor,
  audioId: string,
  rows: readonly TranslationSegment[],
  staffWriteSource: boolean,
): Promise<void> {
  const ids = rows.map((r) => r.id);
  if (new Set(ids).size !== ids.length) throw new AppError("BAD_REQUEST", SEGMENT_ID_TWICE);
  if (await idsOfOtherAudios(db, audioId, ids)) throw new AppError("BAD_REQUEST", SEGMENT_OF_ANOTHER_AUDIO);
  const source = await listSourceSegments(db, audioId);
  if (source.length > 0) {
    if (
      !sameSourceText(
        source.map((s) => ({ source: s.text })),
        rows,
      )
    )
      throw new AppError("BAD_REQUEST", SOURCE_CHANGED);
  } else if (!staffWriteSource && rows.some((r) => r.source.trim() !== "")) {
    throw new AppError("BAD_REQUEST", SOURCE_NOT_ASKED);
  }
}

/**
 * Decision 035: keeps an audio's grid rows as a draft (no transcript version, no notification),
 * under the audio's lock: rows kept by id, in the order given. Throws NOT_FOUND / FORBIDDEN
 * (access), BAD_REQUEST 'This audio is not assigned yet.', SEGMENT_ID_TWICE,
 * SEGMENT_OF_ANOTHER_AUDIO, SOURCE_CHANGED (an uploaded source rewritten rather than split or
 * merged), SOURCE_NOT_ASKED; FORBIDDEN once the transcript is Approved. Returns the sentence said
 * and how many rows changed.
 */
export async function saveSegmentDraft(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; segments: TranslationSegment[] },
): Promise<{ message: string; changed: number }> {
  const settings = await readTranslationSettings(deps.db);
  const changed = await deps.db.transaction().execute(async (trx) => {
    const { task } = await lockAudioAccess(trx, user, input.audioId);
    if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
    const submission = await findSubmissionByTask(trx, task.id);
    if (submission?.translationScriptApprovalStatus === "Approved") throw new AppError("FORBIDDEN", TRANSCRIPT_LOCKED);
    await checkRows(trx, input.audioId, input.segments, settings.staffWriteSource);
    return replaceTranslationSegments(trx, input.audioId, input.segments, user.id);
  });
  return { message: "Draft saved.", changed };
}

/** The transcript file's text of grid rows: one line per row with a translation (SPEC §3 line format). */
function transcriptOfRows(rows: readonly TranslationSegment[]): string {
  return formatTranscript(
    rows
      .filter((r) => r.target.trim() !== "")
      .map((r) => ({ speaker: r.speaker, startMs: r.startMs, text: r.target.trim() })),
  );
}

/**
 * Decision 035, SPEC §4: Submit from the grid. Saves the rows as saveSegmentDraft does, runs the
 * translation checks (checkSegments with the pair's glossary, the memory's variants and the
 * programme's CHAT-marker rule) and refuses with BAD_REQUEST 'N segments must be fixed before
 * submitting. Segment K: …' while any error remains; then saves the transcript file (SPEC §3:
 * one line per translated row) through saveTranscript, which sets it Pending and tells the admins.
 * Throws as saveSegmentDraft and saveTranscript. Returns saveTranscript's answer.
 */
export async function submitSegments(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; segments: TranslationSegment[] },
): Promise<{ status: "Pending"; fileName: string; message: string }> {
  await saveSegmentDraft(deps, user, input);
  const { audio } = await requireAudioAccess(deps.db, user, input.audioId);
  const settings = await readTranslationSettings(deps.db);
  const pair = languagePairOf(settings, audio);
  const variants = await findMemoryVariants(
    deps.db,
    pair,
    input.segments.map((r) => normalizeForMatch(r.source)),
    audio.id,
  );
  const findings = checkSegments(input.segments, {
    glossary: await listGlossary(deps.db, pair, GRID_GLOSSARY_MAX),
    keepChatMarkers: settings.keepChatMarkers,
    memoryVariants: new Map(input.segments.map((r) => [r.id, variants.get(normalizeForMatch(r.source)) ?? []])),
  });
  const errors = blockingFindings(findings);
  if (errors.length > 0) {
    const first = errors[0]!;
    const position = input.segments.findIndex((r) => r.id === first.segmentId) + 1;
    const count = new Set(errors.map((e) => e.segmentId)).size;
    throw new AppError(
      "BAD_REQUEST",
      `${count} segment${count === 1 ? "" : "s"} must be fixed before submitting. Segment ${position}: ${first.message}`,
    );
  }
  const text = transcriptOfRows(input.segments);
  if (text.trim() === "") throw new AppError("BAD_REQUEST", TRANSCRIPT_EMPTY);
  if (text.length > TRANSCRIPT_MAX_CHARS) throw new AppError("BAD_REQUEST", TRANSCRIPT_TOO_LONG);
  return saveTranscript(deps, user, { audioId: input.audioId, text });
}
