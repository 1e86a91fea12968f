import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { CamelCasePlugin, Kysely, PostgresDialect, type Transaction } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
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
}

export interface DbHandle {
  db: Database;
  kind: "postgres" | "pglite";
  /** The PGlite instance when embedded (for dumps in tests). */
  pglite?: PGlite;
  close(): Promise<void>;
}

/** PGlite with the extensions our migrations use. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob | File): Promise<PGlite> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  return PGlite.create({ dataDir, loadDataDir, extensions: { pg_trgm } });
}

/**
 * Opens the database: PostgreSQL (pg Pool) when `databaseUrl` is set, PGlite otherwise.
 * Column names are snake_case in SQL and camelCase in TypeScript (CamelCasePlugin).
 */
export async function createDb(config: DbConfig): Promise<DbHandle> {
  const plugins = [new CamelCasePlugin()];
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  const pglite = await openPglite(config.pgliteDir, config.pgliteLoadDataDir);
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
