import { sql, type Kysely } from "kysely";

/**
 * A recipient's notifications in their whole order (SPEC §2.3 bell, 'Show older'): notifications
 * (recipient_id, created_at, id), so each page of the bell is a keyset walk of the index from
 * the last entry shown. notifications_recipient_idx (recipient_id, created_at) lacked the id: a
 * page boundary between notifications of the same time had to sort their ties. It also serves
 * 'Mark all as read' (the recipient's rows). Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists notifications_recipient_order_idx on notifications (recipient_id, created_at, id)`.execute(
    db,
  );
  await sql`drop index if exists notifications_recipient_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists notifications_recipient_idx on notifications (recipient_id, created_at)`.execute(
    db,
  );
  await sql`drop index if exists notifications_recipient_order_idx`.execute(db);
}
