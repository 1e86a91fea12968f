import type { Kysely } from "kysely";

/**
 * The whole order of the Tasks list (tasks.created_at, id) and the Recommended Recordings list
 * (recommendations.created_at, id), newest first: their pages are read from these indexes (a
 * deferred join), however deep the page. They replace the single-column created_at indexes.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("tasks_created_at_id_idx").on("tasks").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("recommendations_created_at_id_idx")
    .on("recommendations")
    .columns(["created_at", "id"])
    .execute();
  await db.schema.dropIndex("tasks_created_at_idx").ifExists().execute();
  await db.schema.dropIndex("recommendations_created_at_idx").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("tasks_created_at_idx").on("tasks").column("created_at").execute();
  await db.schema.createIndex("recommendations_created_at_idx").on("recommendations").column("created_at").execute();
  await db.schema.dropIndex("recommendations_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("tasks_created_at_id_idx").ifExists().execute();
}
