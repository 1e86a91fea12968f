import { randomBytes } from "node:crypto";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  updateWebhookEndpoint,
  type WebhookEndpointRow,
} from "@tafsiri/db/repositories/webhooks";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { refusedAddressMessage, refusedAddressOf } from "../webhooks/address-check";
import { WEBHOOK_TEST_EVENT } from "../webhooks/event-types";
import { recordWebhookEvent, webhookMessageId } from "../webhooks/record-webhook-event";
import { requireAdmin } from "./access";

const NOT_FOUND = "Webhook not found.";
const DELIVERY_NOT_FOUND = "Delivery not found.";

/** An endpoint row as the procedures answer it (times ISO 8601). */
function view(row: WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A new Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes (192 bits), the form
 * the `standardwebhooks` package signs and verifies with.
 */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * Decision 037: refuses (BAD_REQUEST) a URL whose host cannot be resolved, or resolves to a
 * private, loopback or link-local address, unless the host is in WEBHOOK_ALLOWED_HOSTS.
 */
async function requireReachableUrl(deps: Pick<AppDeps, "webhooks">, url: string): Promise<void> {
  const { hostname } = new URL(url);
  let refused: string | null;
  try {
    refused = await refusedAddressOf(hostname, deps.webhooks?.allowedHosts ?? []);
  } catch {
    throw new AppError("BAD_REQUEST", `The webhook host ${hostname} cannot be resolved.`);
  }
  if (refused) throw new AppError("BAD_REQUEST", refusedAddressMessage(hostname, refused));
}

/** Decision 037 (admins): every webhook endpoint, newest first, without secrets. FORBIDDEN for others. */
export async function listWebhooks(deps: AppDeps, user: SessionUser) {
  requireAdmin(user);
  return { endpoints: (await listWebhookEndpoints(deps.db)).map(view) };
}

/**
 * Decision 037 (admins): registers an endpoint for `eventTypes` at `url` (checked by
 * requireReachableUrl), with a new secret answered this once, and an audit entry. Throws
 * FORBIDDEN for others, BAD_REQUEST for a refused or unresolvable host. Returns the endpoint,
 * its secret and 'Webhook added. Copy its secret now: it is not shown again.'.
 */
export async function createWebhook(
  deps: AppDeps,
  user: SessionUser,
  input: { url: string; eventTypes: string[]; description: string },
) {
  requireAdmin(user);
  await requireReachableUrl(deps, input.url);
  const secret = newSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await insertWebhookEndpoint(trx, { ...input, secret, createdBy: user.id });
    await insertAuditEntry(trx, user.id, "create", "webhook", created.id, {
      url: input.url,
      eventTypes: input.eventTypes,
    });
    return created;
  });
  return { message: "Webhook added. Copy its secret now: it is not shown again.", endpoint: view(row), secret };
}

/**
 * Decision 037 (admins): changes an endpoint's URL (checked again), event types, description or
 * enabled (enabling clears why it was disabled), with an audit entry. Throws FORBIDDEN, NOT_FOUND
 * 'Webhook not found.', BAD_REQUEST for a refused host. Returns the endpoint and 'Webhook saved.'.
 */
export async function updateWebhook(
  deps: AppDeps,
  user: SessionUser,
  input: { endpointId: string; url?: string; eventTypes?: string[]; description?: string; enabled?: boolean },
) {
  requireAdmin(user);
  if (input.url !== undefined) await requireReachableUrl(deps, input.url);
  const { endpointId, ...patch } = input;
  const row = await deps.db.transaction().execute(async (trx) => {
    const updated = await updateWebhookEndpoint(trx, endpointId, patch);
    if (!updated) throw new AppError("NOT_FOUND", NOT_FOUND);
    await insertAuditEntry(trx, user.id, "update", "webhook", endpointId, patch);
    return updated;
  });
  return { message: "Webhook saved.", endpoint: view(row) };
}

/**
 * Decision 037 (admins): deletes an endpoint with its delivery log, with an audit entry.
 * Throws FORBIDDEN, NOT_FOUND 'Webhook not found.'. Returns 'Webhook deleted.'.
 */
export async function deleteWebhook(deps: AppDeps, user: SessionUser, endpointId: string) {
  requireAdmin(user);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteWebhookEndpoint(trx, endpointId))) throw new AppError("NOT_FOUND", NOT_FOUND);
    await insertAuditEntry(trx, user.id, "delete", "webhook", endpointId, {});
  });
  return { message: "Webhook deleted." };
}

/**
 * Decision 037 (admins): a page of an endpoint's delivery log, newest first, and the total
 * (`limit` rows, page `page` from 1). Throws FORBIDDEN, NOT_FOUND 'Webhook not found.'.
 */
export async function webhookDeliveries(
  deps: AppDeps,
  user: SessionUser,
  input: { endpointId: string; page: number; limit: number },
) {
  requireAdmin(user);
  const page = await listWebhookDeliveries(deps.db, input.endpointId, { page: input.page, limit: input.limit });
  if (!page) throw new AppError("NOT_FOUND", NOT_FOUND);
  const { deliveries, total } = page;
  return {
    total,
    deliveries: deliveries.map((d) => ({
      ...d,
      nextAttemptAt: d.nextAttemptAt ? new Date(d.nextAttemptAt).toISOString() : null,
      createdAt: d.createdAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
    })),
  };
}

/**
 * Decision 037 (admins): sends a delivery again (any status): pending and due now, with a new
 * 24-hour retry window, the same event id and body. Throws FORBIDDEN, NOT_FOUND 'Delivery not
 * found.'. Returns 'The event will be sent again.'.
 */
export async function redeliver(deps: AppDeps, user: SessionUser, input: { endpointId: string; deliveryId: string }) {
  requireAdmin(user);
  if (!(await redeliverWebhook(deps.db, input.endpointId, input.deliveryId))) {
    throw new AppError("NOT_FOUND", DELIVERY_NOT_FOUND);
  }
  deps.webhooks?.wake();
  return { message: "The event will be sent again." };
}

/**
 * Decision 037 (admins): sends a `webhook.test` event to this endpoint only (whatever it wants;
 * it must be enabled). Throws FORBIDDEN, NOT_FOUND 'Webhook not found.', BAD_REQUEST 'This
 * webhook is disabled: enable it first.'. Returns the event's Standard Webhooks id and a message.
 */
export async function sendTestWebhook(deps: AppDeps, user: SessionUser, endpointId: string) {
  requireAdmin(user);
  const endpoint = await findWebhookEndpoint(deps.db, endpointId);
  if (!endpoint) throw new AppError("NOT_FOUND", NOT_FOUND);
  if (!endpoint.enabled) throw new AppError("BAD_REQUEST", "This webhook is disabled: enable it first.");
  const eventId = await deps.db
    .transaction()
    .execute((trx) =>
      recordWebhookEvent(
        trx,
        WEBHOOK_TEST_EVENT,
        { endpointId, sentBy: user.username },
        { onlyEndpointId: endpointId },
      ),
    );
  if (eventId === null) throw new AppError("BAD_REQUEST", "This webhook is disabled: enable it first.");
  deps.webhooks?.wake();
  return { message: "Test event sent.", eventId: webhookMessageId(eventId) };
}
