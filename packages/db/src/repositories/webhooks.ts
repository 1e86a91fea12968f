import { sql } from "kysely";
import type { Executor } from "../connection";
import { GENERIC_PLAN_MARK } from "../generic-plans";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { pageFromNearerEnd } from "./page-ends";

/** An endpoint as admins see it (decision 037): never its secret. */
export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const ENDPOINT_COLUMNS = [
  "id",
  "url",
  "description",
  "eventTypes",
  "enabled",
  "disabledReason",
  "failingSince",
  "createdAt",
  "updatedAt",
] as const;

/** Every endpoint, newest first (an admin registers a handful; no paging). */
export function listWebhookEndpoints(db: Executor): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom("webhookEndpoints")
    .select(ENDPOINT_COLUMNS)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
}

/** Endpoint `id` with its secret, or undefined. */
export function findWebhookEndpoint(
  db: Executor,
  id: string,
): Promise<(WebhookEndpointRow & { secret: string }) | undefined> {
  return db
    .selectFrom("webhookEndpoints")
    .select([...ENDPOINT_COLUMNS, "secret"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Adds an endpoint (enabled) and answers it. */
export function insertWebhookEndpoint(
  db: Executor,
  row: { url: string; description: string; eventTypes: string[]; secret: string; createdBy: string },
): Promise<WebhookEndpointRow> {
  return db.insertInto("webhookEndpoints").values(row).returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
}

/**
 * Changes endpoint `id` (url, description, event types, enabled); enabling clears the reason it
 * was turned off and its failing time. Answers it, or undefined when there is none.
 */
export function updateWebhookEndpoint(
  db: Executor,
  id: string,
  patch: { url?: string; description?: string; eventTypes?: string[]; enabled?: boolean },
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable("webhookEndpoints")
    .set({
      ...patch,
      ...(patch.enabled === true ? { disabledReason: null, failingSince: null } : {}),
      updatedAt: new Date(),
    })
    .where("id", "=", id)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/** Deletes endpoint `id` with its deliveries and their attempts; true when there was one. */
export async function deleteWebhookEndpoint(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom("webhookEndpoints").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The enabled endpoints wanting events of `type` (or only `onlyEndpointId`, when given and enabled). */
export async function endpointsWanting(db: Executor, type: string, onlyEndpointId?: string): Promise<string[]> {
  let query = db.selectFrom("webhookEndpoints").select("id").where("enabled", "=", true);
  query = onlyEndpointId
    ? query.where("id", "=", onlyEndpointId)
    : query.where(sql<boolean>`${type} = any(event_types)`);
  const rows = await query.execute();
  return rows.map((r) => r.id);
}

/** Writes event `id` (its whole JSON body) and one pending delivery of it per endpoint, due now. */
export async function insertWebhookEvent(
  db: Executor,
  event: { id: string; type: string; body: string; createdAt: Date },
  endpointIds: string[],
): Promise<void> {
  await db.insertInto("webhookEvents").values(event).execute();
  await db
    .insertInto("webhookDeliveries")
    .values(endpointIds.map((endpointId) => ({ endpointId, eventId: event.id, nextAttemptAt: event.createdAt })))
    .execute();
}

/** A delivery due now, with what sending it needs. */
export interface DueWebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  firstAttemptAt: Date | null;
  url: string;
  secret: string;
  failingSince: Date | null;
  body: string;
  createdAt: Date;
}

/**
 * Up to `limit` pending deliveries of enabled endpoints whose next attempt is due, oldest due
 * first (the partial index webhook_deliveries_due_idx), leaving out the deliveries `besides` (in
 * flight) and the endpoints `endpointsBesides` (those with as many in flight as they may have).
 */
export function dueWebhookDeliveries(
  db: Executor,
  limit: number,
  leaveOut: { besides: string[]; endpointsBesides: string[] } = { besides: [], endpointsBesides: [] },
): Promise<DueWebhookDelivery[]> {
  let query = db
    .selectFrom("webhookDeliveries as d")
    .innerJoin("webhookEndpoints as e", "e.id", "d.endpointId")
    .innerJoin("webhookEvents as v", "v.id", "d.eventId")
    .select([
      "d.id",
      "d.endpointId",
      "d.eventId",
      "d.attempts",
      "d.firstAttemptAt",
      "e.url",
      "e.secret",
      "e.failingSince",
      "v.body",
      "v.createdAt",
    ])
    .where("d.status", "=", "pending")
    .where("d.nextAttemptAt", "<=", new Date())
    .where("e.enabled", "=", true);
  if (leaveOut.besides.length > 0) query = query.where("d.id", "not in", leaveOut.besides);
  if (leaveOut.endpointsBesides.length > 0) query = query.where("d.endpointId", "not in", leaveOut.endpointsBesides);
  return query.orderBy("d.nextAttemptAt").limit(limit).execute();
}

/** What one attempt came to (its status code, or the error that kept it from an answer). */
export interface WebhookAttemptOutcome {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  firstAttemptAt: Date;
  /** pending (with nextRetryAt), delivered, or failed (no retry left). */
  status: "pending" | "delivered" | "failed";
  nextRetryAt: Date | null;
}

/**
 * Decision 037: logs a round's attempts and moves their deliveries on (status, attempts, next
 * attempt, last answer), and clears the failing time of the endpoints `succeeded` (their last
 * attempt of the round succeeded; written only where it was set), in one statement whatever their
 * number (so atomic without a transaction): the insert of every attempt and the update of every
 * delivery read the same rows, sent as JSON so both drivers send one parameter. Takes the outcomes,
 * those endpoints' ids and the time to stamp; returns nothing.
 */
export async function recordWebhookAttempts(
  db: Executor,
  outcomes: WebhookAttemptOutcome[],
  succeeded: string[],
  now: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = JSON.stringify(
    outcomes.map((o) => ({
      id: o.deliveryId,
      status: o.status,
      attempts: o.attempt,
      first_attempt_at: o.firstAttemptAt.toISOString(),
      next_retry_at: o.nextRetryAt?.toISOString() ?? null,
      status_code: o.statusCode,
      error: o.error,
      duration_ms: o.durationMs,
    })),
  );
  await sql`
    with v as (
      select * from json_to_recordset(${rows}::json) as v(id uuid, status text, attempts integer,
        first_attempt_at timestamptz, next_retry_at timestamptz, status_code integer, error text, duration_ms integer)
    ), logged as (
      insert into webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, next_retry_at, created_at)
      select v.id, v.attempts, v.status_code, v.duration_ms, v.error, v.next_retry_at, ${now} from v
    ), cleared as (
      update webhook_endpoints set failing_since = null
      where id in (select (value #>> '{}')::uuid from json_array_elements(${JSON.stringify(succeeded)}::json))
        and failing_since is not null
    )
    update webhook_deliveries d
    set status = v.status, attempts = v.attempts, first_attempt_at = v.first_attempt_at,
        next_attempt_at = coalesce(v.next_retry_at, d.next_attempt_at), last_status_code = v.status_code,
        last_error = v.error, last_duration_ms = v.duration_ms, updated_at = ${now}
    from v
    where d.id = v.id`.execute(db);
}

/**
 * Decision 037, after a round (recordWebhookAttempts clears the endpoints that succeeded):
 * endpoints `restarted` (a success, then failures) fail since `now`; endpoints `failed` (failures
 * only) fail since `now` unless they already did. Returns them with since when they fail.
 */
export async function setEndpointsFailing(
  db: Executor,
  ids: { restarted: string[]; failed: string[] },
  now: Date,
): Promise<Array<{ id: string; failingSince: Date }>> {
  const failing: Array<{ id: string; failingSince: Date }> = [];
  for (const [list, since] of [
    [ids.restarted, sql<Date>`${now}`],
    [ids.failed, sql<Date>`coalesce(failing_since, ${now})`],
  ] as const) {
    if (list.length === 0) continue;
    const rows = await db
      .updateTable("webhookEndpoints")
      .set({ failingSince: since })
      .where("id", "in", list)
      .returning(["id", "failingSince"])
      .execute();
    for (const r of rows) if (r.failingSince) failing.push({ id: r.id, failingSince: r.failingSince });
  }
  return failing;
}

/** Turns endpoint `id` off with `reason`, if it is on; true when this call turned it off. */
export async function disableWebhookEndpoint(db: Executor, id: string, reason: string): Promise<boolean> {
  const result = await db
    .updateTable("webhookEndpoints")
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where("id", "=", id)
    .where("enabled", "=", true)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One line of an endpoint's delivery log. */
interface WebhookDeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Decision 037: a page of endpoint `endpointId`'s deliveries, newest first, and how many it has, in
 * one statement, or null when there is no such endpoint. The total is the count kept in list_counts
 * (`webhook_deliveries:<endpoint>`, migration 20261211001600; decision 016); the page's ids are
 * read from the nearer end of webhook_deliveries_endpoint_idx (pageFromNearerEnd), so the last
 * page costs what the first does; only the page's rows are then read, with their events, by
 * primary key (`id = any(array(…))`, so the skipped deliveries never join their events). Ties of
 * `created_at` (one transaction's events) go by id ascending, the index's own order (no sort).
 * Takes the endpoint's id and the page (from 1); returns the page's rows (`nextAttemptAt` null
 * unless the delivery is pending) and the total. Planned once per connection (decision 017).
 */
export async function listWebhookDeliveries(
  db: Executor,
  endpointId: string,
  q: { page: number; limit: number },
): Promise<{ deliveries: WebhookDeliveryRow[]; total: number } | null> {
  const total = countOfKey(db, LIST_COUNT_KEYS.webhookDeliveries(endpointId));
  const pageIds = pageFromNearerEnd({
    total,
    walk: (reversed, gate) =>
      db
        .selectFrom("webhookDeliveries")
        .where("webhookDeliveries.endpointId", "=", endpointId)
        .where(gate)
        .select("webhookDeliveries.id")
        .orderBy("webhookDeliveries.createdAt", reversed ? "asc" : "desc")
        .orderBy("webhookDeliveries.id", reversed ? "desc" : "asc"),
    page: q.page,
    limit: q.limit,
  });
  const { rows } = await sql<{ total: string } & { [K in keyof WebhookDeliveryRow]: WebhookDeliveryRow[K] | null }>`
    select c.total, p.*
    from webhook_endpoints e
    cross join (${total}) c
    left join lateral (
      select d.id, d.event_id, v.type as event_type, d.status, d.attempts, d.last_status_code, d.last_error,
             d.last_duration_ms, case when d.status = 'pending' then d.next_attempt_at end as next_attempt_at,
             d.created_at, d.updated_at
      from webhook_deliveries d
      join webhook_events v on v.id = d.event_id
      where d.id = any(array(select pg.id from (${pageIds}) pg))
    ) p on true
    where e.id = ${endpointId}
    order by p.created_at desc, p.id ${sql.raw(GENERIC_PLAN_MARK)}`.execute(db);
  if (rows.length === 0) return null;
  const deliveries = rows.filter((r) => r.id !== null) as unknown as WebhookDeliveryRow[];
  return { deliveries, total: Number(rows[0]?.total ?? 0) };
}

/**
 * Makes delivery `id` of endpoint `endpointId` pending and due now, with a new retry window (its
 * attempts go on counting); true when there is such a delivery.
 */
export async function redeliverWebhook(db: Executor, endpointId: string, id: string): Promise<boolean> {
  const result = await db
    .updateTable("webhookDeliveries")
    .set({ status: "pending", nextAttemptAt: new Date(), firstAttemptAt: null, updatedAt: new Date() })
    .where("id", "=", id)
    .where("endpointId", "=", endpointId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Decision 037: deletes the webhook events made before `before` none of whose deliveries is still
 * pending (a disabled endpoint's waiting ones keep theirs); their deliveries and attempts go with
 * them (on delete cascade). Answers how many events went.
 */
export async function deleteSettledWebhookEventsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("webhookEvents")
    .where("createdAt", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("webhookDeliveries")
            .select("webhookDeliveries.id")
            .whereRef("webhookDeliveries.eventId", "=", "webhookEvents.id")
            .where("webhookDeliveries.status", "=", "pending"),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
