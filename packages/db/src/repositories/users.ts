import { sql } from "kysely";
import type { NewUser, Role, User } from "../schema";
import type { DbTransaction, Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";

/** Advisory lock key of the first admin's creation (the other keys: job-locks.ts). */
const FIRST_ADMIN_LOCK = 7_240_312;

/** A user's id and username. */
export interface UserRef {
  id: string;
  username: string;
}

/** The active Staff user with this id, or undefined (unknown, deactivated or an Admin). */
export function findActiveStaff(db: Executor, id: string): Promise<UserRef | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "=", id)
    .where("role", "=", "Staff")
    .where("active", "=", true)
    .executeTakeFirst();
}

/** The id and username of a user, or undefined. */
export function findUserRef(db: Executor, id: string): Promise<UserRef | undefined> {
  return db.selectFrom("users").select(["id", "username"]).where("id", "=", id).executeTakeFirst();
}

/** The user with this id (every column), or undefined. */
export function findUser(db: Executor, id: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The user whose email matches `email` case-insensitively (lower(email)), or undefined. */
export function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(({ fn }) => fn("lower", ["email"]), "=", email.toLowerCase())
    .executeTakeFirst();
}

/** What authenticating a session token needs to know about its user. */
export interface SessionUserRow {
  id: string;
  username: string;
  email: string;
  role: Role;
  active: boolean;
  /** The version a token must carry to be accepted. */
  sessionVersion: number;
}

/** The session fields of the user with this id (active flag and session version included), or undefined (planned once per connection: withGenericPlan). */
export function findSessionUser(db: Executor, id: string): Promise<SessionUserRow | undefined> {
  return withGenericPlan(
    db.selectFrom("users").select(["id", "username", "email", "role", "active", "sessionVersion"]).where("id", "=", id),
  ).executeTakeFirst();
}

/** The password hash of the user with this id, or undefined when there is no such user. */
export async function findPasswordHash(db: Executor, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("passwordHash").where("id", "=", id).executeTakeFirst();
  return row?.passwordHash;
}

/**
 * A user whose email or username equals `email` or `username` case-insensitively, with both of
 * its values (to tell which one clashes), or undefined when both are free. `exceptId` leaves that
 * user out (an account keeps its own email and username when edited).
 */
export function findUserClash(
  db: Executor,
  username: string,
  email: string,
  exceptId?: string,
): Promise<{ username: string; email: string } | undefined> {
  let query = db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()),
        eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()),
      ]),
    );
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  return query.executeTakeFirst();
}

/** Inserts a user (values as given: the caller normalizes and hashes) and returns it; throws on a unique violation. */
export function insertUser(db: Executor, values: NewUser): Promise<User> {
  return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Decision 015: takes the transaction-scoped lock that makes "is there a user yet? then create
 * the first admin" one step across processes, so instances started together on an empty database
 * create one admin between them (the others wait, then find it). Held until the transaction ends.
 */
export async function lockFirstAdminCreation(trx: DbTransaction): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(FIRST_ADMIN_LOCK)})`.execute(trx);
}

/** True when the database has at least one user. */
export async function hasAnyUser(db: Executor): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Active Staff users (id, username), by username. */
export function listActiveStaff(db: Executor): Promise<UserRef[]> {
  return db
    .selectFrom("users")
    .select(["id", "username"])
    .where("role", "=", "Staff")
    .where("active", "=", true)
    .orderBy("username")
    .execute();
}

/**
 * Sets a user's `active` flag. A change also raises the session version, ending every session of
 * the user. Answers the user's name with `sessionVersion`, the new version, when the flag changed
 * (null when it already had that value), undefined when there is no such user.
 */
export async function setUserActiveFlag(
  db: Executor,
  id: string,
  active: boolean,
): Promise<{ sessionVersion: number | null; username: string } | undefined> {
  const updated = await db
    .updateTable("users")
    .set((eb) => ({ active, sessionVersion: eb("sessionVersion", "+", 1) }))
    .where("id", "=", id)
    .where("active", "<>", active)
    .returning(["sessionVersion", "username"])
    .executeTakeFirst();
  if (updated) return updated;
  const user = await findUserRef(db, id);
  return user && { sessionVersion: null, username: user.username };
}

/**
 * Raises a user's session version, ending every session they have; answers the new version and
 * the user's name, or undefined when there is no such user.
 */
export async function raiseSessionVersion(
  db: Executor,
  id: string,
): Promise<{ sessionVersion: number; username: string } | undefined> {
  return db
    .updateTable("users")
    .set((eb) => ({ sessionVersion: eb("sessionVersion", "+", 1) }))
    .where("id", "=", id)
    .returning(["sessionVersion", "username"])
    .executeTakeFirst();
}

/** A user as the Accounts page lists it (never the password hash). */
export interface AccountRow {
  id: string;
  username: string;
  email: string;
  role: Role;
  active: boolean;
  image: string | null;
}

/** Every user (active and inactive), optionally only of `role` and/or `active`, by username. */
export function listUsers(
  db: Executor,
  filter: { role?: Role | undefined; active?: boolean | undefined } = {},
): Promise<AccountRow[]> {
  let query = db.selectFrom("users").select(["id", "username", "email", "role", "active", "image"]);
  if (filter.role !== undefined) query = query.where("role", "=", filter.role);
  if (filter.active !== undefined) query = query.where("active", "=", filter.active);
  return query.orderBy("username").orderBy("id").execute();
}

/**
 * Locks the rows of every active Admin until the transaction ends and answers their ids, so that
 * two concurrent changes cannot both remove the last active admin.
 */
export async function lockActiveAdminIds(trx: DbTransaction): Promise<string[]> {
  const rows = await trx
    .selectFrom("users")
    .select("id")
    .where("role", "=", "Admin")
    .where("active", "=", true)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Updates a user's username, email, role and, when given, password hash (the password change time
 * then becomes now and the session version rises, so older session tokens are refused). Answers
 * the updated user, or undefined when there is no such user; throws on a unique violation.
 */
export function updateUserAccount(
  db: Executor,
  id: string,
  values: { username: string; email: string; role: Role; passwordHash?: string | undefined },
): Promise<User | undefined> {
  const { passwordHash, ...rest } = values;
  return db
    .updateTable("users")
    .set((eb) =>
      passwordHash === undefined
        ? rest
        : { ...rest, passwordHash, passwordChangedAt: new Date(), sessionVersion: eb("sessionVersion", "+", 1) },
    )
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}
