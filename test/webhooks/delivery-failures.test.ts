// Each way a receiver can fail and the step the worker takes next: retry on the
// schedule, stop on 410, never follow a redirect. The 5 s limit and the schedule are shortened so
// the whole table runs in seconds.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import {
  createTenantWithSession,
  readEvent,
  recordApproval,
  waitFor,
  warmUpDelivery,
} from './event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

const TIMEOUT_MS = 1000;
const SCHEDULE = { offsetsMs: [1500, 3000], minGapMs: 0 };

let platform: TestPlatform;
let receiver: LocalReceiver;
let worker: DeliveryWorker;
let refusedUrl: string;

before(async () => {
  platform = await createTestPlatform();
  receiver = await startLocalReceiver((req, res) => {
    switch (req.url) {
      case '/hang':
        return; // never answers
      case '/endless-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('still thinking'); // …and never ends
        return;
      case '/redirect':
        res.writeHead(302, { location: receiver.url('/redirect-target') }).end('moved');
        return;
      case '/retry-after':
        res.writeHead(503, { 'retry-after': '2' }).end('busy');
        return;
      default:
        res
          .writeHead(Number(req.url.slice(1)), { 'content-type': 'text/plain' })
          .end(`status ${req.url.slice(1)}`);
    }
  });
  // A port nothing listens on: bind one, then free it.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await warmUpDelivery(platform, receiver.url('/200'));
  worker = startWebhookDeliveryWorker(platform, {
    pollIntervalMs: 50,
    timeoutMs: TIMEOUT_MS,
    retrySchedule: SCHEDULE,
    random: () => 0.5,
  });
});

after(async () => {
  await worker?.stop();
  await receiver?.close();
  await platform?.close();
});

const cases: [label: string, url: () => string, errorClass: string, status: number | null][] = [
  ['no answer within the limit', () => receiver.url('/hang'), 'timeout', null],
  ['a body that never ends', () => receiver.url('/endless-body'), 'timeout', 200],
  ['connection refused', () => refusedUrl, 'connection_refused', null],
  ['500', () => receiver.url('/500'), 'http_status', 500],
  ['404', () => receiver.url('/404'), 'http_status', 404],
  ['3xx (not followed)', () => receiver.url('/redirect'), 'redirect', 302],
];

test('every failure class is recorded and retried on the schedule with the same bytes', async () => {
  // Sessions first, then the decisions: on PGlite every query runs on the thread the deliveries
  // use, and a burst of setup queries would eat into the shortened time limit.
  const sessions: Awaited<ReturnType<typeof createTenantWithSession>>[] = [];
  for (const [, url] of cases) sessions.push(await createTenantWithSession(platform, url()));
  const events: { eventId: string }[] = [];
  for (const { tenantId, sessionId } of sessions) {
    events.push({ eventId: await recordApproval(platform, tenantId, sessionId) });
  }
  // The schedule runs to its end: three failed attempts, then failed.
  await waitFor(
    'the end of every schedule',
    async () => {
      const open = await platform.database.db
        .selectFrom('webhook_events')
        .select('id')
        .where(
          'id',
          'in',
          events.map((e) => e.eventId),
        )
        .where('state', '!=', 'failed')
        .execute();
      return open.length === 0 ? true : undefined;
    },
    20_000,
  );
  await Promise.all(
    cases.map(async ([label, , errorClass, status], i) => {
      const { event, attempts } = await readEvent(platform, events[i]!.eventId);
      assert.equal(attempts.length, 3, label);
      for (const attempt of attempts) {
        assert.equal(attempt.outcome, 'failure', label);
        assert.equal(
          attempt.errorClass,
          errorClass,
          `${label} #${attempt.attempt} after ${attempt.durationMs} ms: ${attempt.errorMessage} ${JSON.stringify(attempts)}`,
        );
        assert.equal(attempt.httpStatus, status, label);
        if (errorClass === 'timeout')
          assert.ok(attempt.durationMs >= TIMEOUT_MS - 5, `${label}: ${attempt.durationMs}`);
      }
      const first = attempts[0]!.startedAt.getTime();
      assert.ok(attempts[0]!.nextAttemptAt, `${label}: a retry was scheduled`);
      assert.ok(
        attempts[1]!.startedAt.getTime() - first >= SCHEDULE.offsetsMs[0]!,
        `${label}: first retry on time`,
      );
      assert.ok(
        attempts[2]!.startedAt.getTime() - first >= SCHEDULE.offsetsMs[1]!,
        `${label}: second retry on time`,
      );
      assert.equal(attempts[2]!.nextAttemptAt, null, `${label}: nothing after the last step`);
      assert.equal(event.nextAttemptAt, null);
    }),
  );
  const endless = receiver.received.filter((r) => r.url === '/endless-body');
  assert.equal(endless.length, 3);
  assert.ok(
    endless.every((r) => r.body.equals(endless[0]!.body)),
    'same bytes on every attempt',
  );
  assert.equal(
    receiver.received.filter((r) => r.url === '/redirect-target').length,
    0,
    'redirect not followed',
  );
});

test('410 Gone stops at once: no further attempt', async () => {
  const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/410'));
  const eventId = await recordApproval(platform, tenantId, sessionId);
  const { attempts } = await waitFor('gone', async () => {
    const read = await readEvent(platform, eventId);
    return read.event.state === 'gone' ? read : undefined;
  });
  assert.deepEqual(
    attempts.map((a) => [a.outcome, a.httpStatus, a.nextAttemptAt]),
    [['gone', 410, null]],
  );
  assert.equal(attempts[0]!.responseSnippet, 'status 410');
  await new Promise((resolve) => setTimeout(resolve, SCHEDULE.offsetsMs[0]! + 200));
  assert.equal(receiver.received.filter((r) => r.url === '/410').length, 1);
});

test('Retry-After postpones the retry, up to the next step of the schedule', async () => {
  const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/retry-after'));
  const eventId = await recordApproval(platform, tenantId, sessionId);
  const { attempts } = await waitFor('the second attempt', async () => {
    const read = await readEvent(platform, eventId);
    return read.attempts.length >= 2 ? read : undefined;
  });
  const first = attempts[0]!;
  const ended = first.startedAt.getTime() + first.durationMs;
  // Retry-After: 2 s is later than the 1500 ms step and capped by the 3000 ms one.
  assert.ok(first.nextAttemptAt!.getTime() >= Math.min(ended + 2000, first.startedAt.getTime() + 3000) - 5);
  assert.ok(attempts[1]!.startedAt.getTime() >= first.nextAttemptAt!.getTime());
});

test('the SSRF guard follows config.env: production refuses a loopback callback, records why and fails the event at once', async () => {
  await worker.stop();
  const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/200'));
  const production = { ...platform, config: { ...platform.config, env: 'production' as const } };
  const productionWorker = startWebhookDeliveryWorker(production, {
    pollIntervalMs: 50,
    timeoutMs: TIMEOUT_MS,
    retrySchedule: SCHEDULE,
  });
  try {
    const before = receiver.received.length;
    const eventId = await recordApproval(platform, tenantId, sessionId);
    const { attempts, event } = await waitFor('the refused attempt', async () => {
      const read = await readEvent(platform, eventId);
      return read.attempts.length ? read : undefined;
    });
    assert.equal(attempts[0]!.errorClass, 'ssrf_refused');
    assert.equal(attempts[0]!.httpStatus, null);
    assert.equal(receiver.received.length, before, 'nothing was sent');
    // The address will not become public by waiting: no retry schedule (two days of attempts).
    assert.equal(event.state, 'failed');
    assert.equal(event.nextAttemptAt, null);
    assert.equal(attempts[0]!.nextAttemptAt, null);
    await new Promise((resolve) => setTimeout(resolve, SCHEDULE.offsetsMs[0]! + 300));
    assert.equal((await readEvent(platform, eventId)).attempts.length, 1, 'not tried again');
  } finally {
    await productionWorker.stop();
  }
});
