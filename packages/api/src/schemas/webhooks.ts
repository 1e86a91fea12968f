import { z } from "zod";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH } from "@tafsiri/domain";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/event-types";
import { ZId } from "./common";

const URL_RULE = "The webhook URL must be an http or https URL, at most 2000 characters.";
const EVENTS_RULE = `Choose at least one event: ${WEBHOOK_EVENT_TYPES.join(", ")}.`;

const ZWebhookUrl = z
  .string({ error: URL_RULE })
  .trim()
  .max(2000, URL_RULE)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), URL_RULE)
  .meta({ examples: ["https://lab.example.org/tafsiri-webhooks"] });
const ZEventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES, { message: EVENTS_RULE })).min(1, EVENTS_RULE);
const ZDescription = z
  .string()
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, `The description is at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`);

/** Decision 037: a new endpoint: its URL, the event types it wants, a description. */
export const ZCreateWebhookInput = z.object({
  url: ZWebhookUrl,
  eventTypes: ZEventTypes,
  description: ZDescription.default(""),
});

/** Decision 037: an endpoint's changes (any of URL, event types, description, enabled). */
export const ZUpdateWebhookInput = z.object({
  endpointId: ZId,
  url: ZWebhookUrl.optional(),
  eventTypes: ZEventTypes.optional(),
  description: ZDescription.optional(),
  enabled: z.boolean().optional(),
});

export const ZWebhookIdInput = z.object({ endpointId: ZId });

/** An endpoint as admins see it (never its secret); times ISO 8601. */
const ZWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZWebhookEndpoints = z.object({ endpoints: z.array(ZWebhookEndpoint) });
export const ZWebhookSaved = z.object({ message: z.string(), endpoint: ZWebhookEndpoint });
/** The new endpoint and its secret (`whsec_…`), shown this once. */
export const ZWebhookCreated = ZWebhookSaved.extend({
  secret: z.string().meta({ examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"] }),
});
export const ZWebhookMessage = z.object({ message: z.string() });

export const ZWebhookDeliveriesInput = z.object({
  endpointId: ZId,
  page: z.number().int().min(1).max(100_000).default(1),
  limit: z.number().int().min(1).max(100).default(20),
});

/** One line of the delivery log: the event, its attempts, the last answer, the next retry (ISO, or null). */
const ZWebhookDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZWebhookDeliveryPage = z.object({ deliveries: z.array(ZWebhookDelivery), total: z.number() });
export const ZRedeliverInput = z.object({ endpointId: ZId, deliveryId: ZId });
export const ZWebhookTestSent = z.object({ message: z.string(), eventId: z.string() });
