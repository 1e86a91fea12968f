/**
 * Decision 037: the webhook event types an endpoint may want. `webhook.test` is sent only by 'Send test
 * event', to the one endpoint asked, whatever it wants.
 */
export const WEBHOOK_EVENT_TYPES = [
  "audio.uploaded",
  "task.assigned",
  "task.reassigned",
  "transcript.submitted",
  "transcript.approved",
  "transcript.rejected",
  "recording.submitted",
  "recording.approved",
  "recording.rejected",
  "comment.added",
  "export.ready",
  "participant.consent_changed",
] as const;

/** One of WEBHOOK_EVENT_TYPES. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event 'Send test event' sends (decision 037). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** A webhook endpoint's description, at most this many characters (decision 037). */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
