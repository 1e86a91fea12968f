import { sql, type Kysely } from "kysely";

/**
 * A staff member's task list in its whole order (SPEC §2.8, decision 010): tasks (assigned_to,
 * created_at, id), so a deep page is an index-only walk in list order. tasks_assigned_to_idx
 * (assigned_to, created_at) lacked the id: every page sorted its ties and read each skipped task's
 * row (at 1,000,000 audios a staff member's middle page answered 191 requests a second, p99 792 ms).
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index tasks_assigned_to_created_at_id_idx on tasks (assigned_to, created_at, id)`.execute(db);
  await sql`drop index if exists tasks_assigned_to_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists tasks_assigned_to_idx on tasks (assigned_to, created_at)`.execute(db);
  await sql`drop index if exists tasks_assigned_to_created_at_id_idx`.execute(db);
}
