import { sql } from "kysely";
import type { SessionUser } from "@tafsiri/api";
import { createUser } from "@tafsiri/api/testing/services";

/** The seeded accounts, as the session users the tRPC callers act as. */
export interface BenchUsers {
  /** `bench-admin` (Admin, active). */
  admin: SessionUser;
  /** `bench-staff-1` … `bench-staff-<count>` (Staff), in that order. */
  staff: SessionUser[];
}

/**
 * Creates the admin `bench-admin` (password Bench#2026x) and `staffCount` staff members
 * `bench-staff-<n>` (n = 1 … staffCount, `bench-staff-<n>@example.test`), who share the admin's
 * password hash (hashing one password per staff member would only slow the seed). With
 * `inactiveEvery` k, staff member n is inactive when n is a multiple of k; otherwise all are active.
 */
export async function seedBenchUsers(
  db: Parameters<typeof createUser>[0],
  staffCount: number,
  { inactiveEvery }: { inactiveEvery?: number } = {},
): Promise<BenchUsers> {
  const admin = await createUser(db, {
    username: "bench-admin",
    email: "bench-admin@example.test",
    password: "Bench#2026x",
    role: "Admin",
  });
  const { rows } = await sql<{ id: string; username: string; email: string; active: boolean; n: number }>`
    insert into users (username, email, password_hash, role, active)
    select 'bench-staff-' || g, 'bench-staff-' || g || '@example.test', u.password_hash, 'Staff',
           ${inactiveEvery === undefined ? sql`true` : sql`g % ${inactiveEvery} <> 0`}
    from generate_series(1, ${staffCount}) g, users u where u.id = ${admin.id}
    returning id, username, email, active, substr(username, 13)::int as n`.execute(db);
  const staff = rows
    .sort((a, b) => a.n - b.n)
    .map(({ id, username, email, active }): SessionUser => ({ id, username, email, role: "Staff", active }));
  return { admin: { id: admin.id, username: admin.username, email: admin.email, role: "Admin", active: true }, staff };
}
