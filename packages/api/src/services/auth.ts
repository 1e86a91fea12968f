import argon2 from "argon2";
import { jwtVerify, SignJWT } from "jose";
import type { Database, Role } from "@tafsiri/db";
import { findSessionUser } from "@tafsiri/db/repositories/users";
import type { SessionUser } from "../context";

/** How long a sign-in lasts. */
export const TOKEN_LIFETIME = "12h";

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** True when `password` matches the argon2 `hash`; false for a malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Signs a session JWT (HS256, 12 h) for a user id and role. */
export function signToken(secret: Uint8Array, user: { id: string; role: Role }): Promise<string> {
  return new SignJWT({ role: user.role })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(TOKEN_LIFETIME)
    .sign(secret);
}

/**
 * Resolves a Bearer token to its user. Returns null when the token is missing, invalid,
 * expired, names no user, the user is deactivated, or the password changed after it was issued.
 */
export async function authenticate(
  db: Database,
  secret: Uint8Array,
  token: string | undefined | null,
): Promise<SessionUser | null> {
  if (!token) return null;
  let sub: string | undefined;
  let iat: number | undefined;
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
    sub = payload.sub;
    iat = payload.iat;
  } catch {
    return null;
  }
  if (!sub || iat === undefined || !/^[0-9a-f-]{36}$/i.test(sub)) return null;
  const row = await findSessionUser(db, sub);
  if (!row || !row.active) return null;
  // iat has second precision; allow tokens issued in the same second as the change.
  if (Math.floor(row.passwordChangedAt.getTime() / 1000) > iat) return null;
  return { id: row.id, username: row.username, email: row.email, role: row.role, active: row.active };
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}
