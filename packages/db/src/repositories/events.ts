import { sql } from "kysely";
import type { Executor } from "../connection";
import type { EventAudience } from "../schema";

/** Advisory lock key that orders event writers: ids commit in id order (see lockEventOrder). */
const EVENT_ORDER_LOCK = 7_240_311;
/** The PostgreSQL NOTIFY channel that tells every process new events have committed. */
export const EVENT_CHANNEL = "tafsiri_events";

/** An event to write (ids and times come from the database). */
export interface NewEventRow {
  audience: EventAudience;
  recipientId: string | null;
  audioId: string | null;
  kind: string;
  payload: Record<string, unknown>;
}

/** A stored event as readers see it, with whether its audio still exists. */
export interface EventRow {
  /** bigserial as a decimal string. */
  id: string;
  audience: EventAudience;
  recipientId: string | null;
  audioId: string | null;
  kind: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  audioAvailable: boolean;
}

/**
 * Takes the transaction-scoped event lock and queues a NOTIFY on EVENT_CHANNEL (sent at commit,
 * dropped on rollback). Every event writer takes this lock before its insert, so event ids are
 * assigned and committed in the same order: a reader that has seen id N never later finds a
 * committed id below N. Re-entrant within one transaction.
 */
export async function lockEventOrder(trx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(EVENT_ORDER_LOCK)}), pg_notify(${sql.lit(EVENT_CHANNEL)}, '')`.execute(
    trx,
  );
}

/**
 * Inserts events (after lockEventOrder) in one statement, in the given order. Their created_at
 * (a live event's `at`) is clock_timestamp(), the moment of the insert: just before the commit
 * for events recorded last in their transaction (as recordAudioEvent is), where now() would be
 * the transaction's start; taken under the event lock, it never decreases as ids increase.
 */
export async function insertEvents(trx: Executor, rows: NewEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto("events")
    .values(rows.map((r) => ({ ...r, payload: JSON.stringify(r.payload), createdAt: sql<Date>`clock_timestamp()` })))
    .execute();
}

function baseQuery(db: Executor) {
  return db
    .selectFrom("events")
    .leftJoin("audios", "audios.id", "events.audioId")
    .select([
      sql<string>`events.id::text`.as("id"),
      "events.audience",
      "events.recipientId",
      "events.audioId",
      "events.kind",
      "events.payload",
      "events.createdAt",
      "audios.id as existingAudioId",
    ]);
}

type RawEventRow = Awaited<ReturnType<ReturnType<typeof baseQuery>["execute"]>>[number];

function toEventRow({ existingAudioId, payload, ...row }: RawEventRow): EventRow {
  return { ...row, payload: (payload ?? {}) as Record<string, unknown>, audioAvailable: existingAudioId !== null };
}

/** Up to `limit` events with id > `afterId`, every audience, by id (the event bus's one query). */
export async function readEventsAfter(db: Executor, afterId: string, limit: number): Promise<EventRow[]> {
  const rows = await baseQuery(db).where("events.id", ">", afterId).orderBy("events.id").limit(limit).execute();
  return rows.map(toEventRow);
}

/**
 * Up to `limit` events with id > `afterId` that reach one user: those addressed to them, and
 * the 'admins' ones when `isAdmin` (indexes events_recipient_idx, events_audience_idx), by id.
 */
export async function readUserEventsAfter(
  db: Executor,
  q: { afterId: string; userId: string; isAdmin: boolean; limit: number },
): Promise<EventRow[]> {
  const rows = await baseQuery(db)
    .where("events.id", ">", q.afterId)
    .where((eb) =>
      q.isAdmin
        ? eb.or([eb("events.recipientId", "=", q.userId), eb("events.audience", "=", "admins")])
        : eb("events.recipientId", "=", q.userId),
    )
    .orderBy("events.id")
    .limit(q.limit)
    .execute();
  return rows.map(toEventRow);
}

/** Deletes the events created before `cutoff` (index events_created_at_idx); returns how many. */
export async function deleteEventsCreatedBefore(db: Executor, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom("events").where("createdAt", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The highest event id so far ("0" when there is none). */
export async function latestEventId(db: Executor): Promise<string> {
  const row = await db
    .selectFrom("events")
    .select(sql<string>`coalesce(max(id), 0)::text`.as("id"))
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The staff who may open an audio: its assignee and everyone it is recommended to (distinct). */
export async function audioStaffIds(db: Executor, audioId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("tasks")
    .select("tasks.assignedTo as userId")
    .where("tasks.audioId", "=", audioId)
    .union(
      db
        .selectFrom("recommendations")
        .innerJoin("tasks", "tasks.id", "recommendations.taskId")
        .select("recommendations.recommendedTo as userId")
        .where("tasks.audioId", "=", audioId),
    )
    .execute();
  return rows.map((r) => r.userId);
}
