import type { ColumnType, Generated } from "kysely";

/**
 * The tables of the webhooks (decision 037, migration 20261211001200_webhooks). Part of `DB`
 * (schema.ts).
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The webhook tables, part of `DB`. */
export interface WebhookTables {
  webhookEndpoints: WebhookEndpointTable;
  webhookEvents: WebhookEventTable;
  webhookDeliveries: WebhookDeliveryTable;
  webhookAttempts: WebhookAttemptTable;
}

/** An endpoint an admin registered: where to send which events, signed with its secret. */
interface WebhookEndpointTable {
  id: Generated<string>;
  url: string;
  description: Generated<string>;
  /** The event types it wants (decision 037's list). */
  eventTypes: string[];
  /** The Standard Webhooks secret, `whsec_` and base64 of 24 random bytes. */
  secret: string;
  enabled: Generated<boolean>;
  /** Why it was turned off when the server did it (deliveries failing for 3 days); null otherwise. */
  disabledReason: string | null;
  /** Since when its deliveries fail without a success in between; null while they succeed. */
  failingSince: Date | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** An event, written in the transaction of the change it announces (the outbox). */
interface WebhookEventTable {
  id: Generated<string>;
  type: string;
  /** The whole body sent, JSON `{ id, type, timestamp, data }`, kept as text so every attempt signs the same bytes. */
  body: string;
  createdAt: CreatedAt;
}

/** One event to one endpoint: pending until delivered, or failed when retries ran out. */
interface WebhookDeliveryTable {
  id: Generated<string>;
  endpointId: string;
  eventId: string;
  status: Generated<"pending" | "delivered" | "failed">;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  firstAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** One attempt of a delivery: its answer (or error), how long it took, when the next one is due. */
interface WebhookAttemptTable {
  id: Generated<string>;
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextRetryAt: Date | null;
  createdAt: CreatedAt;
}
