import http from "node:http";

/** One HTTP answer, its body read whole. */
interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** No answer came: the connection failed or closed, or the request timed out. */
export class NoAnswer extends Error {}

/** A cheap HTTP/1.1 client of one server: node:http over a keep-alive agent (no fetch, no Web streams). */
export interface KeepAliveClient {
  /** Sends `method path` with `headers` and `body`; resolves to the answer or rejects with NoAnswer. */
  request(method: string, path: string, headers?: Record<string, string>, body?: string | Buffer): Promise<HttpAnswer>;
  /** Closes the idle connections and refuses nothing in flight. */
  close(): void;
}

/**
 * A client of `baseUrl` (http only) that keeps up to `maxSockets` connections open and reuses
 * them; a request that has no complete answer within `timeoutMs` is abandoned (its socket closed)
 * and rejects with NoAnswer, as does a refused or reset connection.
 */
export function keepAliveClient(
  baseUrl: string,
  { maxSockets = 256, timeoutMs = 30_000 }: { maxSockets?: number; timeoutMs?: number } = {},
): KeepAliveClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    request: (method, path, headers = {}, body) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const sent: Record<string, string | number> = { ...headers };
        if (body !== undefined) sent["content-length"] = Buffer.byteLength(body);
        const req = http.request({ agent, host: hostname, port, method, path, headers: sent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          });
          res.on("error", (error) => {
            clearTimeout(timer);
            reject(new NoAnswer(`${method} ${path}: ${error.message}`));
          });
        });
        const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        req.on("error", (error) => {
          clearTimeout(timer);
          reject(new NoAnswer(`${method} ${path}: ${error.message}`));
        });
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
