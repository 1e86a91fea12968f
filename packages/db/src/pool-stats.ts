import type pg from "pg";

/** The pg pools createDb opened and has not closed, in this process. */
const openPools = new Set<pg.Pool>();

/**
 * Counts `pool` in {@link databasePoolStats} until the returned function is called (createDb
 * calls it when the database is closed). Decision 028.
 */
export function trackPool(pool: pg.Pool): () => void {
  openPools.add(pool);
  return () => {
    openPools.delete(pool);
  };
}

/** Connections of the PostgreSQL pools of this process, added up. */
export interface DatabasePoolStats {
  /** Connections handed to a query or transaction right now. */
  inUse: number;
  /** Connections open and waiting in the pool. */
  idle: number;
  /** Queries waiting for a connection because the pool is at its size. */
  waiting: number;
  /** The pools' size (DATABASE_POOL_SIZE each). */
  max: number;
}

/**
 * What the open pg pools of this process hold right now (read from the pools, no query), added
 * up; null when there is none (the embedded PGlite has no pool). Decision 028.
 */
export function databasePoolStats(): DatabasePoolStats | null {
  if (openPools.size === 0) return null;
  const stats: DatabasePoolStats = { inUse: 0, idle: 0, waiting: 0, max: 0 };
  for (const pool of openPools) {
    stats.inUse += pool.totalCount - pool.idleCount;
    stats.idle += pool.idleCount;
    stats.waiting += pool.waitingCount;
    stats.max += pool.options.max ?? 0;
  }
  return stats;
}
