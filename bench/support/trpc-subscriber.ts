/**
 * A lean subscriber of a tRPC WebSocket subscription for the live-delivery benchmark: a plain
 * `ws` client speaking tRPC v11's WebSocket protocol itself (the messages @trpc/client's wsLink
 * sends and reads), so its receive path costs what the floor's clients cost (one JSON.parse per
 * message) and the benchmark compares the servers, not two client libraries in one process.
 * Real subscribers are browsers, each on its own machine.
 */
import WebSocket from "ws";

/** A data message of a tracked subscription: the tracking id and the yielded value. */
export interface TrackedData<T> {
  id: string;
  data: T;
}

/**
 * Opens `url?connectionParams=1`, sends `connectionParams` then one `subscription` request for
 * `path` with `input`, and resolves once the server answers `started`. Each later data message
 * is handed to `onData` (its text and its parsed value); an error message rejects (before
 * `started`) or goes to `onError`.
 */
export function subscribe<T>(opts: {
  url: string;
  connectionParams: Record<string, string>;
  path: string;
  input: unknown;
  onData: (value: TrackedData<T>, text: string) => void;
  onError: (message: string) => void;
}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${opts.url}?connectionParams=1`);
    let started = false;
    ws.once("error", reject);
    ws.once("open", () => {
      ws.send(JSON.stringify({ method: "connectionParams", data: opts.connectionParams }));
      ws.send(JSON.stringify({ id: 1, method: "subscription", params: { input: opts.input, path: opts.path } }));
    });
    ws.on("message", (raw) => {
      const text = String(raw);
      if (text === "PING") {
        ws.send("PONG");
        return;
      }
      const message = JSON.parse(text) as {
        result?: { type: string; data?: TrackedData<T> };
        error?: { message: string };
      };
      if (message.error) {
        if (started) opts.onError(message.error.message);
        else reject(new Error(message.error.message));
      } else if (message.result?.type === "started") {
        started = true;
        resolve(ws);
      } else if (message.result?.type === "data" && message.result.data) {
        opts.onData(message.result.data, text);
      }
    });
  });
}
