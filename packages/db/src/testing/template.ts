import type {} from "vitest";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, openPglite } from "../connection";
import { migrateToLatest } from "../migrator";

/** Where test files find the migrated template database. */
export type TemplateInfo =
  { kind: "pglite"; dumpFile: string } | { kind: "postgres"; serverUrl: string; templateName: string };

/** Replaces the database name of a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Migrates a template once per test run: a PGlite data-dir dump in a temp file, or a
 * `tafsiri_template_*` database on the server of `databaseUrl`. Returns how to clone it and a cleanup.
 */
export async function prepareTemplate(
  databaseUrl?: string,
): Promise<{ info: TemplateInfo; cleanup: () => Promise<void> }> {
  if (databaseUrl) {
    const templateName = `tafsiri_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${templateName}`);
    await admin.query(`create database ${templateName}`);
    await admin.end();
    const handle = await createDb({ databaseUrl: withDatabase(databaseUrl, templateName) });
    await migrateToLatest(handle.db);
    await handle.close();
    return {
      info: { kind: "postgres", serverUrl: databaseUrl, templateName },
      cleanup: async () => {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        await c.query(`drop database if exists ${templateName} with (force)`);
        await c.end();
      },
    };
  }
  const pglite = await openPglite();
  const { Kysely, CamelCasePlugin } = await import("kysely");
  const { PGliteDialect } = await import("kysely-pglite-dialect");
  const db = new Kysely<never>({ dialect: new PGliteDialect(pglite), plugins: [new CamelCasePlugin()] });
  await migrateToLatest(db as never);
  const dump = await pglite.dumpDataDir("none");
  await db.destroy();
  const dumpFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-template-")), "template.tar");
  await fs.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  return {
    info: { kind: "pglite", dumpFile },
    cleanup: () => fs.rm(path.dirname(dumpFile), { recursive: true, force: true }),
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TemplateInfo;
  }
}
