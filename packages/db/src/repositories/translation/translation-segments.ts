import type { TranslationSegment } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../../connection";

/** Rows per insert statement (11 parameters a row). */
const CHUNK = 1_000;

/** An audio's segment grid rows in order (decision 035); [] before its first save. */
export async function listTranslationSegments(db: Executor, audioId: string): Promise<TranslationSegment[]> {
  return db
    .selectFrom("translationSegments")
    .select(["id", "speaker", "startMs", "endMs", "source", "target", "state"])
    .where("audioId", "=", audioId)
    .orderBy("position")
    .execute();
}

/**
 * Replaces an audio's grid rows with `segments` in their order, kept by id: a row whose id,
 * text, times and state are unchanged keeps its updated_at and updated_by. Returns how many rows
 * changed (added, edited or removed).
 */
export async function replaceTranslationSegments(
  trx: DbTransaction,
  audioId: string,
  segments: readonly TranslationSegment[],
  userId: string,
): Promise<number> {
  const before = new Map((await listTranslationSegmentsForUpdate(trx, audioId)).map((s) => [s.id, s]));
  const keep = new Set<string>();
  const changed: { segment: TranslationSegment; position: number }[] = [];
  segments.forEach((segment, position) => {
    keep.add(segment.id);
    const old = before.get(segment.id);
    if (!old || old.position !== position || !sameSegment(old, segment)) changed.push({ segment, position });
  });
  const removed = [...before.keys()].filter((id) => !keep.has(id));
  if (removed.length > 0) await trx.deleteFrom("translationSegments").where("id", "in", removed).execute();
  const now = new Date();
  for (let from = 0; from < changed.length; from += CHUNK) {
    await trx
      .insertInto("translationSegments")
      .values(
        changed
          .slice(from, from + CHUNK)
          .map(({ segment, position }) => ({ ...segment, audioId, position, updatedBy: userId, updatedAt: now })),
      )
      .onConflict((oc) =>
        oc
          .column("id")
          .doUpdateSet((eb) => ({
            position: eb.ref("excluded.position"),
            speaker: eb.ref("excluded.speaker"),
            startMs: eb.ref("excluded.startMs"),
            endMs: eb.ref("excluded.endMs"),
            source: eb.ref("excluded.source"),
            target: eb.ref("excluded.target"),
            state: eb.ref("excluded.state"),
            updatedBy: eb.ref("excluded.updatedBy"),
            updatedAt: eb.ref("excluded.updatedAt"),
          }))
          // A row id is a uuid the browser made: one of another audio's rows is left alone.
          .where("translationSegments.audioId", "=", audioId),
      )
      .execute();
  }
  return changed.length + removed.length;
}

async function listTranslationSegmentsForUpdate(trx: DbTransaction, audioId: string) {
  return trx
    .selectFrom("translationSegments")
    .select(["id", "position", "speaker", "startMs", "endMs", "source", "target", "state"])
    .where("audioId", "=", audioId)
    .forUpdate()
    .execute();
}

function sameSegment(a: TranslationSegment, b: TranslationSegment): boolean {
  return (
    a.speaker === b.speaker &&
    a.startMs === b.startMs &&
    a.endMs === b.endMs &&
    a.source === b.source &&
    a.target === b.target &&
    a.state === b.state
  );
}

/** Whether any of `ids` is a grid row of another audio than `audioId`. */
export async function idsOfOtherAudios(db: Executor, audioId: string, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const row = await db
    .selectFrom("translationSegments")
    .select("id")
    .where("id", "in", ids)
    .where("audioId", "<>", audioId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A segment a rejection names, with what to fix ('' without a note). */
export interface SegmentToFix {
  id: string;
  note: string;
}

/**
 * A transcript review of the grid's rows (decision 035): every row's translation is kept as the
 * review saw it, and the rows a rejection names get their note (the others none). Returns the ids
 * of `toFix` that are not rows of the audio.
 */
export async function markSegmentsReviewed(
  trx: DbTransaction,
  audioId: string,
  toFix: readonly SegmentToFix[],
): Promise<string[]> {
  const rows = await trx
    .updateTable("translationSegments")
    .set((eb) => ({ reviewedTarget: eb.ref("target"), fixNote: null }))
    .where("audioId", "=", audioId)
    .returning("id")
    .execute();
  const known = new Set(rows.map((r) => r.id));
  const unknown = toFix.filter((s) => !known.has(s.id)).map((s) => s.id);
  for (const segment of toFix.filter((s) => known.has(s.id))) {
    await trx.updateTable("translationSegments").set({ fixNote: segment.note }).where("id", "=", segment.id).execute();
  }
  return unknown;
}

/** The review marks of an audio's rows: the translation the last review saw and what to fix, by id. */
export function listSegmentReviewMarks(db: Executor, audioId: string) {
  return db
    .selectFrom("translationSegments")
    .select(["id", "reviewedTarget", "fixNote"])
    .where("audioId", "=", audioId)
    .where((eb) => eb.or([eb("reviewedTarget", "is not", null), eb("fixNote", "is not", null)]))
    .execute();
}

/** The audio grid row `segmentId` belongs to, or null for an unknown row. */
export async function findSegmentAudioId(db: Executor, segmentId: string): Promise<string | null> {
  const row = await db
    .selectFrom("translationSegments")
    .select("audioId")
    .where("id", "=", segmentId)
    .executeTakeFirst();
  return row?.audioId ?? null;
}
