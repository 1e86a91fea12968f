import { parseArgs } from "node:util";

/**
 * `value` of the command-line option `--<name>` as a whole number of at least `min`; throws a
 * message naming the option otherwise.
 */
export function wholeNumber(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number of at least ${min} (got ${value}).`);
  return n;
}

/**
 * `value` of the command-line option `--<name>` as a number of ms, at least 0; undefined when
 * the option was not given. Throws a message naming the option otherwise.
 */
export function optionalMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!(ms >= 0)) throw new Error(`--${name} must be a number of ms.`);
  return ms;
}

/** The options the database benchmarks (lists, reports) take, parsed. */
export interface BenchOptions {
  /** The seed's size: `--<sizeOption>`, a whole number of at least 100. */
  size: number;
  /** Timed calls per measurement: `--runs`, a whole number of at least 1 (default 200). */
  runs: number;
  /** `--explain <ms>`: the threshold in ms above which a measurement is explained; undefined without it. */
  explainOverMs: number | undefined;
}

/**
 * Parses the process's arguments as `[--<sizeOption> <n>] [--runs <n>] [--explain <ms>]`, with
 * `defaultSize` for a missing `--<sizeOption>`; throws on an unknown option or a bad value.
 */
export function benchOptions(sizeOption: string, defaultSize: number): BenchOptions {
  const { values } = parseArgs({
    options: {
      [sizeOption]: { type: "string", default: String(defaultSize) },
      runs: { type: "string", default: "200" },
      explain: { type: "string" },
    },
  });
  const text = (name: string) => values[name] as string;
  return {
    size: wholeNumber(sizeOption, text(sizeOption), 100),
    runs: wholeNumber("runs", text("runs"), 1),
    explainOverMs: optionalMs("explain", values.explain as string | undefined),
  };
}
