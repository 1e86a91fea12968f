/**
 * Group statistics of a speech measure (decision 035, "Speech measures"): what the Dashboard's
 * table and the export's `measures-summary.csv` give per group (Control, Dementia). The quantiles
 * interpolate linearly between the closest ranks (Hyndman & Fan type 7: PostgreSQL's
 * percentile_cont, R's default, Excel's PERCENTILE.INC), so the SQL report and this agree.
 */

/** n, mean, sample SD (n − 1), median and the quartiles of a group's values; null where n is too small. */
export interface GroupStatistics {
  n: number;
  /** Null when n = 0. */
  mean: number | null;
  /** The sample standard deviation (divided by n − 1); null when n < 2. */
  sd: number | null;
  /** Null when n = 0. */
  median: number | null;
  /** The first and third quartiles (type 7); the IQR is q3 − q1. Null when n = 0. */
  q1: number | null;
  q3: number | null;
}

/** The `p` quantile (0 ≤ p ≤ 1) of ordered values, type 7: position p × (n − 1), interpolated linearly. */
function quantile(sorted: readonly number[], p: number): number {
  const position = p * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * Decision 035, "Speech measures": GroupStatistics of `values` (one per recording; non-finite
 * values such as NaN are left out).
 */
export function groupStatistics(values: readonly number[]): GroupStatistics {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n, mean: null, sd: null, median: null, q1: null, q3: null };
  const mean = sorted.reduce((sum, v) => sum + v, 0) / n;
  const sd = n < 2 ? null : Math.sqrt(sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  return { n, mean, sd, median: quantile(sorted, 0.5), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75) };
}
