import { WebSocket } from "ws";
import {
  AppError,
  authenticateSession,
  endsSession,
  SIGN_IN_REQUIRED,
  type AppDeps,
  type AuthenticatedSession,
  type EventSubscriber,
} from "@tafsiri/api";
import { DEACTIVATED_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE } from "@tafsiri/domain";
import { batchBurstWrites, type CorkableSocket } from "./burst-writes";

// A socket whose user was deactivated closes with DEACTIVATED_CLOSE_CODE (4403), one whose session was ended
// ('Sign out everywhere', a new password, reactivation) or expired with SESSION_ENDED_CLOSE_CODE (4401):
// @tafsiri/domain's, which the web app's client reads too.
/** Lets the subscription send its ending event and UNAUTHORIZED error before the close. */
const CLOSE_DELAY_MS = 100;
/** setTimeout's longest delay (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** An event as the bus hands it to a subscriber. */
type BusEvent = Parameters<EventSubscriber["deliver"]>[0];

/** The connection's TCP socket (node's net.Socket: `req.socket` of the upgrade request), for batching writes. */

/**
 * The session of a tRPC WebSocket connection (decisions 005 and 012), from
 * `connectionParams.token` (the session JWT, checked like a Bearer token: user active, session
 * version current, not expired). Throws UNAUTHORIZED 'You must be signed in.' without a valid
 * token (the loop then answers the error and closes the socket).
 */
export async function authenticateConnection(
  deps: AppDeps,
  connectionParams: Record<string, string | undefined> | null,
): Promise<AuthenticatedSession> {
  const session = await authenticateSession(deps.db, deps.jwtSecret, connectionParams?.token);
  if (!session) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return session;
}

/** What watchSession does with a socket: close it, and stop its timer when it closes. */
interface WatchedSession {
  /** Called with each event the bus hands the connection; true once the socket is being closed. */
  onEvent(event: BusEvent): boolean;
  /** Stops the expiry timer (the socket closed). */
  stop(): void;
}

/**
 * Keeps a socket open only while its session is (decision 012): closes `socket` shortly after
 * an event that ends the session (code 4403 for 'user.deactivated', 4401 for a 'session.ended'
 * of a newer version: endsSession), once the subscription has told the client, and at the token's
 * expiry (4401), unless a 'session.renewed' event for the same session version moved the expiry
 * later (the client renewed its token), and (decision 036) with 4401 when the API token it was
 * opened with is revoked ('token.revoked'). Reconnecting with the old token is then refused.
 */
function watchSession(socket: WebSocket, session: AuthenticatedSession): WatchedSession {
  let expiresAt = session.expiresAt.getTime();
  let timer: NodeJS.Timeout | null = null;
  let closing = false;

  const close = (code: number, reason: string) => {
    if (closing) return;
    closing = true;
    if (timer) clearTimeout(timer);
    setTimeout(() => socket.close(code, reason), CLOSE_DELAY_MS).unref();
  };
  const arm = () => {
    if (timer) clearTimeout(timer);
    const wait = expiresAt - Date.now();
    if (wait <= 0) return close(SESSION_ENDED_CLOSE_CODE, "Session expired");
    timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
    timer.unref();
  };
  arm();

  return {
    onEvent(event) {
      if (closing || event.recipientId !== session.user.id) return closing;
      // Decision 036: a socket opened with an API token closes when that token is revoked.
      if (event.kind === "token.revoked" && session.apiToken && event.payload.tokenId === session.apiToken.id) {
        close(SESSION_ENDED_CLOSE_CODE, "Token revoked");
        return true;
      }
      if (endsSession(event, session.version)) {
        const deactivated = event.kind === "user.deactivated";
        close(
          deactivated ? DEACTIVATED_CLOSE_CODE : SESSION_ENDED_CLOSE_CODE,
          deactivated ? "Account deactivated" : "Session ended",
        );
        return true;
      }
      if (event.kind === "session.renewed" && event.payload.sessionVersion === session.version) {
        const renewedUntil = Date.parse(String(event.payload.expiresAt));
        if (renewedUntil > expiresAt) {
          expiresAt = renewedUntil;
          arm();
        }
      }
      return false;
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * Opens a connection's session: authenticates it (authenticateConnection), then, until the
 * socket closes, listens to the bus as the user, as one subscriber that hears every event this
 * connection's subscriptions hear, to batch each burst's writes on `tcp` (batchBurstWrites, when
 * given) and close the socket when the session ends or expires (watchSession). Returns the
 * session (user, version, expiry) for the connection's context.
 */
export async function openSocketSession(
  deps: AppDeps,
  socket: WebSocket,
  connectionParams: Record<string, string | undefined> | null,
  tcp?: CorkableSocket,
): Promise<AuthenticatedSession> {
  const session = await authenticateConnection(deps, connectionParams);
  const batch = tcp ? batchBurstWrites(tcp) : null;
  const watch = watchSession(socket, session);
  const unsubscribe = deps.events.subscribe({
    userId: session.user.id,
    // Hears every event this connection's subscriptions hear, so it can cork before they send.
    isAdmin: session.user.role === "Admin",
    deliver(event) {
      batch?.();
      if (watch.onEvent(event)) unsubscribe();
    },
  });
  const stop = () => {
    unsubscribe();
    watch.stop();
  };
  socket.once("close", stop);
  if (socket.readyState !== WebSocket.OPEN) stop();
  return session;
}
