import type { WebSocketServer } from "ws";
import { SERVICE_RESTART_CLOSE_CODE } from "@tafsiri/domain";

// Every live socket closes with SERVICE_RESTART_CLOSE_CODE (@tafsiri/domain: RFC 6455 7.4.1 / IANA 1012
// "Service Restart") when its server stops (SIGTERM, an upgrade). The web app reconnects at once on it
// (through the proxy, to another instance) and resumes its subscriptions from the last event id (decision 029).

/** The close frame's reason (at most 123 bytes), for people reading a browser's network panel. */
export const SERVICE_RESTART_REASON = "Server restarting; reconnect";

/**
 * How long a client gets to answer the close frame before its socket is dropped (ms). A stopping
 * server waits for every socket to go; one that never answers must not hold it until ws's own 30 s.
 */
const CLOSE_HANDSHAKE_MS = 3_000;

/**
 * @fastify/websocket's `preClose` (run when `app.close()` starts, before the HTTP server stops
 * listening): closes every open socket of `server` with SERVICE_RESTART_CLOSE_CODE and its reason,
 * where the plugin's default closes them with no code (the client sees 1005), and stops taking
 * upgrades on it. Each socket's own `close` handler then stops its subscriptions and session as on
 * any close; a socket whose client has not answered the close within CLOSE_HANDSHAKE_MS is dropped.
 * Takes `this` as the Fastify instance (the `websocketServer` decorator) and `done`; raises nothing.
 * Decision 029.
 */
export function closeSocketsForRestart(this: { websocketServer: WebSocketServer }, done: () => void): void {
  const server = this.websocketServer;
  const clients = [...server.clients];
  for (const client of clients) client.close(SERVICE_RESTART_CLOSE_CODE, SERVICE_RESTART_REASON);
  if (clients.length > 0) {
    setTimeout(() => {
      for (const client of clients) if (client.readyState !== client.CLOSED) client.terminate();
    }, CLOSE_HANDSHAKE_MS).unref();
  }
  // ws's close() with noServer only marks it closed (no new connections are handed out); the sockets
  // above finish their close handshake on their own.
  server.close();
  done();
}
