import { Counter, Histogram } from "prom-client";
import { metricsRegistry } from "./registry";

/** The background jobs that count their runs (decision 028). */
export type MetricsJob = "export" | "backup" | "sweep" | "waveform" | "retention" | "anchors";
/** How a run ended. */
export type MetricsJobResult = "ok" | "failed";

const JOBS: readonly MetricsJob[] = ["export", "backup", "sweep", "waveform", "retention", "anchors"];
const RESULTS: readonly MetricsJobResult[] = ["ok", "failed"];

const jobRuns = new Counter({
  name: "tafsiri_job_runs_total",
  help: "Runs of background jobs, by job (export, backup, sweep, waveform, retention, anchors) and result (ok, failed).",
  labelNames: ["job", "result"] as const,
  registers: [metricsRegistry],
});

const jobDuration = new Histogram({
  name: "tafsiri_job_duration_seconds",
  help: "How long background job runs took, in seconds, by job and result.",
  labelNames: ["job", "result"] as const,
  buckets: [0.01, 0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600],
  registers: [metricsRegistry],
});

// Every job and result is listed from the start (at 0), so rate() and alerts see a series
// before the first run or the first failure.
for (const job of JOBS) {
  for (const result of RESULTS) {
    jobRuns.inc({ job, result }, 0);
    jobDuration.zero({ job, result });
  }
}

/**
 * Counts one finished run of a background job: `job` (export, backup, sweep, waveform,
 * retention, anchors: a page anchor rebuild round), `result` ("ok" or "failed") and how long it took in `seconds`. Synchronous,
 * never throws, costs a few additions; works whether or not metrics are served.
 * Decision 028.
 */
export function jobRun(job: MetricsJob, result: MetricsJobResult, seconds: number): void {
  jobRuns.inc({ job, result });
  jobDuration.observe({ job, result }, seconds);
}

/**
 * Runs `work` and counts it as one run of `job` with {@link jobRun}: "ok" when the promise
 * it returns resolves, "failed" when it rejects (the error is passed on unchanged). Returns
 * what `work` returns. Decision 028.
 */
export async function timeJob<T>(job: MetricsJob, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const value = await work();
    jobRun(job, "ok", (performance.now() - started) / 1000);
    return value;
  } catch (error) {
    jobRun(job, "failed", (performance.now() - started) / 1000);
    throw error;
  }
}
