import { describe, expect, inject, it } from "vitest";
import { sql } from "kysely";
import pg from "pg";
import { createDb } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";

const template = inject("dbTemplate");

describe.skipIf(template.kind !== "postgres")("createDb on PostgreSQL", () => {
  it("keeps the process and the pool working when the server ends an idle pooled connection", async () => {
    const handle = await createTestDb(template);
    try {
      const pidOf = async () =>
        (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;
      const idle = await pidOf();
      // As pg_terminate_backend, a restart or idle_session_timeout would: the server ends the
      // pooled connection while it is idle, and its error reaches the pool (an unhandled 'error'
      // event there would end the process: vitest reports it as an unhandled error).
      const admin = new pg.Client({ connectionString: handle.url });
      await admin.connect();
      try {
        await admin.query("select pg_terminate_backend($1)", [idle]);
        for (let i = 0; i < 100; i++) {
          const { rowCount } = await admin.query("select 1 from pg_stat_activity where pid = $1", [idle]);
          if (rowCount === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await admin.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await pidOf()).not.toBe(idle);
    } finally {
      await handle.close();
    }
  });

  it("opens no more connections than its pool size (DATABASE_POOL_SIZE)", async () => {
    const handle = await createTestDb(template);
    const small = await createDb({ databaseUrl: handle.url, poolSize: 2 });
    try {
      // Eight queries at once, each holding its connection for a moment: they share two.
      const pids = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(small.db);
          return rows[0]!.pid;
        }),
      );
      expect(new Set(pids).size).toBe(2);
    } finally {
      await small.close();
      await handle.close();
    }
  });
});
