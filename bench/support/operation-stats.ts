import { performance } from "node:perf_hooks";
import { NoAnswer } from "./keep-alive-client";
import { summarize, type Summary } from "./stats";

/**
 * How a request ended: answered 2xx/304 (ok); refused by a documented rule the simulation runs
 * into on purpose (e.g. 409 for a review another admin won); any other 4xx (unexpected: the
 * simulation or the server is wrong); 5xx; or no answer at all.
 */
export type Outcome = "ok" | "refused" | "unexpected" | "server error" | "no answer";

/** What one operation measured. */
export interface OperationFigures {
  name: string;
  /** Requests answered (any status); the times are theirs. */
  count: number;
  times: Summary;
  byOutcome: Record<Outcome, number>;
  /** Answers per status ("0" for no answer). */
  byStatus: Map<string, number>;
}

/** Messages kept per operation and outcome, to show what went wrong. */
const EXAMPLES = 3;

/** One request: when it started (performance.now()), how long it took (NaN: no answer), how it ended. */
interface Request {
  at: number;
  ms: number;
  status: number;
  outcome: Outcome;
}

/**
 * Per-operation figures of a load run: every request's start, wall time and how it ended, and a
 * few messages of every outcome other than ok. One instance serves all simulated users; figures
 * can be read over the whole run or from a moment on (e.g. once everybody has signed in).
 */
export class OperationStats {
  private readonly requests = new Map<string, Request[]>();
  /** A few messages per "<operation> <status> (<outcome>)", outcomes other than ok. */
  readonly examples = new Map<string, string[]>();

  /** Counts one request of `name` started at `at` that took `ms` (NaN: no answer) and ended with `status` as `outcome`. */
  record(name: string, at: number, ms: number, status: number, outcome: Outcome, message?: string): void {
    let requests = this.requests.get(name);
    if (!requests) this.requests.set(name, (requests = []));
    requests.push({ at, ms, status, outcome });
    if (outcome !== "ok") {
      const key = `${name} ${status} (${outcome})`;
      const kept = this.examples.get(key) ?? [];
      if (kept.length < EXAMPLES && message !== undefined && !kept.includes(message)) kept.push(message);
      this.examples.set(key, kept);
    }
  }

  /**
   * Runs `call` as one request of operation `name`, timed, and records how it ended: a status
   * from 200 to 299 or 304 is ok, `refused(answer)` true a documented refusal, other 4xx
   * unexpected, 5xx a server error, a NoAnswer rejection no answer (then resolves to undefined;
   * other rejections pass through). Resolves to the answer.
   */
  async time<T extends { status: number; message?: string | undefined }>(
    name: string,
    call: () => Promise<T>,
    refused: (answer: T) => boolean = () => false,
  ): Promise<T | undefined> {
    const start = performance.now();
    let answer: T;
    try {
      answer = await call();
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
      this.record(name, start, Number.NaN, 0, "no answer", error.message);
      return undefined;
    }
    const ms = performance.now() - start;
    const { status } = answer;
    const outcome: Outcome =
      (status >= 200 && status < 300) || status === 304
        ? "ok"
        : status >= 500
          ? "server error"
          : refused(answer)
            ? "refused"
            : "unexpected";
    this.record(name, start, ms, status, outcome, answer.message);
    return answer;
  }

  /**
   * Every operation's figures over the requests started in [from, to) (performance.now() times;
   * default: all), in the order operations were first recorded.
   */
  figures(from = 0, to = Number.POSITIVE_INFINITY): OperationFigures[] {
    const out: OperationFigures[] = [];
    for (const [name, all] of this.requests) {
      const requests = all.filter((r) => r.at >= from && r.at < to);
      if (requests.length === 0) continue;
      const byOutcome: Record<Outcome, number> = {
        ok: 0,
        refused: 0,
        unexpected: 0,
        "server error": 0,
        "no answer": 0,
      };
      const byStatus = new Map<string, number>();
      for (const r of requests) {
        byOutcome[r.outcome] += 1;
        byStatus.set(String(r.status), (byStatus.get(String(r.status)) ?? 0) + 1);
      }
      const times = requests.filter((r) => !Number.isNaN(r.ms)).map((r) => r.ms);
      out.push({ name, count: times.length, times: summarize(times), byOutcome, byStatus });
    }
    return out;
  }

  /** Requests that ended with `outcome`, over every operation and the whole run. */
  total(outcome: Outcome): number {
    let n = 0;
    for (const requests of this.requests.values()) for (const r of requests) if (r.outcome === outcome) n += 1;
    return n;
  }
}
