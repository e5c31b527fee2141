// What the bench asks the load-generator process to do, and what it gets back.
import type { LatencySummary } from './latency-summary.ts';

export interface LoadTarget {
  /** http://127.0.0.1:port */
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type LoadMode =
  /** Closed loop: every connection sends its next request as soon as the last one is answered. */
  | { kind: 'max' }
  /** autocannon's overallRate: a per-second quota, sent in bursts. */
  | { kind: 'autocannon-rate'; rate: number }
  /** Open loop at a constant rate (paced-load.ts). */
  | { kind: 'paced'; rate: number };

export interface LoadSpec {
  target: LoadTarget;
  mode: LoadMode;
  connections: number;
  pipelining: number;
  durationS: number;
}

export interface LoadResult {
  durationS: number;
  completed: number;
  reqPerSec: number;
  latency: LatencySummary;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}
