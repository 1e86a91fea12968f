import { CompiledQuery, type Kysely } from "kysely";
import { QueryRecorder } from "@tafsiri/db/testing/query-recorder";

/**
 * Runs `call` once on `db` with a QueryRecorder plugged in, then, for every statement it ran,
 * prints as `-- ` lines the SQL (on one line, whitespace runs collapsed) and its parameters,
 * then the plan EXPLAIN (ANALYZE, BUFFERS) gives on `db` (so each statement runs twice more in
 * all: once recorded, once explained), all indented by two spaces. Resolves when printed.
 */
export async function explainCall<DB>(db: Kysely<DB>, call: (recorded: Kysely<DB>) => Promise<unknown>): Promise<void> {
  const recorder = new QueryRecorder();
  await call(db.withPlugin(recorder));
  for (const query of recorder.executed) {
    console.log(`  -- ${query.sql.replace(/\s+/g, " ").trim()}\n  -- parameters: ${JSON.stringify(query.parameters)}`);
    const plan = await db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]),
    );
    for (const row of plan.rows) console.log(`  ${Object.values(row)[0]}`);
  }
}
