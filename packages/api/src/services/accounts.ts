import { randomBytes } from "node:crypto";
import {
  isStrongPassword,
  SECOND_FACTOR_REQUIRED,
  SECOND_FACTOR_REQUIRED_MESSAGE,
  WEAK_PASSWORD_DESCRIPTION,
  WEAK_PASSWORD_MESSAGE,
  type SignInMethod,
} from "@tafsiri/domain";
import type { Database, Executor, Role, User } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  findPasswordHash,
  findUser,
  findUserByEmail,
  findUserClash,
  hasAnyUser,
  insertUser,
  listActiveStaff,
  listUsers,
  lockActiveAdminIds,
  lockFirstAdminCreation,
  setUserActiveFlag,
  updateUserAccount,
} from "@tafsiri/db/repositories/users";
import type { AppDeps, CallSession, SessionUser } from "../context";
import { requireRecentIdentityCheck } from "./identity-checks";
import type {
  EditAccountInput,
  ListAccountsInput,
  PublicUser,
  RegisterInput,
  SetActiveInput,
  StaffMember,
} from "../schemas/accounts";
import { AppError } from "../errors/app-error";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./auth";
import { startSession, type SignInClient } from "./session-start";
import { checkSecondFactorCode, hasTotp } from "./second-factor/totp";
import { requireAdmin } from "./access";
import { publishAfter, recordEvent } from "../live/record";
import { sessionEndedEvent } from "../live/session-events";

const INVALID_LOGIN = "Invalid email or password.";
export const DEACTIVATED_LOGIN = "Your account has been deactivated. Contact an administrator.";
export const USER_NOT_FOUND = "User not found.";
const CANNOT_DEACTIVATE_SELF = "You cannot deactivate your own account.";
const ADMIN_PASSWORD_INCORRECT = "Admin password is incorrect.";
const LAST_ADMIN_DEACTIVATE = "The last active administrator cannot be deactivated.";
const LAST_ADMIN_DEMOTE = "The last active administrator cannot be made Staff.";
const NO_PROFILE_ACCESS = "You may only view your own profile.";

function toPublicUser(u: Pick<User, "id" | "username" | "email" | "role" | "active" | "image">): PublicUser {
  return { id: u.id, username: u.username, email: u.email, role: u.role, active: u.active, image: u.image };
}

/**
 * The signed-in user's own account as the API returns it (to refresh the stored session).
 * Throws AppError NOT_FOUND 'User not found.' when the row is gone.
 */
export async function getOwnAccount(db: Executor, user: SessionUser): Promise<PublicUser> {
  const row = await findUser(db, user.id);
  if (!row) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
  return toPublicUser(row);
}

/**
 * SPEC §2.4, §7.1 POST /auth/login: checks email and password.
 * Returns the session token (carrying the user's session version, valid for SESSION_IDLE_DAYS
 * unless renewed: decision 012; its session written as a row, decision 038) and public user. Throws UNAUTHORIZED with the same message
 * for an unknown email or a wrong password, and UNAUTHORIZED 'Your account has been deactivated.
 * Contact an administrator.' for a deactivated account (only once its password was right): 401, as
 * every other path answers a deactivated account (its session is refused, SPEC §7.3). An unknown
 * email is verified against dummyPasswordHash, so its answer takes as long as a wrong password's
 * and the time tells nobody which emails have accounts. An account with an authenticator app
 * (decision 038) also needs `otp` (secondFactorOfSignIn); its session then signed in with
 * 'password+totp' or 'password+recovery-code'.
 */
export async function login(deps: AppDeps & SignInClient, email: string, password: string, otp?: string) {
  const user = await findUserByEmail(deps.db, email.trim());
  const matches = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !matches) throw new AppError("UNAUTHORIZED", INVALID_LOGIN);
  if (!user.active) throw new AppError("UNAUTHORIZED", DEACTIVATED_LOGIN);
  const method = await secondFactorOfSignIn(deps, user.id, otp);
  const { token } = await startSession(deps, user, method, deps);
  return { token, user: toPublicUser(user) };
}

/**
 * Decision 038, the second step of a password sign-in (its password already right): an account
 * with an authenticator app needs `otp`, its code or a recovery code. Without one it throws
 * UNAUTHORIZED SECOND_FACTOR_REQUIRED_MESSAGE with the reason SECOND_FACTOR_REQUIRED; with one,
 * checkSecondFactorCode's errors (a wrong code 401, locked 429). Answers how the session signed in.
 */
async function secondFactorOfSignIn(
  deps: AppDeps & SignInClient,
  userId: string,
  otp: string | undefined,
): Promise<SignInMethod> {
  if (!(await hasTotp(deps.db, userId))) return "password";
  if (otp === undefined || otp.trim() === "") {
    throw new AppError("UNAUTHORIZED", SECOND_FACTOR_REQUIRED_MESSAGE, { reason: SECOND_FACTOR_REQUIRED });
  }
  const passed = await checkSecondFactorCode(deps, { userId, code: otp, clientIp: deps.clientIp });
  return passed === "totp" ? "password+totp" : "password+recovery-code";
}

/** Throws BAD_REQUEST 'Password is weak' (with the §5 description) unless the password is Strong. */
export function assertStrongPassword(password: string): void {
  if (!isStrongPassword(password)) {
    throw new AppError("BAD_REQUEST", `${WEAK_PASSWORD_MESSAGE}. ${WEAK_PASSWORD_DESCRIPTION}`);
  }
}

async function assertUnique(db: Executor, username: string, email: string, exceptId?: string): Promise<void> {
  const clash = await findUserClash(db, username.trim(), email.trim(), exceptId);
  if (!clash) return;
  const what = clash.email.toLowerCase() === email.trim().toLowerCase() ? "email" : "username";
  throw new AppError("CONFLICT", `A user with this ${what} already exists.`);
}

/** A PostgreSQL unique violation (two concurrent requests taking the same email or username). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}

/** Runs `work`, answering a unique violation as CONFLICT 'A user with this email or username already exists.'. */
async function conflictOnDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "A user with this email or username already exists.");
    throw error;
  }
}

/** Throws UNAUTHORIZED 'Admin password is incorrect.' unless `password` is the admin's own (SPEC §6). */
async function assertAdminPassword(db: Executor, admin: SessionUser, password: string): Promise<void> {
  const adminHash = await findPasswordHash(db, admin.id);
  if (adminHash === undefined || !(await verifyPassword(adminHash, password))) {
    throw new AppError("UNAUTHORIZED", ADMIN_PASSWORD_INCORRECT);
  }
}

/** Inserts a user with a hashed password; throws CONFLICT on a taken email or username. */
export async function createUser(
  db: Executor,
  input: { username: string; email: string; password: string; role: Role },
): Promise<User> {
  await assertUnique(db, input.username, input.email);
  return insertUser(db, {
    username: input.username.trim(),
    email: input.email.trim().toLowerCase(),
    passwordHash: await hashPassword(input.password),
    role: input.role,
  });
}

/**
 * SPEC §2.10, §5, §6, §7.1 POST /auth/register: an admin creates an account, confirming with
 * their own password. Throws UNAUTHORIZED 'Admin password is incorrect.', BAD_REQUEST for a weak
 * password, CONFLICT for a taken email or username, and (decision 038) FORBIDDEN REAUTH_REQUIRED
 * when creating an admin more than 10 minutes after the session's last check. Returns the new
 * public user and the SPEC §8 sentence ('Account for amina has been created successfully').
 */
export async function registerUser(
  db: Database,
  admin: SessionUser,
  input: RegisterInput,
  session?: CallSession | null,
): Promise<PublicUser & { message: string }> {
  requireAdmin(admin);
  if (input.role === "Admin") requireRecentIdentityCheck({ session });
  await assertAdminPassword(db, admin, input.adminPassword);
  assertStrongPassword(input.password);
  return conflictOnDuplicate(() =>
    db.transaction().execute(async (trx) => {
      const user = await createUser(trx, input);
      await insertAuditEntry(trx, admin.id, "create", "user", user.id, { role: user.role });
      return { ...toPublicUser(user), message: `Account for ${user.username} has been created successfully` };
    }),
  );
}

/**
 * SPEC §2.10, §7.1 GET /auth/users (admin): every user, active and inactive, as
 * `{ id, username, email, role, active, image }` (never a hash), by username; `role` and `active`
 * narrow the list (the page's filter menu). Throws FORBIDDEN for non-admins.
 */
export async function listAccounts(db: Executor, admin: SessionUser, filter: ListAccountsInput): Promise<PublicUser[]> {
  requireAdmin(admin);
  return listUsers(db, { role: filter.role, active: filter.active });
}

/**
 * SPEC §7.1 GET /auth/profile/{id}: one user's public fields, for that user or an admin.
 * Throws FORBIDDEN 'You may only view your own profile.' for anyone else, NOT_FOUND 'User not found.'.
 */
export async function getProfile(db: Executor, caller: SessionUser, userId: string): Promise<PublicUser> {
  if (caller.role !== "Admin" && caller.id !== userId) throw new AppError("FORBIDDEN", NO_PROFILE_ACCESS);
  const row = await findUser(db, userId);
  if (!row) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
  return toPublicUser(row);
}

/**
 * SPEC §2.10, §5, §6, §7.1 PUT /auth/editprofile (admin): changes an account's username, email,
 * role and, when a password is given (non-empty), its password, confirmed with the admin's own
 * password; audited ('edit', with the changed field names, never the password). A new password
 * also ends every session of that user (session version; their open sockets close). Throws FORBIDDEN for non-admins,
 * UNAUTHORIZED 'Admin password is incorrect.', BAD_REQUEST 'Password is weak. …', NOT_FOUND
 * 'User not found.', CONFLICT for an email (case-insensitive) or username another user has, and
 * CONFLICT 'The last active administrator cannot be made Staff.', and (decision 038) FORBIDDEN
 * REAUTH_REQUIRED for a role change more than 10 minutes after the session's last check. Returns the updated public user
 * and the SPEC §8 sentence ('Account for amina has been edited successfully').
 */
export async function editUser(
  deps: AppDeps,
  admin: SessionUser,
  input: EditAccountInput,
  session?: CallSession | null,
): Promise<PublicUser & { message: string }> {
  requireAdmin(admin);
  const db = deps.db;
  await assertAdminPassword(db, admin, input.adminPassword);
  const password = input.password ? input.password : undefined;
  if (password !== undefined) assertStrongPassword(password);
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  const edit = conflictOnDuplicate(() =>
    db.transaction().execute(async (trx) => {
      const admins = await lockActiveAdminIds(trx);
      const before = await findUser(trx, input.userId);
      if (!before) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
      if (before.role !== input.role) requireRecentIdentityCheck({ session });
      if (input.role !== "Admin" && admins.length === 1 && admins[0] === before.id) {
        throw new AppError("CONFLICT", LAST_ADMIN_DEMOTE);
      }
      await assertUnique(trx, input.username, input.email, before.id);
      const after = await updateUserAccount(trx, before.id, {
        username: input.username.trim(),
        email: input.email.trim().toLowerCase(),
        role: input.role,
        passwordHash,
      });
      if (!after) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
      const changed = (["username", "email", "role"] as const).filter((k) => before[k] !== after[k]);
      await insertAuditEntry(trx, admin.id, "edit", "user", after.id, {
        changed: passwordHash === undefined ? changed : [...changed, "password"],
        role: after.role,
      });
      if (passwordHash !== undefined) await recordEvent(trx, sessionEndedEvent(after.id, after.sessionVersion));
      return { ...toPublicUser(after), message: `Account for ${after.username} has been edited successfully` };
    }),
  );
  return publishAfter(deps, edit);
}

/** Active staff members, by username (recorder and assignee dropdowns, GET /auth/staff). */
export function listStaff(db: Executor): Promise<StaffMember[]> {
  return listActiveStaff(db);
}

/**
 * Creates the first admin when the database has no user (ARCHITECTURE settings ADMIN_*).
 * With no password given, a strong one is generated and returned so the caller prints it once.
 * Returns null when users already exist. The check and the insert are one transaction under an
 * advisory lock (decision 015), so server processes started together on an empty database
 * create one admin between them and the others return null.
 */
export async function ensureFirstAdmin(
  db: Database,
  opts: { email: string; username: string; password?: string | undefined },
): Promise<{ email: string; generatedPassword?: string } | null> {
  if (await hasAnyUser(db)) return null;
  const generated = opts.password ? undefined : `${randomBytes(12).toString("base64url")}aA1!`;
  const password = opts.password ?? generated!;
  const created = await db.transaction().execute(async (trx) => {
    await lockFirstAdminCreation(trx);
    if (await hasAnyUser(trx)) return false;
    await createUser(trx, { username: opts.username, email: opts.email, password, role: "Admin" });
    return true;
  });
  if (!created) return null;
  return generated ? { email: opts.email, generatedPassword: generated } : { email: opts.email };
}

/**
 * SPEC §2.10, §7.1 POST /api/update-status (admin): activates or deactivates an account, with an
 * audit entry, in one transaction. A change of state raises the user's session version (decision 012),
 * so tokens issued before stay refused even after reactivation. Deactivation also
 * records a 'user.deactivated' live event for that user: their open subscriptions end and their
 * WebSockets are closed. Throws FORBIDDEN for non-admins,
 * BAD_REQUEST 'You cannot deactivate your own account.', NOT_FOUND 'User not found.', CONFLICT
 * 'The last active administrator cannot be deactivated.' (active admins are locked first, so two
 * admins deactivating each other at once cannot both succeed).
 * Returns the sentence said: `{ message: 'Account for amina has been deactivated.' }`.
 */
export async function setUserActive(
  deps: AppDeps,
  admin: SessionUser,
  input: SetActiveInput,
): Promise<{ message: string }> {
  requireAdmin(admin);
  if (!input.active && input.userId === admin.id) throw new AppError("BAD_REQUEST", CANNOT_DEACTIVATE_SELF);
  const change = deps.db.transaction().execute(async (trx) => {
    const admins = await lockActiveAdminIds(trx);
    if (!input.active && admins.length === 1 && admins[0] === input.userId) {
      throw new AppError("CONFLICT", LAST_ADMIN_DEACTIVATE);
    }
    const updated = await setUserActiveFlag(trx, input.userId, input.active);
    if (!updated) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
    await insertAuditEntry(trx, admin.id, input.active ? "activate" : "deactivate", "user", input.userId);
    if (updated.sessionVersion !== null && !input.active) {
      await recordEvent(trx, sessionEndedEvent(input.userId, updated.sessionVersion, "user.deactivated"));
    }
    return updated.username;
  });
  const username = await publishAfter(deps, change);
  return { message: `Account for ${username} has been ${input.active ? "activated" : "deactivated"}.` };
}
