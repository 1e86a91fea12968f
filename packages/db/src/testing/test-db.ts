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
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
