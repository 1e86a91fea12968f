import type { Insertable } from "kysely";
import type { ApiTokenScope } from "@tafsiri/domain";
import type { ApiTokenTable } from "../schema";
import type { Executor } from "../connection";
import type { Role } from "../statuses";

/** A token as lists show it (decision 036): never its hash. */
export interface ApiTokenRow {
  id: string;
  userId: string;
  username: string;
  name: string;
  hint: string;
  scope: ApiTokenScope;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const LISTED = [
  "t.id",
  "t.userId",
  "u.username",
  "t.name",
  "t.hint",
  "t.scope",
  "t.expiresAt",
  "t.lastUsedAt",
  "t.lastUsedIp",
  "t.revokedAt",
  "t.createdAt",
] as const;

/**
 * Locks user `userId`'s row and answers their session version (a token made now records it), so
 * a concurrent 'Sign out everywhere' either ends the new token or waits for it.
 */
export async function lockSessionVersion(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select("sessionVersion")
    .where("id", "=", userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.sessionVersion;
}

/** Stores a new token; returns its id. */
export async function insertApiToken(db: Executor, token: Insertable<ApiTokenTable>): Promise<string> {
  const row = await db.insertInto("apiTokens").values(token).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** How many of `userId`'s tokens are neither revoked nor expired at `now`. */
export async function countLiveTokens(db: Executor, userId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("apiTokens")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("userId", "=", userId)
    .where("revokedAt", "is", null)
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `userId`'s tokens, newest first (at most `limit`). */
export function listUserTokens(db: Executor, userId: string, limit: number): Promise<ApiTokenRow[]> {
  return db
    .selectFrom("apiTokens as t")
    .innerJoin("users as u", "u.id", "t.userId")
    .select(LISTED)
    .where("t.userId", "=", userId)
    .orderBy("t.createdAt", "desc")
    .orderBy("t.id", "desc")
    .limit(limit)
    .execute();
}

/** Every token, newest first, one page (`offset`, `limit`), with the total (decision 036). */
export async function listAllTokens(
  db: Executor,
  page: { offset: number; limit: number },
): Promise<{ tokens: ApiTokenRow[]; total: number }> {
  // One statement: the count beside the page (which may be empty), the page by api_tokens_created_idx.
  const rows = await db
    .selectFrom(
      db
        .selectFrom("apiTokens")
        .select((eb) => eb.fn.countAll<string>().as("total"))
        .as("c"),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("apiTokens as t")
          .innerJoin("users as u", "u.id", "t.userId")
          .select(LISTED)
          .orderBy("t.createdAt", "desc")
          .orderBy("t.id")
          .offset(page.offset)
          .limit(page.limit)
          .as("p"),
      (join) => join.onTrue(),
    )
    .selectAll("p")
    .select("c.total")
    .execute();
  const tokens = rows.flatMap(({ total: _total, ...row }) => (row.id === null ? [] : [row as ApiTokenRow]));
  return { tokens, total: Number(rows[0]?.total ?? 0) };
}

/** What authenticating with a token needs: the token's state and its owner's. */
export interface TokenOwnerRow {
  tokenId: string;
  scope: ApiTokenScope;
  tokenVersion: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  id: string;
  username: string;
  email: string;
  role: Role;
  active: boolean;
  sessionVersion: number;
}

/** The token whose SHA-256 is `tokenHash`, with its owner; undefined when there is none. */
export function findTokenOwner(db: Executor, tokenHash: string): Promise<TokenOwnerRow | undefined> {
  return db
    .selectFrom("apiTokens as t")
    .innerJoin("users as u", "u.id", "t.userId")
    .select([
      "t.id as tokenId",
      "t.scope",
      "t.sessionVersion as tokenVersion",
      "t.expiresAt",
      "t.revokedAt",
      "t.lastUsedAt",
      "u.id",
      "u.username",
      "u.email",
      "u.role",
      "u.active",
      "u.sessionVersion",
    ])
    .where("t.tokenHash", "=", tokenHash)
    .executeTakeFirst();
}

/** Records that token `id` was used at `at` from `ip`. */
export async function touchApiToken(db: Executor, id: string, at: Date, ip: string | null): Promise<void> {
  await db.updateTable("apiTokens").set({ lastUsedAt: at, lastUsedIp: ip }).where("id", "=", id).execute();
}

/** Token `id`'s owner and whether it is already revoked; undefined when there is no such token. */
export function findApiToken(
  db: Executor,
  id: string,
): Promise<{ userId: string; name: string; revokedAt: Date | null } | undefined> {
  return db.selectFrom("apiTokens").select(["userId", "name", "revokedAt"]).where("id", "=", id).executeTakeFirst();
}

/** Revokes token `id` at `at` by `by` (a revoked token stays revoked). */
export async function revokeApiToken(db: Executor, id: string, by: string, at: Date): Promise<void> {
  await db
    .updateTable("apiTokens")
    .set({ revokedAt: at, revokedBy: by })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .execute();
}
