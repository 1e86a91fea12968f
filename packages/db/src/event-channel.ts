import pg from "pg";
import { EVENT_CHANNEL } from "./repositories/events";

/** A dedicated PostgreSQL connection LISTENing on the event channel. */
export interface EventChannelListener {
  close(): Promise<void>;
}

/**
 * LISTENs on EVENT_CHANNEL with its own pg client (not from the pool) and calls `onNotify` for
 * every notification, and once after each (re)connection so nothing committed while it was away
 * is missed. A lost connection is reopened after `retryMs` (1 s); `onError` hears why.
 */
export async function listenForEvents(
  databaseUrl: string,
  onNotify: () => void,
  opts: { onError?: (error: unknown) => void; retryMs?: number } = {},
): Promise<EventChannelListener> {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch((error: unknown) => {
        opts.onError?.(error);
        scheduleReconnect();
      });
    }, opts.retryMs ?? 1000);
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on("notification", () => onNotify());
    c.on("error", (error) => {
      opts.onError?.(error);
      if (client === c) client = null;
      c.end().catch(() => undefined);
      scheduleReconnect();
    });
    c.on("end", () => {
      if (client === c) {
        client = null;
        scheduleReconnect();
      }
    });
    await c.connect();
    await c.query(`listen ${EVENT_CHANNEL}`);
    if (closed) {
      await c.end();
      return;
    }
    client = c;
    onNotify();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
