import { WebSocket } from "ws";
import {
  AppError,
  authenticate,
  SIGN_IN_REQUIRED,
  type AppDeps,
  type EventSubscriber,
  type SessionUser,
} from "@tafsiri/api";

/** Close code for a socket whose user was deactivated (4000-4999: application codes). */
export const DEACTIVATED_CLOSE_CODE = 4403;
/** Lets the subscription send its 'user.deactivated' event and UNAUTHORIZED error before the close. */
const CLOSE_DELAY_MS = 100;

/** An event as the bus hands it to a subscriber. */
type BusEvent = Parameters<EventSubscriber["deliver"]>[0];

/** The connection's TCP socket (node's net.Socket: `req.socket` of the upgrade request), for batching writes. */
export interface CorkableSocket {
  cork(): void;
  uncork(): void;
}

/**
 * Issue 3: the user of a tRPC WebSocket connection, from `connectionParams.token` (the session
 * JWT, checked like a Bearer token). Throws UNAUTHORIZED 'You must be signed in.' without a valid
 * token (the loop then answers the error and closes the socket).
 */
export async function authenticateConnection(
  deps: AppDeps,
  connectionParams: Record<string, string | undefined> | null,
): Promise<SessionUser> {
  const user = await authenticate(deps.db, deps.jwtSecret, connectionParams?.token);
  if (!user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return user;
}

/**
 * Watches the events the bus hands a connection for the deactivation of its user (`userId`):
 * the returned function, called with each of them, closes `socket` (code 4403) shortly after a
 * 'user.deactivated' event for that user, once the subscription has told the client, and then
 * answers true (the caller stops listening); reconnecting is refused because the user is no longer
 * active. Every other event answers false.
 */
export function watchForDeactivation(socket: WebSocket, userId: string): (event: BusEvent) => boolean {
  return (event) => {
    if (event.kind !== "user.deactivated" || event.recipientId !== userId) return false;
    setTimeout(() => socket.close(DEACTIVATED_CLOSE_CODE, "Account deactivated"), CLOSE_DELAY_MS).unref();
    return true;
  };
}

/**
 * Sends the frames of one burst of live events on `tcp` in one write: the returned function,
 * called as the bus hands the connection each event (before its subscriptions send theirs), corks
 * the socket at the burst's first event and uncorks it once the subscriptions have sent theirs
 * (setImmediate, after the microtasks that run them), so a change's several events cost one
 * system call per connection, not one each.
 */
export function batchBurstWrites(tcp: CorkableSocket): () => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    tcp.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    tcp.cork();
    setImmediate(uncork);
  };
}

/**
 * Opens a connection's session: authenticates it (authenticateConnection), then, until the
 * socket closes, listens to the bus as the user, as one subscriber that hears every event this
 * connection's subscriptions hear, to batch each burst's writes on `tcp` (batchBurstWrites, when
 * given) and close the socket when the user is deactivated (watchForDeactivation). Returns the
 * user for the connection's context.
 */
export async function openSocketSession(
  deps: AppDeps,
  socket: WebSocket,
  connectionParams: Record<string, string | undefined> | null,
  tcp?: CorkableSocket,
): Promise<SessionUser> {
  const user = await authenticateConnection(deps, connectionParams);
  const batch = tcp ? batchBurstWrites(tcp) : null;
  const deactivated = watchForDeactivation(socket, user.id);
  const unsubscribe = deps.events.subscribe({
    userId: user.id,
    // Hears every event this connection's subscriptions hear, so it can cork before they send.
    isAdmin: user.role === "Admin",
    deliver(event) {
      batch?.();
      if (deactivated(event)) unsubscribe();
    },
  });
  socket.once("close", unsubscribe);
  if (socket.readyState !== WebSocket.OPEN) unsubscribe();
  return user;
}
