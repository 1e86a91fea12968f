import autocannon from "autocannon";
import { cpuTimeMs, type ChildServer } from "./child-process";

/** One GET to load: a name to print, the path (with its query) and the Bearer token, if any. */
export interface Load {
  name: string;
  path: string;
  token: string | null;
}

/** What loading one path measured. */
export interface Measured {
  requestsPerSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  failures: number;
  /** The server process's CPU time per answered request, in ms. */
  cpuPerRequestMs: number;
}

/**
 * Loads GET `server.baseUrl + load.path` with autocannon, `connections` connections for
 * `duration` seconds; resolves to its figures. Never rejects for failed requests (they are
 * counted in `failures`).
 */
export async function hammer(
  server: ChildServer,
  load: Load,
  { connections, duration }: { connections: number; duration: number },
): Promise<Measured> {
  const cpuBefore = cpuTimeMs(server.pid);
  const result = await autocannon({
    url: server.baseUrl + load.path,
    connections,
    duration,
    headers: load.token ? { authorization: `Bearer ${load.token}` } : {},
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuPerRequestMs: (cpuTimeMs(server.pid) - cpuBefore) / Math.max(1, result.requests.total),
  };
}

/** GET /trpc/<procedure> with its input (none when undefined), as the web app's tRPC client sends a query. */
export function trpcPath(procedure: string, input?: unknown): string {
  if (input === undefined) return `/trpc/${procedure}`;
  return `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/**
 * One printed line: `name`, requests per second, p50 and p99 (ms), CPU per request, the share of
 * `base`'s requests per second (`baseName`, e.g. "floor"), and the verdict text.
 */
export function loadLine(name: string, m: Measured, base: Measured | null, baseName: string, verdict: string): string {
  const ratio = base ? `${((m.requestsPerSecond / base.requestsPerSecond) * 100).toFixed(0)}%` : "-";
  return (
    `${name.padEnd(52)} ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms` +
    `  p99 ${String(m.p99).padStart(4)} ms  CPU ${m.cpuPerRequestMs.toFixed(2)} ms/req  ${ratio.padStart(5)} of ${baseName}  ${verdict}`
  );
}
