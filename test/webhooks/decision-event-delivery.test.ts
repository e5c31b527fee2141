// A decision's event from the database to a real receiver on 127.0.0.1: one event per decision,
// written in the decision's transaction, signed (checked here with node:crypto), matching the
// published JSON Schema (checked with ajv, not TypeBox), recorded, redelivered, signed after rotation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { rotateWebhookSecret } from '../../src/tenants/index.ts';
import {
  type DeliveryWorker,
  recordWebhookEvent,
  redeliverWebhookEvent,
  startWebhookDeliveryWorker,
  WebhookEventSessionError,
} from '../../src/webhooks/index.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import {
  addSession,
  approvedDecision,
  createTenantWithSession,
  readEvent,
  recordApproval,
  sessionOf,
  signatureIsValid,
  waitFor,
} from './event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

let platform: TestPlatform;
let app: FastifyInstance;
let receiver: LocalReceiver;
let worker: DeliveryWorker;
/** What the receiver answers next, per path; 200 when nothing is queued. */
const answers = new Map<string, number[]>();
let validatePayload: (value: unknown) => boolean;

before(async () => {
  platform = await createTestPlatform();
  app = await buildApp(platform);
  await app.ready();
  // The schema as a tenant gets it: from the API, validated by an independent validator.
  const schema = (await app.inject({ method: 'GET', url: '/schemas/webhook-payload.json' })).json();
  const ajv = new Ajv({ strict: false, allErrors: true });
  validatePayload = ajv.compile(schema);
  receiver = await startLocalReceiver((req, res) => {
    const status = answers.get(req.url)?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
  });
  worker = startWebhookDeliveryWorker(platform, {
    pollIntervalMs: 50,
    timeoutMs: 2_000,
    retrySchedule: { offsetsMs: [150, 300], minGapMs: 0 },
    random: () => 0.5,
  });
});

after(async () => {
  await worker?.stop();
  await receiver?.close();
  await app?.close();
  await platform?.close();
});

const requestsTo = (path: string) => receiver.received.filter((r) => r.url === path);

describe('decision events', () => {
  test('a decision reaches the receiver: signed, schema-valid, headers of docs/decisions.md, recorded as delivered', async () => {
    const { tenantId, webhookSecret, sessionId } = await createTenantWithSession(
      platform,
      receiver.url('/first'),
    );
    const eventId = await recordApproval(platform, tenantId, sessionId);
    assert.match(eventId, /^evt_[0-9A-Z]{26}$/);

    const [request] = await waitFor('the delivery', () =>
      requestsTo('/first').length ? requestsTo('/first') : undefined,
    );
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['x-service-event'], 'verification.approved');
    assert.equal(request.headers['x-service-delivery'], eventId);
    assert.equal(request.headers['x-service-attempt'], '1');
    assert.ok(signatureIsValid(request.body, request.headers, webhookSecret), 'HMAC-SHA256 of the raw body');
    assert.ok(!signatureIsValid(request.body, request.headers, `${webhookSecret}x`));
    const payload = JSON.parse(request.body.toString('utf8'));
    assert.ok(validatePayload(payload), JSON.stringify((validatePayload as { errors?: unknown }).errors));
    assert.equal(payload.verificationId, sessionId);
    assert.equal(payload.tenantId, tenantId);
    assert.equal(payload.results.ocr.payload.lastName, '山田');

    const { event, attempts } = await waitFor('the record', async () => {
      const read = await readEvent(platform, eventId);
      return read.event.state === 'delivered' ? read : undefined;
    });
    assert.equal(event.nextAttemptAt, null);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]!.httpStatus, 200);
    assert.equal(attempts[0]!.outcome, 'success');
    assert.equal(attempts[0]!.responseSnippet, 'ok');
    assert.equal(attempts[0]!.trigger, 'scheduled');
  });

  test('exactly one event per decision: the same generation decided again returns the first event', async () => {
    const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/once'));
    const first = await recordApproval(platform, tenantId, sessionId, 7);
    const session = await sessionOf(platform, sessionId);
    const again = await platform.database.db
      .transaction()
      .execute((trx) =>
        recordWebhookEvent(trx, platform, 'decision', approvedDecision(tenantId, sessionId, 7), session),
      );
    assert.deepEqual(again, { eventId: first, created: false });
    const rows = await platform.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    assert.equal(rows.length, 1);
    await waitFor('the delivery', () => (requestsTo('/once').length ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(requestsTo('/once').length, 1, 'one decision, one delivery');
  });

  test('the event commits with the decision: a rolled-back decision leaves no event and sends nothing', async () => {
    const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/rolled-back'));
    const session = await sessionOf(platform, sessionId);
    await assert.rejects(
      platform.database.db.transaction().execute(async (trx) => {
        await recordWebhookEvent(trx, platform, 'decision', approvedDecision(tenantId, sessionId), session);
        throw new Error('the decision failed after the event was written');
      }),
      /decision failed/,
    );
    const rows = await platform.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    assert.equal(rows.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(requestsTo('/rolled-back').length, 0);
  });

  test("an event for another tenant's session, or given another session's row, is refused", async () => {
    const one = await createTenantWithSession(platform, receiver.url('/a'));
    const other = await createTenantWithSession(platform, receiver.url('/b'));
    const [oneSession, otherSession] = [
      await sessionOf(platform, one.sessionId),
      await sessionOf(platform, other.sessionId),
    ];
    await assert.rejects(
      platform.database.db
        .transaction()
        .execute((trx) =>
          recordWebhookEvent(
            trx,
            platform,
            'decision',
            approvedDecision(other.tenantId, one.sessionId),
            oneSession,
          ),
        ),
      WebhookEventSessionError,
    );
    await assert.rejects(
      platform.database.db
        .transaction()
        .execute((trx) =>
          recordWebhookEvent(
            trx,
            platform,
            'decision',
            approvedDecision(one.tenantId, one.sessionId),
            otherSession,
          ),
        ),
      WebhookEventSessionError,
    );
    const rows = await platform.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('session_id', 'in', [one.sessionId, other.sessionId])
      .execute();
    assert.equal(rows.length, 0);
  });

  test('retries send byte-identical bodies with the same delivery id and counting attempts; the schedule ends in failed', async () => {
    answers.set('/always-500', [500, 500, 500]);
    const { tenantId, webhookSecret, sessionId } = await createTenantWithSession(
      platform,
      receiver.url('/always-500'),
    );
    const eventId = await recordApproval(platform, tenantId, sessionId);
    const { event, attempts } = await waitFor('the end of the schedule', async () => {
      const read = await readEvent(platform, eventId);
      return read.event.state === 'failed' ? read : undefined;
    });
    const requests = requestsTo('/always-500');
    assert.equal(requests.length, 3, 'first try + 2 retries of the test schedule');
    assert.deepEqual(
      requests.map((r) => r.headers['x-service-attempt']),
      ['1', '2', '3'],
    );
    for (const r of requests) {
      assert.equal(r.headers['x-service-delivery'], eventId);
      assert.ok(r.body.equals(requests[0]!.body), 'same bytes on every attempt');
      assert.ok(signatureIsValid(r.body, r.headers, webhookSecret));
    }
    assert.equal(event.nextAttemptAt, null);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.outcome, a.httpStatus, a.errorClass, a.nextAttemptAt === null]),
      [
        [1, 'failure', 500, 'http_status', false],
        [2, 'failure', 500, 'http_status', false],
        [3, 'failure', 500, 'http_status', true],
      ],
    );
    // Offsets of 150 and 300 ms after the first try (jitter pinned to 0).
    const first = attempts[0]!.startedAt.getTime();
    assert.ok(attempts[1]!.startedAt.getTime() - first >= 150, 'second attempt not before its offset');
    assert.ok(attempts[2]!.startedAt.getTime() - first >= 300, 'third attempt not before its offset');
  });

  test('redeliver: one new attempt now with the same bytes, recorded as manual', async () => {
    const { tenantId, sessionId } = await createTenantWithSession(platform, receiver.url('/redeliver'));
    const eventId = await recordApproval(platform, tenantId, sessionId);
    await waitFor('delivery', async () =>
      (await readEvent(platform, eventId)).event.state === 'delivered' ? true : undefined,
    );
    const outcome = await redeliverWebhookEvent(platform, eventId);
    assert.ok(outcome);
    assert.equal(outcome.attempt, 2);
    assert.equal(outcome.state, 'delivered');
    const requests = requestsTo('/redeliver');
    assert.equal(requests.length, 2);
    assert.equal(requests[1]!.headers['x-service-attempt'], '2');
    assert.equal(requests[1]!.headers['x-service-delivery'], eventId);
    assert.ok(requests[1]!.body.equals(requests[0]!.body));
    const { attempts } = await readEvent(platform, eventId);
    assert.deepEqual(
      attempts.map((a) => a.trigger),
      ['scheduled', 'manual'],
    );
    assert.equal(await redeliverWebhookEvent(platform, 'evt_NOPE'), undefined);
  });

  test('after rotation every attempt, retries of older events included, is signed with the new secret', async () => {
    answers.set('/rotate', [500]);
    const {
      tenantId,
      webhookSecret: oldSecret,
      sessionId,
    } = await createTenantWithSession(platform, receiver.url('/rotate'));
    const eventId = await recordApproval(platform, tenantId, sessionId);
    await waitFor('the failed first try', () => (requestsTo('/rotate').length === 1 ? true : undefined));
    const { webhookSecret: newSecret } = await rotateWebhookSecret(platform, tenantId);
    assert.notEqual(newSecret, oldSecret);
    assert.match(newSecret, /^whsec_[0-9A-Za-z]{40}$/);
    const second = await addSession(platform, tenantId, receiver.url('/rotate'));
    await recordApproval(platform, tenantId, second);
    await waitFor('the retry and the new event', () =>
      requestsTo('/rotate').length === 3 ? true : undefined,
    );
    const [first, ...later] = requestsTo('/rotate');
    assert.ok(signatureIsValid(first!.body, first!.headers, oldSecret));
    for (const r of later) {
      assert.ok(signatureIsValid(r.body, r.headers, newSecret));
      assert.ok(!signatureIsValid(r.body, r.headers, oldSecret));
    }
    assert.ok(
      later.some(
        (r) => r.headers['x-service-delivery'] === eventId && r.headers['x-service-attempt'] === '2',
      ),
    );
  });
});
