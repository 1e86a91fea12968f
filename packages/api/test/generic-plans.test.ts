import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql, type Kysely } from "kysely";
import type { DB } from "@tafsiri/db";
import { GENERIC_PLAN_MARK, statementName } from "@tafsiri/db/generic-plans";
import { createTestDb } from "@tafsiri/db/testing/test-db";

// Decision 017: statements marked withGenericPlan are prepared once per connection and run
// with a generic plan; every other statement keeps the server's default planning.

const template = inject("dbTemplate");
if (template.kind !== "postgres")
  console.info("generic-plans.test.ts: prepared statements are a PostgreSQL matter; set DATABASE_URL.");

const marked = sql.raw(GENERIC_PLAN_MARK);
/** The plan cache mode a statement ran under, marked or not. */
const modeOf = (db: Kysely<DB>, generic: boolean) =>
  generic
    ? sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode, ${1}::int as one ${marked}`.execute(db)
    : sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode, ${1}::int as one`.execute(db);

describe.skipIf(template.kind !== "postgres")("statements planned once per connection (PostgreSQL)", () => {
  let handle: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    handle = await createTestDb(template);
  });
  afterAll(() => handle?.close());

  it("runs a marked statement as one named prepared statement with a generic plan, reused", async () => {
    const query = sql<{
      username: string;
    }>`select username from users where id = ${"00000000-0000-0000-0000-000000000000"} ${marked}`;
    const text = query.compile(handle.db).sql;
    const statements = await handle.db.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) await query.execute(conn);
      return (
        await sql<{ name: string; genericPlans: string; customPlans: string }>`
          select name, generic_plans, custom_plans from pg_prepared_statements`.execute(conn)
      ).rows;
    });
    expect(statements).toContainEqual({ name: statementName(text), genericPlans: "3", customPlans: "0" });
  });

  it("never compiles a statement with JIT: the server's connections run with jit off", async () => {
    const { rows } = await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(handle.db);
    expect(rows[0]?.jit).toBe("off");
  });

  it("plans every other statement with parameters under the server's default mode", async () => {
    const modes = await handle.db
      .connection()
      .execute(async (conn) => [
        (await modeOf(conn, false)).rows[0]?.mode,
        (await modeOf(conn, true)).rows[0]?.mode,
        (await modeOf(conn, false)).rows[0]?.mode,
        (await modeOf(conn, true)).rows[0]?.mode,
      ]);
    expect(modes).toEqual(["auto", "force_generic_plan", "auto", "force_generic_plan"]);
  });

  it("sets the mode again after a rollback undid it", async () => {
    const modes = await handle.db.connection().execute(async (conn) => {
      await expect(
        conn.transaction().execute(async (trx) => {
          // The switch to generic plans happens inside the transaction, so the rollback undoes it.
          await modeOf(trx, true);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      const afterRollback = (await modeOf(conn, true)).rows[0]?.mode;
      await conn
        .transaction()
        .execute(async (trx) => {
          await modeOf(trx, false);
          throw new Error("roll back");
        })
        .catch(() => undefined);
      return [afterRollback, (await modeOf(conn, false)).rows[0]?.mode];
    });
    expect(modes).toEqual(["force_generic_plan", "auto"]);
  });
});
