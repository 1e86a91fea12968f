import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { reportIdentityRefusal } from "./identity-prompts";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";
import {
  createTRPCClient,
  createWSClient,
  httpBatchLink,
  splitLink,
  TRPCClientError,
  wsLink,
  type TRPCLink,
  type TRPCWebSocketClient,
} from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@tafsiri/api";
import { DEACTIVATED_CLOSE_CODE, SERVICE_RESTART_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE } from "@tafsiri/domain";
import { readSession, subscribeSession, writeSession } from "./session";
import { checkServer, reportNetworkFailure, reportServerAnswer } from "./connection";
import { CONNECTION_ERROR } from "./rest";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * What a query says about itself in TanStack Query's `meta` (typed for every query through `Register`):
 * `errorMessage` is what the console says when the query fails (SPEC §8: some failures, such as the
 * statistics, tasks and search, are only logged). Queries that share a key must pass the same meta,
 * since the query keeps the options of the observer that rendered last.
 */
type AppQueryMeta = {
  /** The console's message for a failed fetch of this query; QUERY_FAILED when absent. */
  errorMessage?: string;
};

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: AppQueryMeta;
  }
}

/** The console's message for a failed query that names none of its own. */
const QUERY_FAILED = "Failed to load data";

/**
 * The app's query client: data is fresh for 10 s; a refusal (a 4xx) is not retried, anything else twice.
 * Every failed query is logged here, once per failed fetch (after its retries), with its
 * `meta.errorMessage` (SPEC §8); what the user sees of the failure is each screen's own.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        reportIdentityRefusal(errorReason(error));
        console.error(query.meta?.errorMessage ?? QUERY_FAILED, error);
      },
    }),
    // Decision 038: any call may be refused until the person confirms who they are or enrols.
    mutationCache: new MutationCache({ onError: (error) => reportIdentityRefusal(errorReason(error)) }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !(error instanceof TRPCClientError && error.data?.httpStatus < 500) && count < 2,
      },
    },
  });
}

/** The WebSocket of the live events and the user it was opened for (one per signed-in user). */
let live: { client: TRPCWebSocketClient; userId: string } | null = null;

/**
 * After a 1012, how long the socket may take to reopen before the server is checked (and, if it
 * does not answer, the offline banner shows): a restart behind the proxy reconnects well within it (ms).
 */
const RESTART_QUIET_MS = 5_000;

/**
 * Milliseconds before reconnect attempt `attempt` (0 first). After a 1012 (`restart`) the first is
 * at once, spread over 0–250 ms so the pages of a stopping instance do not all arrive in the same
 * instant, then 250 ms, 500 ms, 1 s … at most 10 s; after any other close 0.5 s, 1 s, 2 s … at most
 * 10 s (decision 029).
 */
function reconnectDelayMs(attempt: number, restart: boolean): number {
  if (restart && attempt === 0) return Math.floor(Math.random() * 250);
  return Math.min((restart ? 250 : 500) * 2 ** attempt, 10_000);
}

/** ws://host/trpc or wss://host/trpc, beside the page. */
function liveUrl(): string {
  return `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/trpc`;
}

/**
 * The WebSocket client for subscriptions, opened on first use with the session's token in
 * connectionParams (the server checks it on connect, and again whenever it reconnects, with the
 * newest token: a renewed token keeps the same socket); a close with 4401 or 4403 (the token
 * refused) drops the session rather than reconnecting. Another user (sign-out, sign-in as
 * someone else) gets a new client; keep-alive pings notice a dead connection within seconds, and
 * the client then reconnects with the last event id it received (wsLink sends it), so nothing is
 * missed. A close with 1012 (the instance is stopping, decision 029) reconnects at once
 * (reconnectDelayMs) and checks the server only if the socket has not reopened within
 * RESTART_QUIET_MS, so a restart shows no offline banner.
 */
function liveClient(): TRPCWebSocketClient {
  const userId = readSession()?._id ?? "";
  if (live?.userId === userId) return live.client;
  closeLiveClient();
  // The token the current socket was opened with (a refusal of an older one than the stored one is not the session's end).
  let sentToken = "";
  // Set by a 1012 close until the socket reopens; the check of the server it postponed.
  let restarting = false;
  let quietCheck: number | null = null;
  const client = createWSClient({
    url: liveUrl,
    connectionParams: () => {
      sentToken = readSession()?.token ?? "";
      return { token: sentToken };
    },
    keepAlive: { enabled: true, intervalMs: 10_000, pongTimeoutMs: 5_000 },
    // 0.5 s, 1 s, 2 s … at most 10 s between attempts while the server is unreachable; at once after a 1012.
    retryDelayMs: (attempt) => reconnectDelayMs(attempt, restarting),
    // The server closes with 4401 / 4403 when it refuses the token, on connect or later (the session
    // ended, expired or the account was deactivated): drop the session (which closes this client)
    // instead of reconnecting with a token that cannot succeed. A token renewed meanwhile reconnects.
    onClose: (cause) => {
      const refused = cause?.code === SESSION_ENDED_CLOSE_CODE || cause?.code === DEACTIVATED_CLOSE_CODE;
      if (refused && live?.client === client && readSession()?.token === sentToken) writeSession(null);
      // Decision 029: the instance is stopping; reconnect at once and ask the server only if that takes long.
      else if (cause?.code === SERVICE_RESTART_CLOSE_CODE && live?.client === client) {
        restarting = true;
        if (quietCheck === null) {
          quietCheck = window.setTimeout(() => {
            quietCheck = null;
            if (live?.client === client) checkServer();
          }, RESTART_QUIET_MS);
        }
      }
      // A socket lost otherwise may mean the server is gone; ask it (the banner shows if not).
      else if (!refused && live?.client === client && !restarting) checkServer();
    },
    onOpen: () => {
      restarting = false;
      if (quietCheck !== null) window.clearTimeout(quietCheck);
      quietCheck = null;
      reportServerAnswer();
    },
  });
  live = { client, userId };
  return client;
}

/** Closes the WebSocket at once: its subscriptions end and nothing more is received on it. */
function closeLiveClient(): void {
  const current = live;
  live = null;
  void current?.client.close();
}

// Sign-out (or an ended session) closes the socket before any component has reacted.
subscribeSession(() => {
  if (live && live.userId !== (readSession()?._id ?? "")) closeLiveClient();
});

/** Sends each subscription over the current session's WebSocket (see liveClient). */
const liveLink: TRPCLink<AppRouter> = (runtime) => (ctx) => wsLink<AppRouter>({ client: liveClient() })(runtime)(ctx);

/**
 * The server's answer when a call has no valid session (missing, expired or revoked token; its
 * SIGN_IN_REQUIRED). Other 401s, such as a wrong admin password when creating an account, leave
 * the session alone.
 */
const SIGN_IN_REQUIRED = "You must be signed in.";

/** True when an error of the (batch) answer says the session is gone. */
async function sessionRefused(res: Response): Promise<boolean> {
  try {
    const body: unknown = await res.clone().json();
    const items = Array.isArray(body) ? body : [body];
    return items.some(
      (item) =>
        typeof item === "object" &&
        item !== null &&
        (item as { error?: { message?: unknown } }).error?.message === SIGN_IN_REQUIRED,
    );
  } catch {
    return false;
  }
}

/** True for the error of a fetch that was aborted on purpose (a cancelled query), not lost. */
function aborted(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "AbortError" || error.name === "TimeoutError");
}

/**
 * fetch, telling lib/connection whether the server answered: any answer, even
 * a 4xx or 5xx, means it is reachable; a network failure (no answer) that the connection is lost,
 * which holds further mutations until it returns. The failed call itself still fails: it may have
 * reached the server before the answer was lost, so it is shown as not sent rather than sent again.
 */
async function answerOrReport(url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    const res = await fetch(url, init);
    reportServerAnswer();
    return res;
  } catch (error) {
    if (!aborted(error)) reportNetworkFailure();
    throw error;
  }
}

/** Whether an answer's body is JSON (the server's own answers; a proxy's error page is not). */
function isJson(res: Response): boolean {
  return /\bjson\b/i.test(res.headers.get("content-type") ?? "");
}

/** Subscriptions go over the WebSocket, queries and mutations over batched HTTP. */
export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: liveLink,
        false: httpBatchLink({
          url: "/trpc",
          headers: () => {
            const token = readSession()?.token;
            return token ? { Authorization: `Bearer ${token}` } : {};
          },
          fetch: async (url, init) => {
            const res = await answerOrReport(url, init);
            // An expired or revoked token: drop the session so the route guard sends the user to /signin.
            if (res.status === 401 && readSession() && (await sessionRefused(res))) writeSession(null);
            // A failure that is not the server's own answer (a proxy's 502 page): said by its status
            // (SPEC §8 'An error occurred: {message}') rather than as a JSON parse error.
            if (!res.ok && !isJson(res)) throw new Error(`Request failed with status code ${res.status}`);
            return res;
          },
        }),
      }),
    ],
  });
}

/**
 * True when a call got no answer from the server (a network failure, SPEC §7.3 'No server
 * response'), not a refusal: it is shown with CONNECTION_ERROR (SPEC §7.3).
 */
export function isConnectionError(error: unknown): boolean {
  return error instanceof TRPCClientError && !error.data && /fetch|network/i.test(error.message);
}

/**
 * True when the server itself refused the call with a message of its own (a tRPC error answer);
 * false when the request failed on its way (no answer, or a proxy's error page).
 */
export function isServerRefusal(error: unknown): boolean {
  return error instanceof TRPCClientError && Boolean(error.data);
}

/** The message to show for a failed call: the server's, or the spec's connection message. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    if (isConnectionError(error)) return CONNECTION_ERROR;
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return UNEXPECTED_ERROR;
}

/**
 * The machine-readable reason of a refusal (`error.data.reason`, decision 038: e.g.
 * 'SECOND_FACTOR_REQUIRED'), or undefined when it has none.
 */
export function errorReason(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : undefined;
}
