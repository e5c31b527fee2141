// Exact percentiles from every response time recorded (autocannon's own histogram keeps whole
// milliseconds, too coarse for a bare server whose median is well under 1 ms).
import { percentile } from '../../src/platform/math/percentile.ts';

export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** A growable list of response times in milliseconds. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private length = 0;

  record(ms: number) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = ms;
  }

  summarise(): LatencySummary {
    const sorted = this.values.slice(0, this.length).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      count: sorted.length,
      meanMs: sorted.length ? sum / sorted.length : Number.NaN,
      p50Ms: percentile(sorted, 50),
      p90Ms: percentile(sorted, 90),
      p95Ms: percentile(sorted, 95),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    };
  }
}
