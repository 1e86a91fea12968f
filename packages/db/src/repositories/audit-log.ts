import type { Executor } from "../connection";

/**
 * Appends an audit entry (who did `action` to which `entity`, with `detail` stored as JSON) in
 * the caller's transaction. Returns nothing; throws what the insert throws.
 */
export async function insertAuditEntry(
  db: Executor,
  actorId: string | null,
  action: string,
  entity: string,
  entityId: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({ actorId, action, entity, entityId, detail: JSON.stringify(detail) })
    .execute();
}
