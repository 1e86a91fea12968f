import { adminProcedure, router, sensitiveAdminProcedure } from "../trpc";
import { REAUTH_STATUS } from "../services/identity-checks";
import {
  ZCreateWebhookInput,
  ZRedeliverInput,
  ZUpdateWebhookInput,
  ZWebhookCreated,
  ZWebhookDeliveriesInput,
  ZWebhookDeliveryPage,
  ZWebhookEndpoints,
  ZWebhookIdInput,
  ZWebhookMessage,
  ZWebhookSaved,
  ZWebhookTestSent,
} from "../schemas/webhooks";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  redeliver,
  sendTestWebhook,
  updateWebhook,
  webhookDeliveries,
} from "../services/webhooks";

const WEBHOOKS = ["Webhooks"];
const ADMIN_ONLY = "401 without a session, 403 for staff.";
const DECISION = 'ARCHITECTURE "REST API", decision 037 (webhooks).';

/** Decision 037: signed webhooks, managed by admins (FORBIDDEN otherwise). */
export const webhooksRouter = router({
  /** → `{ endpoints }`, newest first, never their secrets. */
  list: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/webhooks",
        summary: "List webhook endpoints",
        description: `${DECISION} Every endpoint, newest first, without its secret. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .output(ZWebhookEndpoints)
    .query(({ ctx }) => listWebhooks(ctx, ctx.user)),
  /** `{ url, eventTypes, description }` → `{ message, endpoint, secret }`: the secret shown this once. */
  create: sensitiveAdminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/webhooks",
        summary: "Register a webhook endpoint",
        description:
          `${DECISION} Registers an endpoint for the event types given and answers its Standard Webhooks ` +
          "secret this once. 400 for a URL that is not http(s), no event type, or a host that cannot be resolved " +
          `or resolves to a private, loopback or link-local address (unless listed in WEBHOOK_ALLOWED_HOSTS). ${ADMIN_ONLY} ` +
          REAUTH_STATUS,
        tags: WEBHOOKS,
        status: 201,
      },
    })
    .input(ZCreateWebhookInput)
    .output(ZWebhookCreated)
    .mutation(({ ctx, input }) => createWebhook(ctx, ctx.user, input)),
  /** `{ endpointId, url?, eventTypes?, description?, enabled? }` → `{ message, endpoint }`. NOT_FOUND 'Webhook not found.'. */
  update: adminProcedure
    .meta({
      rest: {
        method: "PUT",
        path: "/api/webhooks/:id",
        params: { id: "endpointId" },
        summary: "Change, enable or disable a webhook endpoint",
        description:
          `${DECISION} Changes the URL (checked again), event types, description, or enables or disables it ` +
          `(enabling clears why the server disabled it). 400 as for registering or 'Unknown id.', 404 'Webhook not found.'. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .input(ZUpdateWebhookInput)
    .output(ZWebhookSaved)
    .mutation(({ ctx, input }) => updateWebhook(ctx, ctx.user, input)),
  /** `{ endpointId }` → `{ message }`: deleted with its delivery log. NOT_FOUND 'Webhook not found.'. */
  remove: adminProcedure
    .meta({
      rest: {
        method: "DELETE",
        path: "/api/webhooks/:id",
        params: { id: "endpointId" },
        summary: "Delete a webhook endpoint",
        description: `${DECISION} Deletes the endpoint and its delivery log. 400 'Unknown id.', 404 'Webhook not found.'. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .input(ZWebhookIdInput)
    .output(ZWebhookMessage)
    .mutation(({ ctx, input }) => deleteWebhook(ctx, ctx.user, input.endpointId)),
  /** `{ endpointId, page, limit }` → `{ deliveries, total }`, newest first. NOT_FOUND 'Webhook not found.'. */
  deliveries: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/webhooks/:id/deliveries",
        params: { id: "endpointId" },
        summary: "An endpoint's delivery log",
        description:
          `${DECISION} A page of the endpoint's deliveries, newest first: the event, its attempts, the last ` +
          `status code, error and duration (ms), and the next retry while pending. 400 for a bad id or page, 404 'Webhook not found.'. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .input(ZWebhookDeliveriesInput)
    .output(ZWebhookDeliveryPage)
    .query(({ ctx, input }) => webhookDeliveries(ctx, ctx.user, input)),
  /** `{ endpointId, deliveryId }` → `{ message }`: sent again now. NOT_FOUND 'Delivery not found.'. */
  redeliver: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/webhooks/:id/deliveries/:deliveryId/redeliver",
        params: { id: "endpointId", deliveryId: "deliveryId" },
        summary: "Redeliver a webhook event",
        description:
          `${DECISION} Sends the delivery's event again now (same id and body, a new signature), with a new ` +
          `retry window. 400 'Unknown id.', 404 'Delivery not found.'. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .input(ZRedeliverInput)
    .output(ZWebhookMessage)
    .mutation(({ ctx, input }) => redeliver(ctx, ctx.user, input)),
  /** `{ endpointId }` → `{ message, eventId }`: a `webhook.test` event to this endpoint only. */
  sendTest: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/webhooks/:id/test",
        params: { id: "endpointId" },
        summary: "Send a test event",
        description:
          `${DECISION} Sends a \`webhook.test\` event to this endpoint only. 400 'This webhook is disabled: ` +
          `enable it first.' or 'Unknown id.', 404 'Webhook not found.'. ${ADMIN_ONLY}`,
        tags: WEBHOOKS,
      },
    })
    .input(ZWebhookIdInput)
    .output(ZWebhookTestSent)
    .mutation(({ ctx, input }) => sendTestWebhook(ctx, ctx.user, input.endpointId)),
});
