// Percentiles for the benches' timings and the checks' pixel statistics: one definition, the
// nearest-rank percentile, which is always one of the measured values.

/** The p-th percentile (p from 0 to 100) of an ascending list by nearest rank; NaN when it is empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** percentile of a list in any order (sorted in a copy). */
export function percentileOf(values: readonly number[], p: number): number {
  return percentile(Float64Array.from(values).sort(), p);
}
