import { Counter, Gauge } from "prom-client";
import { metricsRegistry } from "./registry";

/** Open WebSocket connections of this process (apps/server/src/live/trpc-websocket.ts). Decision 028. */
export const webSocketConnections = new Gauge({
  name: "tafsiri_websocket_connections",
  help: "WebSocket connections open on this process, signed in or not yet.",
  registers: [metricsRegistry],
});

/** Subscriptions running on this process's WebSocket connections. Decision 028. */
export const liveSubscriptions = new Gauge({
  name: "tafsiri_live_subscriptions",
  help: "tRPC subscriptions (events.onEvent) running on this process's WebSocket connections.",
  registers: [metricsRegistry],
});

/** Committed live events this process's event bus read (packages/api/src/live/bus.ts). Decision 028. */
export const liveEventsPublished = new Counter({
  name: "tafsiri_live_events_published_total",
  help: "Live events the event bus of this process read after they committed (each event once per process, whichever process wrote it).",
  registers: [metricsRegistry],
});

/** Events handed by this process's bus to its subscribers, one per event and subscriber. Decision 028. */
export const liveEventsDelivered = new Counter({
  name: "tafsiri_live_events_delivered_total",
  help: "Live events handed to subscriptions on this process: one per event and subscription it reaches.",
  registers: [metricsRegistry],
});
