import { sql, type Kysely } from "kysely";

/**
 * Decision 037, webhooks: the endpoints admins register (URL, wanted event types, the Standard
 * Webhooks secret, enabled, since when its deliveries fail), the events written in the transaction
 * of the change they announce (an outbox: type, payload), one delivery per endpoint and event
 * (pending until delivered or given up, its next attempt) and the log of every attempt (status
 * code, duration, error, next retry). Only new tables: the previous version runs on the result
 * unchanged. Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id uuid primary key default gen_random_uuid(),
      url text not null,
      description text not null default '',
      event_types text[] not null,
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      failing_since timestamptz,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_created_idx on webhook_endpoints (created_at desc, id)`.execute(db);
  await sql`create index webhook_endpoints_created_by_idx on webhook_endpoints (created_by)`.execute(db);
  await sql`
    create table webhook_events (
      id uuid primary key default gen_random_uuid(),
      type text not null,
      body text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_events_created_idx on webhook_events (created_at)`.execute(db);
  await sql`
    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      event_id uuid not null references webhook_events(id) on delete cascade,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      first_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      last_duration_ms integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
    db,
  );
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc, id)`.execute(
    db,
  );
  await sql`create index webhook_deliveries_event_idx on webhook_deliveries (event_id)`.execute(db);
  await sql`
    create table webhook_attempts (
      id uuid primary key default gen_random_uuid(),
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      attempt integer not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      next_retry_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_attempts`.execute(db);
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_events`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
}
