// When to try a failed webhook delivery again (docs/decisions.md "Webhooks"; interface §6.5 rule 3 leaves
// the numbers open). Pure: the caller stores the returned time with the event, so a process restart
// in the middle of a schedule loses nothing.
import type { DeliveryResult } from './deliver-webhook.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Retries at about these offsets after the first try (docs/decisions.md): 8 retries, 9 attempts in all. */
export const RETRY_OFFSETS_MS: readonly number[] = [
  10 * SECOND,
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_OFFSETS_MS.length + 1;
/** ±10 % so that many events failing together do not come back together. */
export const RETRY_JITTER = 0.1;
/** A retry never starts sooner than this after the previous attempt ended (catch-up after downtime). */
export const MIN_RETRY_GAP_MS = 5 * SECOND;

export type AttemptSummary = Pick<DeliveryResult, 'outcome' | 'startedAt' | 'durationMs' | 'retryAfterMs'>;

/** The numbers of the schedule; tests pass short ones so a whole schedule runs in milliseconds. */
export interface RetrySchedule {
  offsetsMs: readonly number[];
  minGapMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  offsetsMs: RETRY_OFFSETS_MS,
  minGapMs: MIN_RETRY_GAP_MS,
};

/**
 * The time of the next attempt after attempt number `attemptNumber` (1 = first try) ended with
 * `result`, or null when there is none: success, 410 Gone (docs/decisions.md: stops retrying), or the
 * schedule is exhausted.
 *
 * - Attempt n+1 is due at firstTryAt + RETRY_OFFSETS_MS[n-1], scaled by a jitter factor in
 *   [0.9, 1.1) drawn once from `random`.
 * - Retry-After can postpone it, but only up to the following step of the schedule (docs/decisions.md:
 *   "honoured up to the next scheduled step"); it never brings it forward.
 * - It is never sooner than MIN_RETRY_GAP_MS (5 s) after this attempt ended, so attempts that run late
 *   (after downtime) do not burst through several past steps at once.
 */
export function nextAttemptAt(
  attemptNumber: number,
  firstTryAt: Date,
  result: AttemptSummary,
  random: () => number = Math.random,
  schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE,
): Date | null {
  const offsets = schedule.offsetsMs;
  if (result.outcome !== 'failure') return null;
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1 || attemptNumber > offsets.length) return null;
  const factor = 1 + (2 * random() - 1) * RETRY_JITTER;
  const first = firstTryAt.getTime();
  const scheduled = first + offsets[attemptNumber - 1]! * factor;
  const ended = result.startedAt.getTime() + result.durationMs;
  let at = scheduled;
  if (result.retryAfterMs !== null) {
    const following = offsets[attemptNumber];
    const cap = following === undefined ? scheduled : first + following * factor;
    at = Math.max(scheduled, Math.min(ended + result.retryAfterMs, cap));
  }
  return new Date(Math.round(Math.max(at, ended + schedule.minGapMs)));
}
