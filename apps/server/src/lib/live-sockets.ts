import { TRPCError } from "@trpc/server";
import { WebSocket } from "ws";
import { authenticate, type AppDeps, type SessionUser } from "@tafsiri/api";

export const SIGN_IN_REQUIRED = "You must be signed in.";
/** Close code for a socket whose user was deactivated (4000-4999: application codes). */
export const DEACTIVATED_CLOSE_CODE = 4403;
/** Lets the subscription send its 'user.deactivated' event and UNAUTHORIZED error before the close. */
const CLOSE_DELAY_MS = 100;

/** The connection's TCP socket (node's net.Socket: `req.socket` of the upgrade request), for batching writes. */
export interface CorkableSocket {
  cork(): void;
  uncork(): void;
}

/**
 * Issue 3: the user of a tRPC WebSocket connection, from `connectionParams.token` (the session
 * JWT, checked like a Bearer token). Throws UNAUTHORIZED 'You must be signed in.' without a valid
 * token (tRPC then answers the error and closes the socket). While the socket is open, a
 * 'user.deactivated' event for its user closes it (code 4403) shortly after the subscription has
 * told the client; reconnecting is refused because the user is no longer active.
 * With `tcp` (the connection's TCP socket), the frames that one burst of live events sends this
 * connection go out in one write: the socket is corked when the bus hands it the burst's first
 * event and uncorked once the subscriptions have sent theirs (setImmediate, after the microtasks
 * that run them), so a change's several events cost one system call per connection, not one each.
 */
export async function authenticateSocket(
  deps: AppDeps,
  socket: WebSocket,
  connectionParams: Record<string, string | undefined> | null,
  tcp?: CorkableSocket,
): Promise<SessionUser> {
  const user = await authenticate(deps.db, deps.jwtSecret, connectionParams?.token);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: SIGN_IN_REQUIRED });
  let corked = false;
  const uncork = () => {
    corked = false;
    tcp?.uncork();
  };
  const unsubscribe = deps.events.subscribe({
    userId: user.id,
    // Hears every event this connection's subscriptions hear, so it can cork before they send.
    isAdmin: user.role === "Admin",
    deliver(event) {
      if (tcp && !corked) {
        corked = true;
        tcp.cork();
        setImmediate(uncork);
      }
      if (event.kind !== "user.deactivated" || event.recipientId !== user.id) return;
      unsubscribe();
      setTimeout(() => socket.close(DEACTIVATED_CLOSE_CODE, "Account deactivated"), CLOSE_DELAY_MS).unref();
    },
  });
  socket.once("close", unsubscribe);
  if (socket.readyState !== WebSocket.OPEN) unsubscribe();
  return user;
}
