import type { EventToRecord } from "./record";

/**
 * The events that end or extend sessions (decision 012). Raising a user's session version
 * records one of them in the same transaction; the user's open WebSockets act on it
 * (apps/server/src/live/socket-session.ts) and their live subscription ends (stream.ts).
 */

/** The message that ends a subscription whose session was ended (UNAUTHORIZED). */
export const SESSION_ENDED = "Your session has ended. Please sign in again.";

/**
 * The event telling a user's open sockets that every session older than `sessionVersion` ended:
 * 'user.deactivated' for a deactivation, 'session.ended' otherwise.
 */
export function sessionEndedEvent(
  userId: string,
  sessionVersion: number,
  kind: "session.ended" | "user.deactivated" = "session.ended",
): EventToRecord {
  return { audience: "user", recipientId: userId, kind, payload: { sessionVersion } };
}

/** The session version an event's payload carries, or null when it carries none. */
function eventSessionVersion(payload: Record<string, unknown>): number | null {
  const version = payload.sessionVersion;
  return typeof version === "number" && Number.isInteger(version) ? version : null;
}

/**
 * True when the event ends a session of `version`: a 'user.deactivated' or 'session.ended'
 * carrying a newer version than `version` (a 'user.deactivated' recorded before versions existed
 * carries none and ends any session).
 */
export function endsSession(event: { kind: string; payload: Record<string, unknown> }, version: number): boolean {
  if (event.kind !== "user.deactivated" && event.kind !== "session.ended") return false;
  const ended = eventSessionVersion(event.payload);
  return ended === null ? event.kind === "user.deactivated" : ended > version;
}
