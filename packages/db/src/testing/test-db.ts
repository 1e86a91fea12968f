import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, type DbHandle } from "../connection";
import { withDatabase, type TemplateInfo } from "./template";

/**
 * A fresh, migrated database for one test file, cloned from the run's template:
 * PGlite loaded from the dump, or `CREATE DATABASE … TEMPLATE` on PostgreSQL.
 * `close()` also drops the PostgreSQL copy.
 */
export async function createTestDb(info: TemplateInfo): Promise<DbHandle & { url?: string }> {
  if (info.kind === "pglite") {
    return createDb({ pgliteLoadDataDir: new Blob([readFileSync(info.dumpFile)]) });
  }
  const name = `tafsiri_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: info.serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${info.templateName}`);
  await admin.end();
  const url = withDatabase(info.serverUrl, name);
  const handle = await createDb({ databaseUrl: url });
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const c = new pg.Client({ connectionString: info.serverUrl });
      await c.connect();
      try {
        await dropWhenUnused(c, name);
      } finally {
        await c.end();
      }
    },
  };
}

/** PostgreSQL's "object in use": another session is still connected to the database. */
const OBJECT_IN_USE = "55006";

/**
 * Drops database `name` once its own sessions have gone. pg's Pool.end() resolves before its
 * clients have finished closing; dropping WITH (FORCE) at once would terminate such a client
 * mid-close, and its 'error' event (no listener left) would surface as an unhandled error. So:
 * a plain DROP, retried every 50 ms while sessions linger, then FORCE after 5 s (e.g. for a
 * spawned server that never closed its pool).
 */
async function dropWhenUnused(c: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    try {
      await c.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await c.query(`drop database if exists ${name} with (force)`);
}
