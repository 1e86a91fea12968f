import { createHash } from "node:crypto";
import { sql } from "kysely";
import type pg from "pg";

/**
 * The comment that ends a statement whose plan does not depend on its parameters' values (see
 * withGenericPlan). Kept in the SQL text, so it is visible in PostgreSQL's logs too.
 */
export const GENERIC_PLAN_MARK = "/* generic plan */";

/**
 * Marks a query to be planned once per connection (decision 017): on PostgreSQL it runs as a
 * named prepared statement with a generic plan (useGenericPlans), so PostgreSQL parses and plans
 * it once per connection instead of on every call (planning a page's joins cost more than running
 * them). Only for queries whose best plan is the same for every parameter value, such as a page
 * of ids picked from an index (`= any(array(…))`) or a read by primary key; a LIKE pattern or a
 * filter whose selectivity depends on its value must stay unmarked. apps/server/test/list-plans
 * checks the generic plans of the marked lists. Returns the same query with GENERIC_PLAN_MARK at
 * its end; PGlite runs it as before.
 */
export function withGenericPlan<Q extends { modifyEnd(modifier: ReturnType<typeof sql.raw>): Q }>(query: Q): Q {
  return query.modifyEnd(sql.raw(GENERIC_PLAN_MARK));
}

/** What a connection's `plan_cache_mode` is known to be: the server's default, generic, or not known. */
type PlanMode = "default" | "generic" | "unknown";

/** Names already made: marked statements are a few dozen texts, run on every list request. */
const statementNames = new Map<string, string>();

/** The prepared statement name of a marked statement: the same text always gets the same name. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tafsiri_${createHash("sha1").update(text).digest("base64url")}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Makes a pooled pg client run statements ending in GENERIC_PLAN_MARK as named prepared
 * statements (statementName) with `plan_cache_mode = force_generic_plan`, and every other
 * statement with parameters under the server's default mode (`reset plan_cache_mode`), so only
 * marked statements get generic plans. The mode is set only when it changes (one `set`/`reset`
 * sent ahead of the statement on the same connection); statements without parameters plan the
 * same either way and change nothing. A `rollback` (of a transaction or to a savepoint) may undo
 * a `set`, so the mode is not known after one and is set again when it next matters. Call it on
 * the pool's `connect` event.
 */
export function useGenericPlans(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let mode: PlanMode = "default";
  const setMode = (wanted: Exclude<PlanMode, "unknown">) => {
    if (mode === wanted) return;
    mode = wanted;
    const statement = wanted === "generic" ? "set plan_cache_mode = force_generic_plan" : "reset plan_cache_mode";
    // Queued ahead of the statement on this connection; if it fails (in an aborted transaction),
    // that statement fails too, and the mode is set again next time.
    (query(statement) as Promise<unknown>).catch(() => {
      mode = "unknown";
    });
  };
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== "string" || !Array.isArray(values)) return query(...args);
    if (text.endsWith(GENERIC_PLAN_MARK)) {
      setMode("generic");
      return query({ name: statementName(text), text, values }, ...args.slice(2));
    }
    if (values.length > 0) setMode("default");
    else if (/^\s*rollback\b/i.test(text)) mode = "unknown";
    return query(...args);
  }) as typeof client.query;
}
