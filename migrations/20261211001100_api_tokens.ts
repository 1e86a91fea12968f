import { sql, type Kysely } from "kysely";

/**
 * Decision 036, API tokens: a person's tokens for scripts. Only the SHA-256 of a token is kept
 * (token_hash, unique), with the first characters shown to tell tokens apart (hint), its scope
 * (read or write), its expiry (null: never, admins only), the owner's session version when it was
 * made (a later 'Sign out everywhere', password change or deactivation raises the owner's version
 * and so ends the token), when and from where it was last used, and its revocation.
 * Only a new table: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table api_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      hint text not null,
      scope text not null check (scope in ('read', 'write')),
      session_version integer not null,
      expires_at timestamptz,
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz,
      revoked_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index api_tokens_user_idx on api_tokens (user_id, created_at desc)`.execute(db);
  await sql`create index api_tokens_created_idx on api_tokens (created_at desc, id)`.execute(db);
  await sql`create index api_tokens_revoked_by_idx on api_tokens (revoked_by)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists api_tokens`.execute(db);
}
