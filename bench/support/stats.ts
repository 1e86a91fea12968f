/** p50, p99 and max of a sample, in the sample's unit (nearest-rank percentiles). */
export interface Summary {
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank p50/p99/max of `samples` (NaN for an empty sample). */
export function summarize(samples: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(samples).sort();
  if (sorted.length === 0) return { p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}
