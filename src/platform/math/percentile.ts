// Percentiles for the benches' timings (the nearest-rank percentile, always one of the measured
// values) and the document-spoof cues' pixel statistics (quantileAtFloor, their calibrated definition).

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

/**
 * The value at place ⌊q·n⌋ of the values in ascending order (q from 0 to 1), 0 when there are none:
 * the document-spoof cues' pixel statistic, whose thresholds were calibrated on it. It is not the
 * nearest rank: when q·n is a whole number it takes the next value up (0.9 of ten values is the
 * largest here, the ninth by nearest rank), so the cues keep their own definition under its own name.
 */
export function quantileAtFloor(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return 0;
  // A typed array's own numeric sort: the same order as a comparator sort, several times quicker
  // on a line's thousands of pixels.
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
