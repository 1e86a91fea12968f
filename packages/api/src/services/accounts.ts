import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import type { Database, Executor, Role, User } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import type { PublicUser, RegisterInput, SetActiveInput, StaffMember } from "../schemas/accounts";
import { hashPassword, signToken, verifyPassword } from "./auth";
import { passwordStrength, WEAK_PASSWORD_DESCRIPTION, WEAK_PASSWORD_MESSAGE } from "./password-rules";
import { recordAudit } from "./audit";
import { requireAdmin } from "./access";
import { publishAfter, recordEvent } from "./events";

export const INVALID_LOGIN = "Invalid email or password.";
export const DEACTIVATED_LOGIN = "Your account has been deactivated. Contact an administrator.";
export const USER_NOT_FOUND = "User not found.";
export const CANNOT_DEACTIVATE_SELF = "You cannot deactivate your own account.";

export function toPublicUser(u: Pick<User, "id" | "username" | "email" | "role" | "active" | "image">): PublicUser {
  return { id: u.id, username: u.username, email: u.email, role: u.role, active: u.active, image: u.image };
}

/**
 * SPEC §2.4, §7.1 POST /auth/login: checks email and password.
 * Returns the session token and public user. Throws UNAUTHORIZED with the same message for an
 * unknown email or a wrong password, FORBIDDEN for a deactivated account.
 */
export async function login(db: Database, secret: Uint8Array, email: string, password: string) {
  const user = await db.selectFrom("users").selectAll().where(({ fn }) => fn("lower", ["email"]), "=", email.trim().toLowerCase()).executeTakeFirst();
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_LOGIN });
  }
  if (!user.active) throw new TRPCError({ code: "FORBIDDEN", message: DEACTIVATED_LOGIN });
  return { token: await signToken(secret, user), user: toPublicUser(user) };
}

/** Throws BAD_REQUEST 'Password is weak' (with the §5 description) unless the password is Strong. */
export function assertStrongPassword(password: string): void {
  if (passwordStrength(password) !== "Strong") {
    throw new TRPCError({ code: "BAD_REQUEST", message: `${WEAK_PASSWORD_MESSAGE}. ${WEAK_PASSWORD_DESCRIPTION}` });
  }
}

async function assertUnique(db: Executor, username: string, email: string): Promise<void> {
  const clash = await db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()),
        eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
  if (!clash) return;
  const what = clash.email.toLowerCase() === email.toLowerCase() ? "email" : "username";
  throw new TRPCError({ code: "CONFLICT", message: `A user with this ${what} already exists.` });
}

/** Inserts a user with a hashed password; throws CONFLICT on a taken email or username. */
export async function createUser(
  db: Executor,
  input: { username: string; email: string; password: string; role: Role },
): Promise<User> {
  await assertUnique(db, input.username, input.email);
  return db
    .insertInto("users")
    .values({
      username: input.username.trim(),
      email: input.email.trim().toLowerCase(),
      passwordHash: await hashPassword(input.password),
      role: input.role,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * SPEC §2.10, §5, §6, §7.1 POST /auth/register: an admin creates an account, confirming with
 * their own password. Throws UNAUTHORIZED 'Admin password is incorrect.', BAD_REQUEST for a weak
 * password, CONFLICT for a taken email or username. Returns the new public user.
 */
export async function registerUser(db: Database, admin: SessionUser, input: RegisterInput): Promise<PublicUser> {
  const adminRow = await db.selectFrom("users").select("passwordHash").where("id", "=", admin.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(adminRow.passwordHash, input.adminPassword))) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Admin password is incorrect." });
  }
  assertStrongPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const user = await createUser(trx, input);
    await recordAudit(trx, admin.id, "create", "user", user.id, { role: user.role });
    return toPublicUser(user);
  });
}

/** Active staff members, by username (recorder and assignee dropdowns, GET /auth/staff). */
export function listStaff(db: Executor): Promise<StaffMember[]> {
  return db
    .selectFrom("users")
    .select(["id", "username"])
    .where("role", "=", "Staff")
    .where("active", "=", true)
    .orderBy("username")
    .execute();
}

/**
 * Creates the first admin when the database has no user (ARCHITECTURE settings ADMIN_*).
 * With no password given, a strong one is generated and returned so the caller prints it once.
 * Returns null when users already exist.
 */
export async function ensureFirstAdmin(
  db: Database,
  opts: { email: string; username: string; password?: string | undefined },
): Promise<{ email: string; generatedPassword?: string } | null> {
  const existing = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (existing) return null;
  const generated = opts.password ? undefined : `${randomBytes(12).toString("base64url")}aA1!`;
  const password = opts.password ?? generated!;
  await createUser(db, { username: opts.username, email: opts.email, password, role: "Admin" });
  return generated ? { email: opts.email, generatedPassword: generated } : { email: opts.email };
}

/**
 * SPEC §2.10, §7.1 POST /api/update-status (admin): activates or deactivates an account, with an
 * audit entry, in one transaction. Deactivation also records a 'user.deactivated' live event for
 * that user: their open subscriptions end and their WebSockets are closed, and their token is
 * refused from then on (authenticate checks `active`). Throws FORBIDDEN for non-admins,
 * BAD_REQUEST 'You cannot deactivate your own account.', NOT_FOUND 'User not found.'.
 * Returns { ok: true }.
 */
export async function setUserActive(deps: AppDeps, admin: SessionUser, input: SetActiveInput): Promise<{ ok: true }> {
  requireAdmin(admin);
  if (!input.active && input.userId === admin.id) throw new TRPCError({ code: "BAD_REQUEST", message: CANNOT_DEACTIVATE_SELF });
  const change = deps.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable("users").set({ active: input.active }).where("id", "=", input.userId).returning("id").executeTakeFirst();
    if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
    await recordAudit(trx, admin.id, input.active ? "activate" : "deactivate", "user", input.userId);
    if (!input.active) await recordEvent(trx, { audience: "user", recipientId: input.userId, kind: "user.deactivated" });
  });
  await publishAfter(deps, change);
  return { ok: true };
}
