import { sql } from "kysely";
import type { DbTransaction, Executor } from "../../connection";

/**
 * What starting an export checks, in one transaction under one lock (decision 019): whether its
 * choice is running already, how many run (at most three), and which running exports were
 * abandoned by a process that stopped.
 */

/** The advisory lock key of export starts (the other keys in use: job-locks.ts's JOB_LOCK_KEYS). */
const EXPORT_START_LOCK = 7_240_318;

/**
 * Takes the transaction-scoped lock that makes "is this choice running? is there room? then start
 * it" one step: two starts at once (a double click, two admins, two processes) are taken one after
 * the other, so the second joins the export the first started instead of starting its own, and
 * MAX_RUNNING_EXPORTS holds (decision 019: "a second request for a running choice answers the
 * running export"). PGlite runs one transaction at a time; PostgreSQL needs the lock.
 * Held until the transaction ends; returns nothing.
 */
export async function lockExportStarts(trx: DbTransaction): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(EXPORT_START_LOCK)})`.execute(trx);
}

/**
 * The id of the running export of a choice (its `choiceKey`), newest first, or null: a second
 * request for the same choice joins it (decision 019).
 */
export async function runningExportOf(db: Executor, choiceKey: string): Promise<string | null> {
  const row = await db
    .selectFrom("exports")
    .select("id")
    .where("choiceKey", "=", choiceKey)
    .where("state", "=", "running")
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** How many exports are running now (decision 019: at most MAX_RUNNING_EXPORTS run at once). */
export async function countRunningExports(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("exports")
    .select((s) => s.fn.countAll<string>().as("n"))
    .where("state", "=", "running")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks as failed, with `error`, the running exports whose job has not written for `staleMs`
 * milliseconds: their process stopped mid-export (decision 019: the next export started, or the
 * next server start, marks them). Returns how many.
 */
export async function failAbandonedExports(db: Executor, staleMs: number, error: string): Promise<number> {
  const result = await db
    .updateTable("exports")
    .set({ state: "failed", error, finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where("state", "=", "running")
    .where("updatedAt", "<", sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
