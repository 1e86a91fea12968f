import { sql, type Kysely } from "kysely";

/**
 * The participants list in its whole order (decision 024, lower(code) then id; decision 010: an
 * index behind each list's order and filter). participants_code_idx and the group / consent
 * indexes are text_pattern_ops, which serve the code-prefix search but not an ORDER BY in the
 * database's collation, so every page read and sorted all participants (a top-N sort over 10,000
 * rows at 100,000 audios, 1–2.5 s a page under load at a million). These walk the order itself;
 * `include (code)` lets the page's ids come from an index-only scan (PostgreSQL needs the column
 * an indexed expression is computed from). Plain `create index if not exists`: participants are a
 * table of an office's use (build them by hand with `concurrently` first on a very large one,
 * migrations/README.md). Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists participants_list_order_idx on participants (lower(code), id) include (code)`.execute(
    db,
  );
  await sql`create index if not exists participants_group_order_idx on participants (study_group, lower(code), id) include (code)`.execute(
    db,
  );
  await sql`create index if not exists participants_consent_order_idx on participants (consent_status, lower(code), id) include (code)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists participants_consent_order_idx`.execute(db);
  await sql`drop index if exists participants_group_order_idx`.execute(db);
  await sql`drop index if exists participants_list_order_idx`.execute(db);
}
