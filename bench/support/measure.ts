import { performance } from "node:perf_hooks";
import { summarize, type Summary } from "./stats";

/** Calls made before the timed ones, so caches, plans and JIT are warm. */
const WARM_UP_CALLS = 10;

/**
 * Times `call`: WARM_UP_CALLS untimed calls, then `runs` timed ones, one after the other (each
 * gets its index i, 0-based, so it can vary its arguments). Prints one line: `name` padded to 52
 * characters and {"p50","p99","max"} of the wall times in ms with 2 decimals. Resolves to that
 * summary, in ms.
 */
export async function measure(name: string, runs: number, call: (i: number) => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < WARM_UP_CALLS; i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call(i);
    samples.push(performance.now() - start);
  }
  const summary = summarize(samples);
  const { p50, p99, max } = summary;
  console.log(
    `${name.padEnd(52)} ${JSON.stringify({ p50: p50.toFixed(2), p99: p99.toFixed(2), max: max.toFixed(2) })}`,
  );
  return summary;
}

/** Resolves to what `work` resolves to and the wall time it took, in seconds. */
export async function timedSeconds<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}
