import { createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import {
  API_TOKEN_NEEDS_SIGN_IN,
  API_TOKEN_PREFIX,
  API_TOKEN_TOO_MANY,
  API_TOKENS_PER_USER,
  apiTokenExpiryProblem,
  type ApiTokenScope,
} from "@tafsiri/domain";
import {
  countLiveTokens,
  findApiToken,
  findTokenOwner,
  insertApiToken,
  listAllTokens,
  listUserTokens,
  lockSessionVersion,
  revokeApiToken,
  touchApiToken,
  type ApiTokenRow,
} from "@tafsiri/db/repositories/api-tokens";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { Database } from "@tafsiri/db";
import type { AppDeps, AuthenticatedSession, CallSession, SessionUser } from "../context";
import { requireRecentIdentityCheck } from "./identity-checks";
import { AppError } from "../errors/app-error";
import { publishAfter, recordEvent } from "../live/record";
import { requireAdmin } from "./access";

/**
 * API tokens (decision 036): a person's long-lived credentials for scripts, modelled on GitHub's
 * fine-grained personal access tokens. A token is `tfs_` and 40 random base62-like characters
 * (240 bits); only its SHA-256 is stored. It acts as its owner, within its scope, until it
 * expires, is revoked, or the owner's session version moves on (deactivation, 'Sign out
 * everywhere', a new password).
 */

const TOKEN_NOT_FOUND = "Token not found.";
const NOT_YOUR_TOKEN = "You can revoke only your own tokens.";
/** Tokens listed on a person's own page (they hold at most API_TOKENS_PER_USER live ones). */
const OWN_TOKENS_LISTED = 200;
/** Last-used time and address are written at most this often per token, ms (not once per request). */
const TOUCH_EVERY_MS = 60_000;

/** A token as its owner and admins see it: never the token itself. */
export interface ApiTokenView {
  id: string;
  owner: { id: string; username: string };
  name: string;
  /** Its first characters, to tell it apart ('tfs_a1b2…'). */
  hint: string;
  scope: ApiTokenScope;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  createdAt: string;
  /** 'active', 'expired' or 'revoked', at the time of asking. */
  state: "active" | "expired" | "revoked";
}

function viewOf(row: ApiTokenRow, now: Date): ApiTokenView {
  const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
  return {
    id: row.id,
    owner: { id: row.userId, username: row.username },
    name: row.name,
    hint: `${row.hint}…`,
    scope: row.scope,
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    lastUsedIp: row.lastUsedIp,
    revokedAt: iso(row.revokedAt),
    createdAt: new Date(row.createdAt).toISOString(),
    state: row.revokedAt ? "revoked" : row.expiresAt && new Date(row.expiresAt) <= now ? "expired" : "active",
  };
}

/** The SHA-256 of a token, hex: what is stored and looked up. */
function tokenHashOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Refuses a call made with an API token (tokens never manage tokens nor renew sessions). */
export function requirePasswordSession(session: CallSession | null | undefined): void {
  if (session?.apiToken) throw new AppError("FORBIDDEN", API_TOKEN_NEEDS_SIGN_IN);
}

/**
 * Decision 036: creates a token for the caller: `name` (1–100 characters), `scope` ('read' or
 * 'write', never more than the caller's own role), `expiresAt` (null: never, admins only; else
 * after now and at most 732 days ahead). Audited ('create' 'api-token'). Throws FORBIDDEN
 * API_TOKEN_NEEDS_SIGN_IN when called with a token, BAD_REQUEST with the expiry's problem or
 * API_TOKEN_TOO_MANY past 50 live tokens, FORBIDDEN REAUTH_REQUIRED for an admin more than 10
 * minutes after the session's last check (decision 038). Returns the token, shown this once, and its view.
 */
export async function createApiToken(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  input: { name: string; scope: ApiTokenScope; expiresAt: Date | null },
): Promise<{ token: string; view: ApiTokenView; message: string }> {
  requirePasswordSession(session);
  // Decision 038: an admin's token holds an admin's rights, so making one is a sensitive action.
  if (user.role === "Admin") requireRecentIdentityCheck({ session });
  const now = new Date();
  const problem = apiTokenExpiryProblem(input.expiresAt, user.role === "Admin", now);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  const token = `${API_TOKEN_PREFIX}${randomBytes(30).toString("base64url")}`;
  const id = await deps.db.transaction().execute(async (trx) => {
    const sessionVersion = await lockSessionVersion(trx, user.id);
    if ((await countLiveTokens(trx, user.id, now)) >= API_TOKENS_PER_USER)
      throw new AppError("BAD_REQUEST", API_TOKEN_TOO_MANY);
    const tokenId = await insertApiToken(trx, {
      userId: user.id,
      name: input.name,
      tokenHash: tokenHashOf(token),
      hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
      scope: input.scope,
      sessionVersion,
      expiresAt: input.expiresAt,
    });
    await insertAuditEntry(trx, user.id, "create", "api-token", tokenId, { name: input.name, scope: input.scope });
    return tokenId;
  });
  const row = (await listUserTokens(deps.db, user.id, OWN_TOKENS_LISTED)).find((t) => t.id === id)!;
  return { token, view: viewOf(row, now), message: "Token created. Copy it now: it is not shown again." };
}

/** Decision 036: the caller's own tokens, newest first (revoked and expired ones included). */
export async function listOwnTokens(deps: AppDeps, user: SessionUser): Promise<{ tokens: ApiTokenView[] }> {
  const now = new Date();
  return { tokens: (await listUserTokens(deps.db, user.id, OWN_TOKENS_LISTED)).map((row) => viewOf(row, now)) };
}

/** Decision 036, admins: every token, newest first, `page` (from 1) of `limit`, with the total. Throws FORBIDDEN for staff. */
export async function listEveryToken(
  deps: AppDeps,
  user: SessionUser,
  input: { page: number; limit: number },
): Promise<{ tokens: ApiTokenView[]; total: number }> {
  requireAdmin(user);
  const now = new Date();
  const { tokens, total } = await listAllTokens(deps.db, {
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });
  return { tokens: tokens.map((row) => viewOf(row, now)), total };
}

/**
 * Decision 036: revokes token `tokenId` (its owner, or any admin); it is refused at once (401)
 * and the sockets opened with it close ('token.revoked'). Audited ('revoke' 'api-token').
 * Revoking a revoked token changes nothing. Throws FORBIDDEN API_TOKEN_NEEDS_SIGN_IN when called
 * with a token, NOT_FOUND 'Token not found.', FORBIDDEN 'You can revoke only your own tokens.'.
 */
export async function revokeToken(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  tokenId: string,
): Promise<{ message: string }> {
  requirePasswordSession(session);
  const change = deps.db.transaction().execute(async (trx) => {
    const token = await findApiToken(trx, tokenId);
    if (!token) throw new AppError("NOT_FOUND", TOKEN_NOT_FOUND);
    if (token.userId !== user.id && user.role !== "Admin") throw new AppError("FORBIDDEN", NOT_YOUR_TOKEN);
    if (token.revokedAt) return token.name;
    await revokeApiToken(trx, tokenId, user.id, new Date());
    await insertAuditEntry(trx, user.id, "revoke", "api-token", tokenId, { name: token.name, owner: token.userId });
    await recordEvent(trx, {
      audience: "user",
      recipientId: token.userId,
      kind: "token.revoked",
      payload: { tokenId },
    });
    return token.name;
  });
  const name = await publishAfter(deps, change);
  return { message: `The token '${name}' was revoked.` };
}

/** When each token's last use was last written, by token id (this process). */
const touched = new LRUCache<string, number>({ max: 10_000 });
/** The id of each token this process authenticated, by its hash (the request limit's key). */
const knownTokens = new LRUCache<string, string>({ max: 10_000 });

/**
 * Decision 036: the session of an API token `token` (`tfs_…`), or null when it is unknown,
 * revoked, expired, its owner is deactivated, or the owner's session version moved on since it
 * was made. Records its last use (time, `clientIp`) at most once a minute. The session's expiry
 * is the token's (a far date for one that never expires).
 */
export async function authenticateApiToken(
  db: Database,
  token: string,
  clientIp: string | null,
): Promise<AuthenticatedSession | null> {
  const hash = tokenHashOf(token);
  const row = await findTokenOwner(db, hash);
  const now = new Date();
  if (!row || row.revokedAt || !row.active || row.sessionVersion !== row.tokenVersion) return null;
  if (row.expiresAt && new Date(row.expiresAt) <= now) return null;
  knownTokens.set(hash, row.tokenId);
  const last = Math.max(touched.get(row.tokenId) ?? 0, row.lastUsedAt ? new Date(row.lastUsedAt).getTime() : 0);
  if (now.getTime() - last >= TOUCH_EVERY_MS) {
    touched.set(row.tokenId, now.getTime());
    await touchApiToken(db, row.tokenId, now, clientIp);
  }
  return {
    user: { id: row.id, username: row.username, email: row.email, role: row.role, active: row.active },
    version: row.sessionVersion,
    expiresAt: row.expiresAt ? new Date(row.expiresAt) : new Date("9999-12-31T00:00:00Z"),
    apiToken: { id: row.tokenId, scope: row.scope },
  };
}

/**
 * The id of the API token `token`, when this process has authenticated it before, else undefined:
 * the request limit's key (decision 013), read before authentication touches the database, so a
 * made-up token never gets a budget of its own.
 */
export function knownTokenId(token: string): string | undefined {
  return knownTokens.get(tokenHashOf(token));
}
