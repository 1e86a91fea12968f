import { sql, type Kysely } from "kysely";

/**
 * Decision 038, sessions as rows: each sign-in writes one (its user, the session version it began
 * under, how it signed in, when the person last proved who they are, address, user agent, when it
 * was last renewed and when it expires, and its sign-out). The Profile's sessions list reads the
 * rows of the user's current version. Tokens are still checked without it (decision 012).
 * Only a new table: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      session_version integer not null,
      method text not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      verified_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ended_at timestamptz
    )`.execute(db);
  await sql`create index sessions_user_idx on sessions (user_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sessions`.execute(db);
}
