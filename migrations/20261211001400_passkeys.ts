import { sql, type Kysely } from "kysely";

/**
 * Decision 038, passkeys (WebAuthn through @simplewebauthn/server).
 * - `passkeys`: each credential a person registered: its id (base64url, unique across accounts),
 *   its COSE public key, the signature counter it last reported, its transports, whether it is a
 *   single- or multi-device credential and backed up, the name its owner gave it, when it was made
 *   and when it was last used.
 * - `webauthn_challenges`: the challenge of each ceremony begun (registration, sign-in or a
 *   confirmation of who the person is), with its user (null for sign-in, which names nobody), and
 *   its expiry (5 minutes). Verifying deletes it in the same transaction, so it is used once;
 *   expired rows are deleted whenever a new challenge is made.
 * Only new tables: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table passkeys (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      credential_id text not null unique,
      public_key bytea not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
      backed_up boolean not null default false,
      name text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index passkeys_user_idx on passkeys (user_id, created_at)`.execute(db);
  await sql`
    create table webauthn_challenges (
      challenge text primary key,
      user_id uuid references users(id) on delete cascade,
      purpose text not null check (purpose in ('register', 'sign-in', 'confirm')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webauthn_challenges_user_idx on webauthn_challenges (user_id)`.execute(db);
  await sql`create index webauthn_challenges_expires_idx on webauthn_challenges (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webauthn_challenges`.execute(db);
  await sql`drop table if exists passkeys`.execute(db);
}
