import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { CamelCasePlugin, Kysely, PostgresDialect, type Transaction } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { useGenericPlans } from "./generic-plans";
import { trackPool } from "./pool-stats";
import type { DB } from "./schema";

export type Database = Kysely<DB>;
/** Anything a repository function can run on: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;
/** An open transaction: what a function that locks rows takes, so a lock outside a transaction does not type-check. */
export type DbTransaction = Transaction<DB>;

export interface DbConfig {
  /** PostgreSQL connection string; unset means the embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files (`DATA_DIR/db`); unset means in memory. */
  pgliteDir?: string | undefined;
  /** A PGlite data directory dump to start from (tests clone a migrated template this way). */
  pgliteLoadDataDir?: Blob | File | undefined;
  /** PGlite's `shared_buffers`, a PostgreSQL size such as `16MB` (PGLITE_SHARED_BUFFERS); unset: DEFAULT_PGLITE_SHARED_BUFFERS. */
  pgliteSharedBuffers?: string | undefined;
  /** Connections the PostgreSQL pool opens at most (DATABASE_POOL_SIZE); unset: DEFAULT_DATABASE_POOL_SIZE. */
  poolSize?: number | undefined;
}

export interface DbHandle {
  db: Database;
  kind: "postgres" | "pglite";
  /** The PGlite instance when embedded (for dumps in tests). */
  pglite?: PGlite;
  close(): Promise<void>;
}

/**
 * PGlite's buffer cache (`shared_buffers`) unless PGLITE_SHARED_BUFFERS says otherwise,
 * instead of the 128MB initdb writes into `postgresql.conf`. PGlite keeps the
 * cache inside its WebAssembly heap, touched at start, which is at least 128 MB (`initialMemory`
 * cannot go below it) and never shrinks: at 128MB the heap grows to 184 MB and the server idles
 * 80 to 120 MB higher than at 32MB, which fits in the floor. A page the cache misses is read from
 * the data directory's files through the operating system's page cache: at 32MB the list
 * benchmark is as fast as at 128MB on 20,000 and 100,000 audios; 16MB saves little more (0 to
 * 35 MB in our runs) and reads pages again on 100,000 audios (lists about 5% slower, 2.5 times
 * the system CPU). Figures: README, Memory.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = "32MB";

/**
 * The start parameters of PGlite: its own (`PGlite.defaultStartParams`: single-user mode, no
 * parallel workers, search_path public, …), which an explicit `startParams` replaces, plus
 * `shared_buffers`. `-c` on the command line wins over `postgresql.conf`, so an existing data
 * directory gets the setting too and nothing is written into it.
 */
function pgliteStartParams(sharedBuffers: string = DEFAULT_PGLITE_SHARED_BUFFERS): string[] {
  return [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`];
}

/** PGlite with the extensions our migrations use, started with pgliteStartParams(sharedBuffers). */
export async function openPglite(dataDir?: string, loadDataDir?: Blob | File, sharedBuffers?: string): Promise<PGlite> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  return PGlite.create({
    dataDir,
    loadDataDir,
    extensions: { pg_trgm },
    startParams: pgliteStartParams(sharedBuffers),
  });
}

/** Connections a server's PostgreSQL pool opens at most unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/**
 * Opens the database: PostgreSQL (pg Pool of at most `poolSize` connections) when `databaseUrl`
 * is set, PGlite otherwise.
 * Column names are snake_case in SQL and camelCase in TypeScript (CamelCasePlugin).
 */
export async function createDb(config: DbConfig): Promise<DbHandle> {
  const plugins = [new CamelCasePlugin()];
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? DEFAULT_DATABASE_POOL_SIZE,
      // No JIT compilation (decision 017): every statement here is a page, a count or a key read of
      // a few milliseconds, and PostgreSQL compiles one whose estimate passes jit_above_cost, which an
      // estimate that grows with a table can do (the Logs page spent 100-340 ms compiling a 1 ms
      // statement at 7.5 million audit entries).
      options: "-c jit=off",
    });
    // An idle pooled connection the server ends (pg_terminate_backend, a restart or failover,
    // idle_session_timeout, a proxy or network cut) is emitted as 'error' on the pool, which
    // without a listener ends the process. The pool has already dropped that client; the next
    // query opens a new connection, and a connection lost mid-query fails that query as usual.
    pool.on("error", () => undefined);
    // Statements marked withGenericPlan are prepared and planned once per connection (decision 017).
    pool.on("connect", useGenericPlans);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins });
    // Its connections are read by the metrics at scrape time (decision 028).
    const untrack = trackPool(pool);
    return {
      db,
      kind: "postgres",
      close: () => {
        untrack();
        return db.destroy();
      },
    };
  }
  const pglite = await openPglite(config.pgliteDir, config.pgliteLoadDataDir, config.pgliteSharedBuffers);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), plugins });
  return {
    db,
    kind: "pglite",
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
