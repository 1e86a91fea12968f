import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * The one Prometheus registry of this process (decision 028). Not prom-client's global
 * default registry, so nothing a library registers there leaks into `/metrics`, and every
 * metric of Tafsiri is defined once, in this folder, against this registry. Several apps
 * built in one process (tests) share it: their counts add up, which is what a scrape of
 * that process should say. When metrics are off nobody reads it; counting into it costs a
 * few additions.
 */
export const metricsRegistry = new Registry();

let processMetricsOn = false;

/**
 * Adds prom-client's default process metrics (CPU, memory, heap, event-loop lag, open
 * handles; names `process_*` and `nodejs_*`) to {@link metricsRegistry}. Takes nothing,
 * returns nothing; safe to call more than once (only the first call registers them).
 * Decision 028.
 */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
