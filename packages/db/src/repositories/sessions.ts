import type { SignInMethod } from "@tafsiri/domain";
import type { Executor } from "../connection";

/** A session as the sessions list shows it (decision 038). */
export interface SessionRow {
  id: string;
  method: SignInMethod;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  verifiedAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The most of a user agent kept, in characters. */
const USER_AGENT_CHARS = 300;

/** Writes a new session of `userId` begun under `sessionVersion`; answers its id. */
export async function insertSession(
  db: Executor,
  input: {
    userId: string;
    sessionVersion: number;
    method: SignInMethod;
    ip: string | null;
    userAgent: string | null;
    expiresAt: Date;
  },
): Promise<string> {
  const row = await db
    .insertInto("sessions")
    .values({ ...input, userAgent: input.userAgent?.slice(0, USER_AGENT_CHARS) ?? null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Records a new token of session `id` of `userId`: its expiry, and when given how it now counts as
 * signed in and when the person last proved who they are. Answers false when there is no such
 * running session of that user.
 */
export async function touchSession(
  db: Executor,
  id: string,
  userId: string,
  change: { expiresAt: Date; method?: SignInMethod; verifiedAt?: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({
      expiresAt: change.expiresAt,
      lastSeenAt: new Date(),
      ...(change.method ? { method: change.method } : {}),
      ...(change.verifiedAt ? { verifiedAt: change.verifiedAt } : {}),
    })
    .where("id", "=", id)
    .where("userId", "=", userId)
    .where("endedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks session `id` of `userId` signed out (now); answers false when it was not running. */
export async function endSession(db: Executor, id: string, userId: string): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({ endedAt: new Date() })
    .where("id", "=", id)
    .where("userId", "=", userId)
    .where("endedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The running sessions of `userId` under `sessionVersion` (not signed out, not expired), newest
 * first, at most `limit` (one query on sessions_user_idx).
 */
export function runningSessions(
  db: Executor,
  userId: string,
  sessionVersion: number,
  limit: number,
): Promise<SessionRow[]> {
  return db
    .selectFrom("sessions")
    .select(["id", "method", "ip", "userAgent", "createdAt", "verifiedAt", "lastSeenAt", "expiresAt"])
    .where("userId", "=", userId)
    .where("sessionVersion", "=", sessionVersion)
    .where("endedAt", "is", null)
    .where("expiresAt", ">", new Date())
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
}
