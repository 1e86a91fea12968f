import { registerPoolGaugesWhenPooled } from "./pool";
import { metricsRegistry } from "./registry";

/** The Content-Type of {@link scrapeMetrics}'s text: Prometheus's text format 0.0.4. */
export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

/**
 * Every metric of this process in Prometheus's text format (version 0.0.4), as one string of
 * a few kilobytes; gauges read at scrape time (the database pool) are read now. Rejects only if
 * a metric's collect function fails. Decision 028.
 */
export function scrapeMetrics(): Promise<string> {
  registerPoolGaugesWhenPooled();
  return metricsRegistry.metrics();
}
