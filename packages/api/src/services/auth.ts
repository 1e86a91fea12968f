import { randomBytes, webcrypto } from "node:crypto";
import argon2 from "argon2";
import { jwtVerify, SignJWT } from "jose";
import { LRUCache } from "lru-cache";
import type { Database, Role } from "@tafsiri/db";
import { findSessionUser } from "@tafsiri/db/repositories/users";
import { isApiToken, SIGN_IN_METHODS, type SignInMethod } from "@tafsiri/domain";
import type { AuthenticatedSession, SessionSignIn, SessionUser } from "../context";
import { authenticateApiToken } from "./api-tokens";

/** Days a session lasts without use when SESSION_IDLE_DAYS is unset (decision 012). */
export const DEFAULT_SESSION_IDLE_DAYS = 30;
/** Seconds a token is valid: renewing it while the app is used keeps the session (SESSION_IDLE_DAYS). */
export const DEFAULT_SESSION_LIFETIME_SECONDS = DEFAULT_SESSION_IDLE_DAYS * 24 * 60 * 60;

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

let dummyHash: Promise<string> | undefined;

/**
 * An argon2id hash of a random password nobody knows, made once (on first use)
 * by hashPassword, so with the same parameters as every stored hash. Sign-in verifies against it
 * when the e-mail is unknown, so that answer takes as long as a wrong password's.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64url")).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/** True when `password` matches the argon2 `hash`; false for a malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** The `iss` claim of every session token, required on verification. */
const TOKEN_ISSUER = "tafsiri";
/** The `aud` claim of every session token, required on verification. */
const TOKEN_AUDIENCE = "tafsiri-api";
/** How far in the future a token's `iat` may be (clocks of several server processes drift a little). */
const IAT_CLOCK_TOLERANCE_SECONDS = 30;

/** Who a session token is for: the user, their role and the session version it carries. */
export interface TokenSubject {
  id: string;
  role: Role;
  sessionVersion: number;
}

/** A verified session token: its user, the session version it carries and when it expires. */
export type { AuthenticatedSession } from "../context";

/** The HMAC key of each secret, imported once (importing it on every request cost more than verifying). */
const hmacKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();

/** `secret` as the HS256 CryptoKey jose signs and verifies with, imported on first use. */
function hmacKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * Signs a session JWT (HS256) for a user id, role and session version (claim `sv`), valid for
 * `lifetimeSeconds` (default SESSION_IDLE_DAYS' 30 days), with `iat`, `exp`, issuer TOKEN_ISSUER
 * and audience TOKEN_AUDIENCE (all required by authenticateSession), and with `session` its claims
 * `sid`, `amr` and `vat` (decision 038). Answers the token and its expiry.
 */
export async function signSessionToken(
  secret: Uint8Array,
  subject: TokenSubject,
  lifetimeSeconds: number = DEFAULT_SESSION_LIFETIME_SECONDS,
  session?: SessionSignIn,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + Math.max(1, Math.round(lifetimeSeconds));
  const sessionClaims = session
    ? { sid: session.id, amr: session.method, vat: Math.floor(session.verifiedAt.getTime() / 1000) }
    : {};
  const token = await new SignJWT({ role: subject.role, sv: subject.sessionVersion, ...sessionClaims })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(subject.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(await hmacKey(secret));
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/** What a session token says once its signature and claims are checked (verifySessionToken). */
export interface VerifiedToken {
  userId: string;
  version: number;
  expiresAt: Date;
  /** Decision 038: its session, when the token carries one. */
  session?: SessionSignIn;
}

/**
 * Checks a session token's signature and claims without the database: only
 * HS256 is accepted, and `exp`, `iat`, `sub` (a user id), an integer session version `sv`,
 * issuer TOKEN_ISSUER and audience TOKEN_AUDIENCE are required; a token issued more than 30 s
 * in the future is refused (no tolerance on `exp`: an expired token is refused at once). Returns
 * who it is for, or null. Whether that user is active and the version current is
 * authenticateSession's to check; this alone serves where a forged token must not pass but a
 * database read would cost too much (the request limit's key, decision 013).
 */
export async function verifySessionToken(
  secret: Uint8Array,
  token: string | undefined | null,
): Promise<VerifiedToken | null> {
  if (!token) return null;
  const verified = verifiedTokensOf(secret);
  const known = verified.get(token);
  if (known) return known.expiresAt.getTime() > Date.now() ? known : null;
  const checked = await checkSessionToken(secret, token);
  if (checked) verified.set(token, checked);
  return checked;
}

/**
 * Tokens whose signature and claims were checked, per secret (at most VERIFIED_TOKENS_KEPT, the
 * least recently used dropped): the same token string checks the same every time until it
 * expires, and the HMAC check (a WebCrypto job on libuv's thread pool) was a tenth of a signed-in
 * request's CPU. Refused tokens are not kept.
 */
const verifiedTokens = new WeakMap<Uint8Array, LRUCache<string, VerifiedToken>>();
const VERIFIED_TOKENS_KEPT = 10_000;

function verifiedTokensOf(secret: Uint8Array): LRUCache<string, VerifiedToken> {
  let cache = verifiedTokens.get(secret);
  if (!cache) {
    cache = new LRUCache<string, VerifiedToken>({ max: VERIFIED_TOKENS_KEPT });
    verifiedTokens.set(secret, cache);
  }
  return cache;
}

/** verifySessionToken's check itself (jose), without the cache. */
async function checkSessionToken(secret: Uint8Array, token: string): Promise<VerifiedToken | null> {
  let sub: string | undefined;
  let version: unknown;
  let exp: number | undefined;
  let iat: number | undefined;
  let claims: Record<string, unknown> = {};
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ["exp", "iat", "sub", "iss", "aud"],
    });
    sub = payload.sub;
    version = payload.sv;
    exp = payload.exp;
    iat = payload.iat;
    claims = payload;
  } catch {
    return null;
  }
  if (!sub || exp === undefined || iat === undefined || !Number.isInteger(version) || !/^[0-9a-f-]{36}$/i.test(sub))
    return null;
  // jose checks `iat` against the clock only with maxTokenAge; a token from the future is a forgery.
  if (iat > Date.now() / 1000 + IAT_CLOCK_TOLERANCE_SECONDS) return null;
  const session = tokenSession(claims);
  return { userId: sub, version: version as number, expiresAt: new Date(exp * 1000), ...(session ? { session } : {}) };
}

/** The session claims `sid`, `amr` and `vat` of a verified token (decision 038), or undefined when they are missing or malformed. */
function tokenSession(claims: Record<string, unknown>): SessionSignIn | undefined {
  const { sid, amr, vat } = claims;
  if (typeof sid !== "string" || !/^[0-9a-f-]{36}$/i.test(sid)) return undefined;
  if (typeof amr !== "string" || !(SIGN_IN_METHODS as readonly string[]).includes(amr)) return undefined;
  if (typeof vat !== "number" || !Number.isInteger(vat)) return undefined;
  return { id: sid, method: amr as SignInMethod, verifiedAt: new Date(vat * 1000) };
}

/**
 * Resolves a Bearer token to its session (decision 012). Returns null when the token is
 * missing or fails verifySessionToken (signature, algorithm, claims, expiry), names no user, the
 * user is deactivated, or the token's session version (`sv`) is not the user's current one
 * (deactivation, reactivation, a password change or reset, or 'Sign out everywhere' happened
 * since it was issued). An API token (`tfs_…`, decision 036) is resolved by authenticateApiToken,
 * which records its last use from `clientIp`.
 */
export async function authenticateSession(
  db: Database,
  secret: Uint8Array,
  token: string | undefined | null,
  clientIp: string | null = null,
): Promise<AuthenticatedSession | null> {
  // Decision 036: an API token, not a JWT.
  if (token && isApiToken(token)) return authenticateApiToken(db, token, clientIp);
  const verified = await verifySessionToken(secret, token);
  if (!verified) return null;
  const row = await findSessionUser(db, verified.userId);
  if (!row || !row.active || row.sessionVersion !== verified.version) return null;
  return {
    user: { id: row.id, username: row.username, email: row.email, role: row.role, active: row.active },
    version: row.sessionVersion,
    expiresAt: verified.expiresAt,
    ...(verified.session ? { signIn: verified.session } : {}),
  };
}

/** The user of a valid session token (authenticateSession), or null. */
export async function authenticate(
  db: Database,
  secret: Uint8Array,
  token: string | undefined | null,
): Promise<SessionUser | null> {
  return (await authenticateSession(db, secret, token))?.user ?? null;
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}
