import { Gauge } from "prom-client";
import { databasePoolStats, type DatabasePoolStats } from "@tafsiri/db/pool-stats";
import { metricsRegistry } from "./registry";

/** A gauge set at scrape time from the pools' figures (`read`); registered once a pool exists. */
function poolGauge(name: string, help: string, read: (stats: DatabasePoolStats) => number): Gauge {
  return new Gauge({
    name,
    help,
    registers: [],
    collect() {
      const stats = databasePoolStats();
      this.set(stats ? read(stats) : 0);
    },
  });
}

const gauges = [
  poolGauge(
    "tafsiri_db_pool_in_use_connections",
    "PostgreSQL pool connections handed to a query or transaction right now.",
    (s) => s.inUse,
  ),
  poolGauge("tafsiri_db_pool_idle_connections", "PostgreSQL pool connections open and idle.", (s) => s.idle),
  poolGauge(
    "tafsiri_db_pool_waiting_queries",
    "Queries waiting for a PostgreSQL pool connection because the pool is full.",
    (s) => s.waiting,
  ),
  poolGauge("tafsiri_db_pool_max_connections", "Size of the PostgreSQL pool (DATABASE_POOL_SIZE).", (s) => s.max),
];

let registered = false;

/**
 * Adds the database pool gauges to the registry the first time a PostgreSQL pool is open
 * (DATABASE_URL), so a server on the embedded PGlite, which has no pool, lists none of them.
 * Takes nothing, returns nothing. Decision 028.
 */
export function registerPoolGaugesWhenPooled(): void {
  if (registered || databasePoolStats() === null) return;
  registered = true;
  for (const gauge of gauges) metricsRegistry.registerMetric(gauge);
}
