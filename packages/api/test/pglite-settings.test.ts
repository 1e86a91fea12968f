import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { sql } from "kysely";
import { createDb, DEFAULT_PGLITE_SHARED_BUFFERS, type DbHandle } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";

const template = inject("dbTemplate");

/** The value of PostgreSQL setting `name` (SHOW's one column, camelCased by the plugin). */
async function show(handle: DbHandle, name: string): Promise<string | undefined> {
  const { rows } = await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(handle.db);
  return Object.values(rows[0] ?? {})[0];
}

// Memory: PGlite's buffer cache lives in its WebAssembly heap, so its size is
// the embedded server's main memory knob (packages/db/src/connection.ts, docs/performance.md, Memory).
describe.skipIf(template.kind !== "pglite")("PGlite's start settings", () => {
  it("starts with shared_buffers 32MB over the data directory's 128MB, keeping PGlite's own start parameters", async () => {
    // The template's postgresql.conf (written by initdb) says shared_buffers = 128MB; the
    // command line's -c wins.
    const handle = await createTestDb(template);
    try {
      expect(DEFAULT_PGLITE_SHARED_BUFFERS).toBe("32MB");
      expect(await show(handle, "shared_buffers")).toBe("32MB");
      expect(await show(handle, "search_path")).toBe("public");
      expect(await show(handle, "max_parallel_workers_per_gather")).toBe("0");
      expect(await show(handle, "exit_on_error")).toBe("off");
    } finally {
      await handle.close();
    }
  });

  it("takes another shared_buffers from pgliteSharedBuffers (PGLITE_SHARED_BUFFERS)", async () => {
    if (template.kind !== "pglite") return;
    const handle = await createDb({
      pgliteLoadDataDir: new Blob([readFileSync(template.dumpFile)]),
      pgliteSharedBuffers: "16MB",
    });
    try {
      expect(await show(handle, "shared_buffers")).toBe("16MB");
      expect(await show(handle, "search_path")).toBe("public");
    } finally {
      await handle.close();
    }
  });
});
