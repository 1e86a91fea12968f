import { sql } from "kysely";
import type { Database } from "@tafsiri/db";
import { SEED_DOMAIN } from "./seed-rows";

/** The accounts `npm run seed` made that can sign in, by role, in username order. */
export interface SeededAccounts {
  /** Active staff (`staff001@seed.local` …; every INACTIVE_EVERY-th is inactive and left out). */
  staff: Array<{ id: string; email: string }>;
  /** Active admins: the reviewing admins (`reviewer01@seed.local` …), then `alsoAdmin` when it is an active admin. */
  admins: Array<{ id: string; email: string }>;
}

/**
 * Reads the seeded accounts that can sign in with the seed's shared password from `db`: the
 * active users whose e-mail is @SEED_DOMAIN, plus the admin `alsoAdmin` (e.g. the first admin a
 * temporary database was seeded with, which has the same password) when given. Throws when there
 * is no active seeded staff member or admin.
 */
export async function seededAccounts(db: Database, alsoAdmin?: string): Promise<SeededAccounts> {
  const { rows } = await sql<{ id: string; email: string; role: string }>`
    select id, email, role from users
    where active and (email like ${`%@${SEED_DOMAIN}`} or lower(email) = lower(${alsoAdmin ?? ""}))
    order by role, lower(email) = lower(${alsoAdmin ?? ""}), username`.execute(db);
  const staff = rows.filter((r) => r.role === "Staff").map(({ id, email }) => ({ id, email }));
  const admins = rows.filter((r) => r.role === "Admin").map(({ id, email }) => ({ id, email }));
  if (staff.length === 0 || admins.length === 0)
    throw new Error(`The database has no active seeded staff member or admin (@${SEED_DOMAIN}): seed it first.`);
  return { staff, admins };
}
