import type { Executor } from "../connection";

/** Who took a backup archive: the admin's id and username, or null for the schedule. */
export interface BackupAuthor {
  name: string;
  actorId: string | null;
  username: string | null;
}

/**
 * Decision 027: the audit entries (action `backup`, entity `archive`) of the archives `names`,
 * each with its actor (null: the schedule) and the actor's username. An archive without an entry
 * (written by the CLI, or its entry pruned) is missing from the answer. Throws what the query throws.
 */
export async function backupAuthors(db: Executor, names: readonly string[]): Promise<BackupAuthor[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom("auditLog")
    .leftJoin("users", "users.id", "auditLog.actorId")
    .select(["auditLog.entityId as name", "auditLog.actorId", "users.username"])
    .where("auditLog.entity", "=", "archive")
    .where("auditLog.action", "=", "backup")
    .where("auditLog.entityId", "in", names)
    .execute()
    .then((rows) => rows.map((r) => ({ name: r.name ?? "", actorId: r.actorId, username: r.username ?? null })));
}
