import type { Selectable } from "kysely";
import type { SegmentTakeTable } from "../../schema-translation";
import type { DbTransaction, Executor } from "../../connection";

/** A take as stored, with what was measured of it (decision 035, oral translation by segment). */
export type StoredTake = Selectable<SegmentTakeTable>;

/** An audio's takes, in no particular order. */
export function listTakes(db: Executor, audioId: string): Promise<StoredTake[]> {
  return db.selectFrom("segmentTakes").selectAll().where("audioId", "=", audioId).execute();
}

/**
 * Stores a segment's take, replacing the one it had (and clearing a reviewer's request to record
 * it again). Returns the replaced take's file key, if any.
 */
export async function putTake(
  trx: DbTransaction,
  take: Omit<StoredTake, "redoNote" | "createdAt">,
): Promise<string | null> {
  const before = await trx
    .selectFrom("segmentTakes")
    .select("fileKey")
    .where("segmentId", "=", take.segmentId)
    .forUpdate()
    .executeTakeFirst();
  await trx
    .insertInto("segmentTakes")
    .values({ ...take, redoNote: null })
    .onConflict((oc) =>
      oc.column("segmentId").doUpdateSet({
        fileKey: take.fileKey,
        mimeType: take.mimeType,
        sizeBytes: take.sizeBytes,
        durationMs: take.durationMs,
        peakDbfs: take.peakDbfs,
        rmsDbfs: take.rmsDbfs,
        longestSilenceMs: take.longestSilenceMs,
        recordedBy: take.recordedBy,
        redoNote: null,
      }),
    )
    .execute();
  return before?.fileKey ?? null;
}

/** Removes a segment's take; returns its file key, or null when it had none. */
export async function deleteTake(trx: DbTransaction, segmentId: string): Promise<string | null> {
  const removed = await trx
    .deleteFrom("segmentTakes")
    .where("segmentId", "=", segmentId)
    .returning("fileKey")
    .executeTakeFirst();
  return removed?.fileKey ?? null;
}

/** Sets (or, with null, clears) what a reviewer asks to change in the takes of `segmentIds`. */
export async function setRedoNotes(
  trx: DbTransaction,
  audioId: string,
  notes: readonly { segmentId: string; note: string | null }[],
): Promise<void> {
  for (const { segmentId, note } of notes) {
    await trx
      .updateTable("segmentTakes")
      .set({ redoNote: note })
      .where("audioId", "=", audioId)
      .where("segmentId", "=", segmentId)
      .execute();
  }
}
