import { randomUUID } from "node:crypto";
import type { Executor } from "@tafsiri/db";
import { endpointsWanting, insertWebhookEvent } from "@tafsiri/db/repositories/webhooks";
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from "./event-types";

/**
 * The Standard Webhooks message id of event `eventId` (the `webhook-id` header and the body's
 * `id`): the same on every attempt and redelivery of the event, so receivers can drop repeats.
 */
export function webhookMessageId(eventId: string): string {
  return `msg_${eventId}`;
}

/**
 * Decision 037, the outbox: writes a webhook event in the caller's transaction, so it commits (and
 * is then delivered, even if the process stops right after) exactly when the change it announces
 * does, or rolls back with it. Writes nothing when no enabled endpoint wants `type` (one indexed
 * read of a handful of rows); otherwise the event (its JSON body `{ id, type, timestamp, data }`,
 * `timestamp` ISO 8601, fixed now so every attempt signs the same bytes) and one pending delivery
 * per wanting endpoint, due now. `data` is the thing the event is about, as REST shows it
 * (webhooks/payloads.ts); given as a function, it is read only when some endpoint wants the event.
 * The delivery job sends it (polling every second; `deps.webhooks.wake()` after the commit sends it
 * sooner). `onlyEndpointId` (the test event) writes it for that endpoint only. Returns the event's
 * id, or null when nothing was written.
 */
export async function recordWebhookEvent(
  trx: Executor,
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT,
  data: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
  opts: { onlyEndpointId?: string } = {},
): Promise<string | null> {
  const endpointIds = await endpointsWanting(trx, type, opts.onlyEndpointId);
  if (endpointIds.length === 0) return null;
  const payload = typeof data === "function" ? await data() : data;
  const id = randomUUID();
  const createdAt = new Date();
  const body = JSON.stringify({ id: webhookMessageId(id), type, timestamp: createdAt.toISOString(), data: payload });
  await insertWebhookEvent(trx, { id, type, body, createdAt }, endpointIds);
  return id;
}
