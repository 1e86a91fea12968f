import type { KeepAliveClient } from "./keep-alive-client";

/**
 * A tRPC procedure's answer over HTTP: the status, and the result's data (2xx) or the error's
 * message and code (e.g. 'CONFLICT').
 */
export interface TrpcAnswer<T> {
  status: number;
  data?: T;
  message?: string;
  code?: string;
}

/** What tRPC (v11, no transformer) sends back: `{ result: { data } }` or `{ error: { message, data: { code } } }`. */
interface Envelope {
  result?: { data?: unknown };
  error?: { message?: string; data?: { code?: string } };
}

/**
 * tRPC's HTTP protocol, one procedure per request (the web app's httpBatchLink sends the same
 * calls, batched when they start together): a query is `GET /trpc/<path>?input=<JSON>`, a
 * mutation `POST /trpc/<path>` with the JSON input as body; `token` goes in as a Bearer header.
 * Resolves to the answer for any status; rejects (NoAnswer) only when no answer came.
 */
export function trpcHttp(client: KeepAliveClient) {
  async function call<T>(
    method: "GET" | "POST",
    procedure: string,
    input: unknown,
    token: string | null,
  ): Promise<TrpcAnswer<T>> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let path = `/trpc/${procedure}`;
    let body: string | undefined;
    if (method === "GET") {
      if (input !== undefined) path += `?input=${encodeURIComponent(JSON.stringify(input))}`;
    } else {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input ?? {});
    }
    const answer = await client.request(method, path, headers, body);
    let envelope: Envelope = {};
    try {
      envelope = JSON.parse(answer.body.toString("utf8")) as Envelope;
    } catch {
      // Not JSON (a proxy's page, a crash): the status tells.
    }
    if (answer.status >= 200 && answer.status < 300) return { status: answer.status, data: envelope.result?.data as T };
    return { status: answer.status, message: envelope.error?.message, code: envelope.error?.data?.code };
  }
  return {
    query: <T>(procedure: string, input: unknown, token: string | null) => call<T>("GET", procedure, input, token),
    mutation: <T>(procedure: string, input: unknown, token: string | null) => call<T>("POST", procedure, input, token),
  };
}
export type TrpcHttp = ReturnType<typeof trpcHttp>;
