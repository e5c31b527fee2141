import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeliveryOutcome } from '../../src/webhooks/deliver-webhook.ts';
import { type AttemptSummary, MAX_ATTEMPTS, nextAttemptAt } from '../../src/webhooks/retry-schedule.ts';

const t0 = new Date('2025-03-01T00:00:00.000Z');
const noJitter = () => 0.5;
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const designOffsets = [10 * s, 1 * m, 5 * m, 30 * m, 2 * h, 6 * h, 12 * h, 24 * h];

/** An attempt that started on time (at `offset` after t0) and took 100 ms. */
function attempt(
  offset: number,
  outcome: DeliveryOutcome = 'failure',
  retryAfterMs: number | null = null,
): AttemptSummary {
  return { outcome, startedAt: new Date(t0.getTime() + offset), durationMs: 100, retryAfterMs };
}

test('failed attempts are retried at 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h after the first try', () => {
  const times: number[] = [];
  let startedAt = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) {
    const next = nextAttemptAt(n, t0, attempt(startedAt), noJitter);
    assert.ok(next, `after attempt ${n}`);
    startedAt = next.getTime() - t0.getTime();
    times.push(startedAt);
  }
  assert.deepEqual(times, designOffsets);
  assert.equal(MAX_ATTEMPTS, 9);
});

test('after the ninth attempt fails there is no further attempt', () => {
  assert.equal(nextAttemptAt(9, t0, attempt(24 * h), noJitter), null);
  assert.equal(nextAttemptAt(10, t0, attempt(25 * h), noJitter), null);
});

test('success and 410 Gone stop the schedule', () => {
  assert.equal(nextAttemptAt(1, t0, attempt(0, 'success'), noJitter), null);
  assert.equal(nextAttemptAt(1, t0, attempt(0, 'gone'), noJitter), null);
  assert.equal(nextAttemptAt(4, t0, attempt(5 * m, 'gone', 1000), noJitter), null);
});

test('jitter stays within ±10 % of each step and uses the injected random source', () => {
  for (const [i, offset] of designOffsets.entries()) {
    const low = nextAttemptAt(i + 1, t0, attempt(i === 0 ? 0 : designOffsets[i - 1]!), () => 0);
    const high = nextAttemptAt(i + 1, t0, attempt(i === 0 ? 0 : designOffsets[i - 1]!), () => 0.999999);
    assert.ok(low && high);
    const lowOffset = low.getTime() - t0.getTime();
    const highOffset = high.getTime() - t0.getTime();
    assert.ok(lowOffset >= offset * 0.9 && lowOffset < offset, `${offset}: ${lowOffset}`);
    assert.ok(highOffset > offset && highOffset <= offset * 1.1, `${offset}: ${highOffset}`);
  }
  const spread = new Set(
    [0.1, 0.3, 0.7, 0.9].map((r) => nextAttemptAt(5, t0, attempt(30 * m), () => r)?.getTime()),
  );
  assert.equal(spread.size, 4);
});

test('Retry-After postpones the retry', () => {
  // Attempt 1 ended at 0.1 s and asked for 30 s: later than the 10 s step, earlier than the 1 min step.
  const next = nextAttemptAt(1, t0, attempt(0, 'failure', 30 * s), noJitter);
  assert.equal(next?.getTime(), t0.getTime() + 30_100);
});

test('Retry-After never postpones beyond the following step of the schedule', () => {
  const next = nextAttemptAt(1, t0, attempt(0, 'failure', 6 * h), noJitter);
  assert.equal(next?.getTime(), t0.getTime() + 1 * m);
  const afterThird = nextAttemptAt(3, t0, attempt(1 * m, 'failure', 24 * h), noJitter);
  assert.equal(afterThird?.getTime(), t0.getTime() + 30 * m);
});

test('a short Retry-After does not bring the retry forward', () => {
  // Attempt 2 (at 10 s) fails; attempt 3 stays at the 1 min step.
  const next = nextAttemptAt(2, t0, attempt(10 * s, 'failure', 1 * s), noJitter);
  assert.equal(next?.getTime(), t0.getTime() + 1 * m);
});

test('Retry-After on the last retry keeps the 24 h step', () => {
  const next = nextAttemptAt(8, t0, attempt(12 * h, 'failure', 48 * h), noJitter);
  assert.equal(next?.getTime(), t0.getTime() + 24 * h);
});

test('an attempt that ran late (after downtime) is followed no sooner than 5 s after it ended', () => {
  // Attempt 2 was due at 10 s but ran 3 h later; the 5 min step is long past.
  const late: AttemptSummary = {
    outcome: 'failure',
    startedAt: new Date(t0.getTime() + 3 * h),
    durationMs: 5000,
    retryAfterMs: null,
  };
  const next = nextAttemptAt(2, t0, late, noJitter);
  assert.equal(next?.getTime(), t0.getTime() + 3 * h + 5000 + 5 * s);
  // Steps still count from the first try: attempt 7 is due at 6 h whatever happened before.
  const seventh = nextAttemptAt(6, t0, late, noJitter);
  assert.equal(seventh?.getTime(), t0.getTime() + 6 * h);
});
