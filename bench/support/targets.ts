import type { Summary } from "./stats";

/**
 * The targets for a list, report, search or count, by server time p99 in ms: 100 ms on
 * PostgreSQL (the team report 50 ms), 250 ms on PGlite (the team report too).
 */
export function p99TargetMs(engine: "PostgreSQL" | "PGlite", kind: "list" | "team report"): number {
  if (engine === "PGlite") return 250;
  return kind === "team report" ? 50 : 100;
}

/** "PASS" when `summary.p99` is under `targetMs`, "FAIL" otherwise, with the target: e.g. "PASS (p99 < 100 ms)". */
export function verdict(summary: Pick<Summary, "p99">, targetMs: number): string {
  return `${summary.p99 < targetMs ? "PASS" : "FAIL"} (p99 < ${targetMs} ms)`;
}

/** Counts the FAIL lines of a run, so the benchmark can exit non-zero when a target is missed. */
export class Verdicts {
  failed: string[] = [];
  /** Records whether `name` met its target; returns the verdict text. */
  record(name: string, passed: boolean, text: string): string {
    if (!passed) this.failed.push(name);
    return text;
  }
  /** Prints the summary line and sets process.exitCode to 1 when any target was missed. */
  finish(): void {
    if (this.failed.length === 0) {
      console.log("\nEvery line met its target.");
      return;
    }
    console.log(`\n${this.failed.length} line(s) missed the target: ${this.failed.join("; ")}`);
    process.exitCode = 1;
  }
}
