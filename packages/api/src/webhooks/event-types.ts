// Decision 037: the event types live in the domain package, which the web app's form reads too.
export { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from "@tafsiri/domain";
