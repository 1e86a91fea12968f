import { sql } from "kysely";
import type { Executor } from "../connection";

/** Resumable (tus) uploads: who started each, and the answer of the request that finished it (decision 020). */

/** A resumable upload as the upload routes read it. */
export interface ResumableUploadRow {
  id: string;
  userId: string;
  kind: string;
  sizeBytes: number;
  createdAt: Date;
  finishingAt: Date | null;
  /** The finishing request's answer (as recordResumableUploadResult stored it); null until known. */
  result: unknown;
}

/** Records a new upload of `userId` (id from the tus server, size in bytes). */
export async function insertResumableUpload(
  db: Executor,
  values: { id: string; userId: string; kind: string; sizeBytes: number },
): Promise<void> {
  await db.insertInto("resumableUploads").values(values).execute();
}

/** The upload `id`, or undefined. */
export async function findResumableUpload(db: Executor, id: string): Promise<ResumableUploadRow | undefined> {
  const row = await db
    .selectFrom("resumableUploads")
    .select(["id", "userId", "kind", "sizeBytes", "createdAt", "finishingAt", "result"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { ...row, sizeBytes: Number(row.sizeBytes) };
}

/**
 * Claims the finishing of upload `id`: true for the one caller that set `finishing_at` (no one
 * had), false when another request finishes it or finished it already.
 */
export async function claimResumableUpload(db: Executor, id: string): Promise<boolean> {
  const row = await db
    .updateTable("resumableUploads")
    .set({ finishingAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("finishingAt", "is", null)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives up a claim without an answer (the file was not taken), so a later request may finish the upload. */
export async function releaseResumableUpload(db: Executor, id: string): Promise<void> {
  await db
    .updateTable("resumableUploads")
    .set({ finishingAt: null })
    .where("id", "=", id)
    .where("result", "is", null)
    .execute();
}

/** Keeps the answer of the request that finished upload `id` (any JSON value). */
export async function recordResumableUploadResult(db: Executor, id: string, result: unknown): Promise<void> {
  await db
    .updateTable("resumableUploads")
    .set({ result: JSON.stringify(result) })
    .where("id", "=", id)
    .execute();
}

/** Forgets upload `id` (cancelled by its owner). */
export async function deleteResumableUpload(db: Executor, id: string): Promise<void> {
  await db.deleteFrom("resumableUploads").where("id", "=", id).execute();
}

/** Ids of at most `limit` uploads started before `olderThan`, oldest first. */
export async function resumableUploadsBefore(db: Executor, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("resumableUploads")
    .select("id")
    .where("createdAt", "<", olderThan)
    .orderBy("createdAt")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Forgets the uploads `ids`. */
export async function deleteResumableUploads(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("resumableUploads").where("id", "in", ids).execute();
}
