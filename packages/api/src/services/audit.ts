import type { Executor } from "@tafsiri/db";

/** Appends an audit entry in the caller's transaction. */
export async function recordAudit(
  db: Executor,
  actorId: string | null,
  action: string,
  entity: string,
  entityId: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db.insertInto("auditLog").values({ actorId, action, entity, entityId, detail: JSON.stringify(detail) }).execute();
}
