import { sql, type Kysely } from "kysely";

/**
 * Decision 038, a second factor for accounts without a passkey: TOTP (an authenticator app) and
 * recovery codes.
 * - `totp_factors`: one per user, the base32 secret, confirmed_at (null until one code confirmed
 *   it: an unconfirmed factor asks for nothing at sign-in), and the last time step used (a code of
 *   that step or an earlier one is refused: no replay).
 * - `recovery_codes`: 10 single-use codes per user, only their SHA-256 kept (code_hash, unique),
 *   used_at set when one is used.
 * - `second_factor_failures`: each wrong code, with its account and the caller's address, so 10 in
 *   15 minutes per account or per address lock the codes for 15 minutes.
 * Only new tables: the previous version runs on the result unchanged.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table totp_factors (
      user_id uuid primary key references users(id) on delete cascade,
      secret text not null,
      created_at timestamptz not null default now(),
      confirmed_at timestamptz,
      last_used_step bigint
    )`.execute(db);
  await sql`
    create table recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      code_hash text not null unique,
      created_at timestamptz not null default now(),
      used_at timestamptz
    )`.execute(db);
  await sql`create index recovery_codes_user_idx on recovery_codes (user_id)`.execute(db);
  await sql`
    create table second_factor_failures (
      id uuid primary key default gen_random_uuid(),
      user_id uuid references users(id) on delete cascade,
      ip text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index second_factor_failures_user_idx on second_factor_failures (user_id, created_at)`.execute(db);
  await sql`create index second_factor_failures_ip_idx on second_factor_failures (ip, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists second_factor_failures`.execute(db);
  await sql`drop table if exists recovery_codes`.execute(db);
  await sql`drop table if exists totp_factors`.execute(db);
}
