import { Histogram } from "prom-client";
import { metricsRegistry } from "./registry";

/**
 * How long tRPC procedure calls took, by procedure path (a name in the router, so a bounded
 * set), type and outcome ("ok" or the tRPC error code). Counted by a middleware in
 * packages/api/src/trpc.ts for every call, whichever API made it (tRPC over HTTP or WebSocket,
 * or the REST layer's caller). Decision 028.
 */
export const procedureDuration = new Histogram({
  name: "tafsiri_trpc_procedure_duration_seconds",
  help: "tRPC procedure calls by procedure, type (query, mutation, subscription) and outcome (ok or the tRPC error code), in seconds; a subscription counts until its stream starts.",
  labelNames: ["procedure", "type", "outcome"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
