import type { Kysely } from "kysely";

/**
 * The Logs page (SPEC §2.1) reads the audit log newest first (created_at, id), optionally
 * filtered by actor or by action: one index per filter holding the whole order, so a page's ids
 * are read from an index in list order however deep the page (a deferred join, decision 010).
 * (actor_id, created_at, id) replaces audit_log_actor_idx (actor_id, created_at).
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("audit_log_created_at_id_idx").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("audit_log_actor_created_at_id_idx")
    .on("audit_log")
    .columns(["actor_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("audit_log_action_created_at_id_idx")
    .on("audit_log")
    .columns(["action", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("audit_log_actor_idx").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "created_at"]).execute();
  await db.schema.dropIndex("audit_log_action_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("audit_log_actor_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("audit_log_created_at_id_idx").ifExists().execute();
}
