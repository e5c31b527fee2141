// POST /v1/verification-sessions/{sessionId}/review (docs/console-api.md): the
// rules a tenant's back office meets, and the webhook with the review field arriving at a real
// receiver on 127.0.0.1, validated against the published schema by an independent validator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { createApiKey } from '../../src/api-keys/index.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { ApiClient, countWrites } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { signatureIsValid, waitFor } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';
import { countRows, decidedSession, storeCheckResult, withTenantSettings } from './review-fixture.ts';

let platform: TestPlatform;
let api: ApiClient;
let otherApi: ApiClient;
let receiver: LocalReceiver;
let worker: DeliveryWorker;
let webhookSecret: string;
let keyId: string;
let validatePayload: ((value: unknown) => boolean) & { errors?: unknown };

before(async () => {
  platform = await createTestPlatform();
  receiver = await startLocalReceiver((_req, res) => res.writeHead(200).end('ok'));
  const tenant = await createTenant(platform, {
    name: 'Review tenant',
    callbackUrlPrefixes: [receiver.url('/')],
  });
  webhookSecret = tenant.webhookSecret;
  const key = await createApiKey(platform, tenant.tenantId, 'back office');
  keyId = key.keyId;
  api = await ApiClient.start(platform, key.apiKey);
  const other = await createTenant(platform, {
    name: 'Other tenant',
    callbackUrlPrefixes: [receiver.url('/')],
  });
  otherApi = new ApiClient(api.app, (await createApiKey(platform, other.tenantId, 'other')).apiKey);
  const schema = (await api.app.inject({ method: 'GET', url: '/schemas/webhook-payload.json' })).json();
  validatePayload = new Ajv({ strict: false, allErrors: true }).compile(schema);
  worker = startWebhookDeliveryWorker(platform, { pollIntervalMs: 50, timeoutMs: 2_000 });
});

after(async () => {
  await worker?.stop();
  await receiver?.close();
  await api?.app.close();
  await platform?.close();
});

const review = (sessionId: string, body: unknown, client = api) =>
  client.app.inject({
    method: 'POST',
    url: `/v1/verification-sessions/${sessionId}/review`,
    headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
const approve = {
  decision: 'approved',
  reason: 'Licence checked against the original at the counter',
  reviewedBy: 'kyc@tenant.example',
};
const pending = (path: string, statuses?: Parameters<typeof decidedSession>[3]) =>
  decidedSession(platform, api, receiver.url(path), statuses);

describe('POST /v1/verification-sessions/{id}/review', () => {
  test("approves a pending_review case: 200 detail with the reviewer's decision, one decision row, audit row, webhook with review", async () => {
    const sessionId = await pending('/approve');
    const res = await review(sessionId, approve);
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json();
    assert.equal(detail.sessionId, sessionId);
    assert.equal(detail.verification.status, 'approved');
    assert.equal(detail.verification.decision.status, 'approved');
    assert.equal(detail.verification.decision.reason, approve.reason);
    // GET shows the same afterwards.
    const got = (await api.getSession(sessionId)).json();
    assert.equal(got.verification.decision.reason, approve.reason);
    assert.equal(await countRows(platform, 'decisions', sessionId, { kind: 'review' }), 1);

    const audit = await platform.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', sessionId)
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor, `api_key:${keyId}`);
    assert.equal(audit[0]!.action, 'review.decide');

    const [delivery] = await waitFor('the review webhook', () => {
      const got = receiver.received.filter((r) => r.url === '/approve');
      return got.length ? got : undefined;
    });
    assert.ok(delivery);
    assert.ok(signatureIsValid(delivery.body, delivery.headers, webhookSecret));
    const payload = JSON.parse(delivery.body.toString('utf8'));
    assert.ok(validatePayload(payload), JSON.stringify(validatePayload.errors));
    assert.equal(payload.event, 'verification.approved');
    assert.equal(payload.verificationId, sessionId);
    assert.equal(payload.decision.reason, approve.reason);
    assert.equal(payload.review.decision, 'approved');
    assert.equal(payload.review.reviewedBy, approve.reviewedBy);
    assert.equal(payload.review.reason, approve.reason);
    assert.match(payload.review.id, /^rv_/);
    assert.equal(payload.verificationResult.status, 'approved');
    assert.equal(payload.verificationResult.livenessConfidence, 0.93);
    // No reasonCode sent (a client written before it existed): the review still carries one.
    assert.equal(payload.review.reasonCode, 'other');
    assert.deepEqual(payload.decision.metadata, { reviewReasonCode: 'other' });
  });

  test('"ask for a new capture": rejected new_capture_requested in the webhook\'s review, decision.metadata and GET detail', async () => {
    const sessionId = await pending('/new-capture');
    const res = await review(sessionId, {
      ...approve,
      decision: 'rejected',
      reasonCode: 'new_capture_requested',
      reason: 'The licence photo is too dark to read; please photograph it again by a window',
    });
    assert.equal(res.statusCode, 200, res.body);
    const got = (await api.getSession(sessionId)).json();
    assert.equal(got.verification.status, 'rejected');
    assert.equal(got.verification.decision.metadata.reviewReasonCode, 'new_capture_requested');
    assert.match(got.verification.decision.reason, /too dark/);
    const [delivery] = await waitFor('the review webhook', () => {
      const got = receiver.received.filter((r) => r.url === '/new-capture');
      return got.length ? got : undefined;
    });
    const payload = JSON.parse(delivery!.body.toString('utf8'));
    assert.ok(validatePayload(payload), JSON.stringify(validatePayload.errors));
    assert.equal(payload.event, 'verification.rejected');
    assert.equal(payload.review.reasonCode, 'new_capture_requested');
    assert.equal(payload.decision.metadata.reviewReasonCode, 'new_capture_requested');
  });

  test('a reason code that does not explain the decision is 400 naming reasonCode, and nothing is written', async () => {
    const sessionId = await pending('/misfit');
    const writes = await countWrites(platform);
    const res = await review(sessionId, { ...approve, reasonCode: 'face_mismatch' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'ValidationFailed');
    assert.deepEqual(
      res.json().details.map((d: { path: string }) => d.path),
      ['body/reasonCode'],
    );
    assert.deepEqual(await countWrites(platform), writes);
    assert.equal((await api.getSession(sessionId)).json().verification.status, 'pending_review');
  });

  test("verificationResult.documentAuthenticity follows the document check: 'unverified' where it gave no verdict", async () => {
    const judged = async (path: string, risk: string, status: string) => {
      const sessionId = await pending(path);
      await storeCheckResult(platform, sessionId, 'documentSpoofCheck', { risk, status, score: 0 });
      assert.equal((await review(sessionId, approve)).statusCode, 200);
      const [delivery] = await waitFor('the review webhook', () => {
        const got = receiver.received.filter((r) => r.url === path);
        return got.length ? got : undefined;
      });
      const payload = JSON.parse(delivery!.body.toString('utf8'));
      assert.ok(validatePayload(payload), JSON.stringify(validatePayload.errors));
      return payload.verificationResult.documentAuthenticity;
    };
    assert.equal(await judged('/authentic', 'low', 'success'), 'authentic');
    assert.equal(await judged('/unverified', 'unknown', 'insufficient_quality'), 'unverified');
  });

  test('rejects: verification.rejected with the review field', async () => {
    const sessionId = await pending('/reject');
    const res = await review(sessionId, { ...approve, decision: 'rejected', reason: 'Photo of a screen' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().verification.status, 'rejected');
    const [delivery] = await waitFor('the rejection webhook', () => {
      const got = receiver.received.filter((r) => r.url === '/reject');
      return got.length ? got : undefined;
    });
    const payload = JSON.parse(delivery!.body.toString('utf8'));
    assert.ok(validatePayload(payload), JSON.stringify(validatePayload.errors));
    assert.equal(payload.event, 'verification.rejected');
    assert.equal(payload.review.reason, 'Photo of a screen');
  });

  test('a decided review is final: a second review is 409 DecisionFinal, reprocess is 409 DecisionFinal', async () => {
    const sessionId = await pending('/final');
    assert.equal((await review(sessionId, approve)).statusCode, 200);
    const again = await review(sessionId, { ...approve, decision: 'rejected' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'DecisionFinal');
    const reprocess = await api.reprocess(sessionId, {});
    assert.equal(reprocess.statusCode, 409);
    assert.equal(reprocess.json().error, 'DecisionFinal');
    assert.equal(await countRows(platform, 'decisions', sessionId, { kind: 'review' }), 1);
    assert.equal(await countRows(platform, 'webhook_events', sessionId), 1);
  });

  test('a session not waiting for review is 409 SessionNotPendingReview and nothing is written', async () => {
    const approved = await pending('/auto', ['approved']);
    const processing = (await api.createSession({ callbackUrl: receiver.url('/new') })).json()
      .sessionId as string;
    for (const sessionId of [approved, processing]) {
      const res = await review(sessionId, approve);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().error, 'SessionNotPendingReview');
      assert.equal(await countRows(platform, 'reviews', sessionId), 0);
      assert.equal(await countRows(platform, 'webhook_events', sessionId), 0);
    }
  });

  test("another tenant's session is 403, an unknown one 404", async () => {
    const sessionId = await pending('/other');
    const res = await review(sessionId, approve, otherApi);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error, 'Forbidden');
    assert.equal(await countRows(platform, 'reviews', sessionId), 0);
    const unknown = await review('vs_00000000000000000000000000', approve);
    assert.equal(unknown.statusCode, 404);
  });

  test('without an API key: 401', async () => {
    const sessionId = await pending('/nokey');
    const res = await api.app.inject({
      method: 'POST',
      url: `/v1/verification-sessions/${sessionId}/review`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(approve),
    });
    assert.equal(res.statusCode, 401);
  });

  for (const [label, body, status] of [
    ['a decision outside approved/rejected', { ...approve, decision: 'pending_review' }, 400],
    ['a missing reason', { decision: 'approved', reviewedBy: 'kyc@tenant.example' }, 400],
    ['an empty reason', { ...approve, reason: '' }, 400],
    ['a reason over 500 characters', { ...approve, reason: 'x'.repeat(501) }, 400],
    ['a reason with control characters', { ...approve, reason: 'ok\u0000<script>' }, 400],
    [
      'reviewedBy that is no e-mail address',
      { ...approve, reviewedBy: 'Robert"); DROP TABLE reviews;--' },
      400,
    ],
    ['a missing reviewedBy', { decision: 'approved', reason: 'fine' }, 400],
    ['an unknown field', { ...approve, status: 'approved' }, 400],
    ['an unknown reasonCode', { ...approve, reasonCode: 'looked_fine' }, 400],
    ['an array body', [approve], 400],
    ['malformed JSON', '{"decision": "approved",', 400],
    ['an oversized body', { ...approve, reason: 'x'.repeat(2_000_000) }, 413],
  ] as const) {
    test(`answers ${status} for ${label} and writes nothing`, async () => {
      const sessionId = await pending('/bad');
      const writes = await countWrites(platform);
      const res = await review(sessionId, body);
      assert.equal(res.statusCode, status, res.body);
      assert.ok(['ValidationFailed', 'BadRequest', 'PayloadTooLarge'].includes(res.json().error));
      assert.equal(await countRows(platform, 'reviews', sessionId), 0);
      assert.equal(await countRows(platform, 'decisions', sessionId, { kind: 'review' }), 0);
      assert.deepEqual(await countWrites(platform), writes);
      assert.equal((await api.getSession(sessionId)).json().verification.status, 'pending_review');
    });
  }

  test('is in the OpenAPI document with its body schema', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/verification-sessions/{sessionId}/review']?.post;
    assert.ok(op, 'review operation missing');
    const ref: string = op.requestBody.content['application/json'].schema.$ref;
    const body = doc.components.schemas[ref.replace('#/components/schemas/', '')];
    assert.deepEqual([...body.required].sort(), ['decision', 'reason', 'reviewedBy']);
    assert.ok(body.properties.reasonCode.enum.includes('new_capture_requested'));
    assert.ok(op.responses['409']);
  });
});

describe('second review of an approval the machine once rejected (tenant setting)', () => {
  test('waits with 202 until a different reviewer approves; the same reviewer gets 409 SecondReviewerRequired', async () => {
    const tenantId = (
      await platform.database.db
        .selectFrom('api_keys')
        .select('tenant_id')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow()
    ).tenant_id;
    await withTenantSettings(platform, tenantId, { secondReviewForRejectedApproval: true }, async () => {
      // Rejected at first, sent to review by a reprocess under other thresholds.
      const sessionId = await pending('/second', ['rejected', 'pending_review']);
      const first = await review(sessionId, approve);
      assert.equal(first.statusCode, 202, first.body);
      assert.equal(first.json().verification.status, 'pending_review');
      assert.equal(await countRows(platform, 'webhook_events', sessionId), 0);
      const same = await review(sessionId, { ...approve, reviewedBy: 'KYC@tenant.example' });
      assert.equal(same.statusCode, 409);
      assert.equal(same.json().error, 'SecondReviewerRequired');
      const second = await review(sessionId, {
        ...approve,
        reviewedBy: 'lead@tenant.example',
        reason: 'Agreed',
      });
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.json().verification.status, 'approved');
      // The first reviewer's review is the decision; the second confirmed it.
      assert.equal(second.json().verification.decision.reason, approve.reason);
      const rows = await platform.database.db
        .selectFrom('reviews')
        .selectAll()
        .where('session_id', '=', sessionId)
        .execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.status, 'final');
      assert.equal(rows[0]!.confirmed_by, 'lead@tenant.example');
      assert.equal(await countRows(platform, 'webhook_events', sessionId), 1);

      // A pending case the machine never rejected is approved at once.
      const plain = await pending('/second-plain');
      assert.equal((await review(plain, approve)).statusCode, 200);

      // A different reviewer's rejection overrules a waiting approval and is final itself.
      const overruled = await pending('/second-overruled', ['rejected', 'pending_review']);
      assert.equal((await review(overruled, approve)).statusCode, 202);
      const rejection = await review(overruled, {
        decision: 'rejected',
        reason: 'The licence photo is of someone else',
        reviewedBy: 'lead@tenant.example',
      });
      assert.equal(rejection.statusCode, 200, rejection.body);
      assert.equal(rejection.json().verification.status, 'rejected');
      const statuses = await platform.database.db
        .selectFrom('reviews')
        .select(['status', 'decision'])
        .where('session_id', '=', overruled)
        .orderBy('created_at')
        .execute();
      assert.deepEqual(statuses, [
        { status: 'overruled', decision: 'approved' },
        { status: 'final', decision: 'rejected' },
      ]);
      assert.equal(await countRows(platform, 'webhook_events', overruled), 1);
    });
  });
});

describe('two reviewers racing through the API', () => {
  test('exactly one wins; one decision row and one webhook event', async () => {
    const sessionId = await pending('/race-api');
    const answers = await Promise.all([
      review(sessionId, approve),
      review(sessionId, {
        ...approve,
        decision: 'rejected',
        reviewedBy: 'other@tenant.example',
        reason: 'No',
      }),
      review(sessionId, { ...approve, reviewedBy: 'third@tenant.example' }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(codes, [200, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      assert.equal(a.json().error, 'DecisionFinal');
    assert.equal(await countRows(platform, 'decisions', sessionId, { kind: 'review' }), 1);
    assert.equal(await countRows(platform, 'webhook_events', sessionId), 1);
    assert.equal(await countRows(platform, 'reviews', sessionId), 1);
  });
});
