import { sql } from "kysely";
import type { Executor } from "../../connection";

/**
 * What a running export's job writes to its row (decision 019): its progress (also its heartbeat),
 * what it will write, and how it ended: done with its zip, or failed.
 */

/**
 * Records a running export's progress (`done` of `total` audios); this is also its heartbeat
 * (`updated_at`, decision 019). Does nothing once the export is no longer running.
 */
export async function setExportProgress(db: Executor, id: string, done: number, total: number): Promise<void> {
  await db
    .updateTable("exports")
    .set({ done, total, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("state", "=", "running")
    .execute();
}

/**
 * Records what the running export will write: `total` audios and the content's hash (its content
 * key, decision 019 "Reuse by content"; null when the selection changed while it was written).
 */
export async function setExportContent(
  db: Executor,
  id: string,
  total: number,
  contentKey: string | null,
): Promise<void> {
  await db
    .updateTable("exports")
    .set({ total, contentKey, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .execute();
}

/**
 * Marks an export done (decision 019): its zip at `fileKey` (`sizeBytes` bytes), downloadable until
 * `expiresAt`, with how many files it copied from the previous export (`reusedFiles`) and whether
 * it offers that export's zip again (`reusedArchive`).
 */
export async function finishExport(
  db: Executor,
  id: string,
  result: { fileKey: string; sizeBytes: number; expiresAt: Date; reusedFiles: number; reusedArchive: boolean },
): Promise<void> {
  await db
    .updateTable("exports")
    .set({
      state: "done",
      done: sql<number>`total`,
      fileKey: result.fileKey,
      sizeBytes: result.sizeBytes,
      reusedFiles: result.reusedFiles,
      reusedArchive: result.reusedArchive,
      expiresAt: result.expiresAt,
      finishedAt: sql<Date>`now()`,
      updatedAt: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .execute();
}

/** Marks a running export failed with `error`, a message for the Export page (decision 019). */
export async function failExport(db: Executor, id: string, error: string): Promise<void> {
  await db
    .updateTable("exports")
    .set({ state: "failed", error, finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("state", "=", "running")
    .execute();
}
