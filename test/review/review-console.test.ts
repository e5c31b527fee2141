// The console's review routes (docs/console-api.md "Sessions, blacklist and review") over HTTP with
// real sign-ins: the queue, search, a case, claims, two reviewers racing, the decision reaching a
// real webhook receiver, images only for users of the tenant (and operators), blacklist administration, and each
// role limited to its own rights and its own tenant.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/api-keys/index.ts';
import { buildApp } from '../../src/app.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { waitFor } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';
import { ConsoleClient, countRows, decidedSession, withTenantSettings } from './review-fixture.ts';

let platform: TestPlatform;
let app: FastifyInstance;
let receiver: LocalReceiver;
let worker: DeliveryWorker;
let tenantId: string;
let otherTenantId: string;
let api: ApiClient;
let otherApi: ApiClient;
let alice: ConsoleClient;
let bob: ConsoleClient;
let admin: ConsoleClient;
let otherReviewer: ConsoleClient;
let otherAdmin: ConsoleClient;
let operator: ConsoleClient;

before(async () => {
  platform = await createTestPlatform({
    env: { MIMOTO_DATA_DIR: (await import('node:fs')).mkdtempSync('/tmp/mimoto-review-console-') },
  });
  app = await buildApp(platform);
  await app.ready();
  receiver = await startLocalReceiver((_req, res) => res.writeHead(200).end('ok'));
  const tenant = await createTenant(platform, {
    name: 'Console tenant',
    callbackUrlPrefixes: [receiver.url('/')],
  });
  tenantId = tenant.tenantId;
  api = new ApiClient(app, (await createApiKey(platform, tenantId, 'tests')).apiKey);
  const other = await createTenant(platform, {
    name: 'Other tenant',
    callbackUrlPrefixes: [receiver.url('/')],
  });
  otherTenantId = other.tenantId;
  otherApi = new ApiClient(app, (await createApiKey(platform, otherTenantId, 'tests')).apiKey);
  alice = await ConsoleClient.signIn(app, platform, {
    email: 'alice@tenant.example',
    role: 'reviewer',
    tenantId,
  });
  bob = await ConsoleClient.signIn(app, platform, {
    email: 'bob@tenant.example',
    role: 'reviewer',
    tenantId,
  });
  admin = await ConsoleClient.signIn(app, platform, {
    email: 'admin@tenant.example',
    role: 'tenant_admin',
    tenantId,
  });
  otherReviewer = await ConsoleClient.signIn(app, platform, {
    email: 'eve@other.example',
    role: 'reviewer',
    tenantId: otherTenantId,
  });
  otherAdmin = await ConsoleClient.signIn(app, platform, {
    email: 'mallory@other.example',
    role: 'tenant_admin',
    tenantId: otherTenantId,
  });
  operator = await ConsoleClient.signIn(app, platform, { email: 'ops@mimoto.example', role: 'operator' });
  worker = startWebhookDeliveryWorker(platform, { pollIntervalMs: 50, timeoutMs: 2_000 });
});

after(async () => {
  await worker?.stop();
  await receiver?.close();
  await app?.close();
  await platform?.close();
});

const base = () => `/console/api/tenants/${tenantId}`;
const pending = async (path: string, statuses?: Parameters<typeof decidedSession>[3]) => {
  platform.advance(1_000); // distinct creation times: the queue's order is observable
  return decidedSession(platform, api, receiver.url(path), statuses);
};
const decideBody = {
  decision: 'approved',
  reasonCode: 'documents_verified_manually',
  reason: 'Checked by phone',
};

describe('queue and search', () => {
  let ids: string[];
  let approved: string;
  before(async () => {
    ids = [await pending('/q1'), await pending('/q2'), await pending('/q3')];
    approved = await pending('/q-approved', ['approved']);
  });

  test('the review queue lists pending_review cases oldest first, nothing else', async () => {
    const res = await alice.request('GET', `${base()}/review-queue`);
    assert.equal(res.statusCode, 200, res.body);
    const queue = res.json().sessions.map((s: { sessionId: string }) => s.sessionId);
    assert.deepEqual(
      queue.filter((id: string) => ids.includes(id)),
      ids,
    );
    assert.ok(!queue.includes(approved));
    for (const s of res.json().sessions) assert.equal(s.verificationStatus, 'pending_review');
  });

  test('the sessions list is newest first, filters, searches by id and pages with next', async () => {
    const all = (await admin.request('GET', `${base()}/sessions`)).json();
    assert.equal(all.sessions[0].sessionId, approved);
    const onlyApproved = (
      await admin.request('GET', `${base()}/sessions?verificationStatus=approved`)
    ).json();
    assert.deepEqual(
      onlyApproved.sessions.map((s: { sessionId: string }) => s.sessionId),
      [approved],
    );
    assert.equal(onlyApproved.sessions[0].decisionReason, 'all_checks_passed');
    const byId = (await admin.request('GET', `${base()}/sessions?q=${ids[1]}`)).json();
    assert.deepEqual(
      byId.sessions.map((s: { sessionId: string }) => s.sessionId),
      [ids[1]],
    );
    const byIp = (await admin.request('GET', `${base()}/sessions?ip=198.51.100.4&limit=2`)).json();
    assert.equal(byIp.sessions.length, 2);
    assert.ok(byIp.next);
    const page2 = (
      await admin.request('GET', `${base()}/sessions?ip=198.51.100.4&limit=2&before=${byIp.next}`)
    ).json();
    const seen = [...byIp.sessions, ...page2.sessions].map((s: { sessionId: string }) => s.sessionId);
    assert.equal(new Set(seen).size, seen.length, 'pages do not overlap');
    assert.deepEqual(seen.slice(0, 4), [approved, ids[2], ids[1], ids[0]]);
    const future = new Date(Date.now() + 86_400_000 * 400).toISOString();
    assert.deepEqual((await admin.request('GET', `${base()}/sessions?from=${future}`)).json().sessions, []);
  });

  for (const query of [
    'limit=0',
    'limit=201',
    'limit=abc',
    'status=bogus',
    'from=yesterday',
    'unknown=1',
    `q=${'x'.repeat(600)}`,
    'ip=1.2.3.4%27--',
  ]) {
    test(`a bad query (${query.slice(0, 30)}) is 400`, async () => {
      const res = await admin.request('GET', `${base()}/sessions?${query}`);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, 'ValidationFailed');
    });
  }
});

describe('a case', () => {
  test('the detail has the /v1 fields, the automatic decision with thresholds, images, comparison, claim, reviews, events', async () => {
    const sessionId = await pending('/detail');
    const res = await alice.request('GET', `${base()}/sessions/${sessionId}`);
    assert.equal(res.statusCode, 200, res.body);
    const { session } = res.json();
    assert.equal(session.sessionId, sessionId);
    assert.equal(session.verification.status, 'pending_review');
    assert.equal(session.automaticDecision.reason, 'face_similarity_near_threshold');
    assert.deepEqual(session.automaticDecision.thresholds, { faceSimilarityThreshold: 0.5 });
    assert.deepEqual(session.images, []);
    assert.deepEqual(
      session.comparison.map((c: { field: string }) => c.field),
      ['lastName', 'firstName', 'lastNameKana', 'firstNameKana', 'birthDate', 'address'],
    );
    assert.equal(session.claim, null);
    assert.deepEqual(session.reviews, []);
    assert.deepEqual(session.webhookEvents, []);
  });

  test('images are served decrypted to users of the tenant and operators only, no-store', async () => {
    const sessionId = await pending('/images');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
    const key = `liveness/${sessionId}/reference.jpg`;
    await openBlobStore(platform.config, platform.keyring).putBlob(key, jpeg);
    await platform.database.db
      .updateTable('verification_sessions')
      .set({ liveness_reference_blob: key })
      .where('id', '=', sessionId)
      .execute();
    const url = `${base()}/sessions/${sessionId}/images/liveness-reference`;
    const detail = (await alice.request('GET', `${base()}/sessions/${sessionId}`)).json().session;
    assert.deepEqual(detail.images, [{ name: 'liveness-reference', url }]);
    // Operators read any tenant's images too (read-only; their case views are audited).
    for (const user of [alice, admin, operator]) {
      const res = await user.request('GET', url);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/jpeg');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.rawPayload, jpeg);
    }
    assert.equal((await otherReviewer.request('GET', url)).statusCode, 403);
    // Another tenant's user on their own tenant's path: the session is unknown there.
    const sideways = await otherReviewer.request(
      'GET',
      `/console/api/tenants/${otherTenantId}/sessions/${sessionId}/images/liveness-reference`,
    );
    assert.equal(sideways.statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401);
    assert.equal(
      (await alice.request('GET', `${base()}/sessions/${sessionId}/images/front`)).statusCode,
      404,
    );
    assert.equal(
      (await alice.request('GET', `${base()}/sessions/${sessionId}/images/..%2F..%2Fetc`)).statusCode,
      400,
    );
  });
});

describe('claims and decisions', () => {
  test('claim 15 min; another reviewer 409 ReviewClaimed; holder re-claims to extend; release; expiry frees it', async () => {
    const sessionId = await pending('/claims');
    const url = `${base()}/sessions/${sessionId}/claim`;
    const first = await alice.request('POST', url);
    assert.equal(first.statusCode, 200, first.body);
    const claim = first.json().claim;
    assert.equal(claim.reviewer, 'alice@tenant.example');
    assert.equal(Date.parse(claim.expiresAt) - Date.parse(claim.claimedAt), 15 * 60_000);
    const taken = await bob.request('POST', url);
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().error, 'ReviewClaimed');
    const bobDecides = await bob.request('POST', `${base()}/sessions/${sessionId}/review`, decideBody);
    assert.equal(bobDecides.json().error, 'ReviewClaimed');
    platform.advance(10 * 60_000);
    const extended = (await alice.request('POST', url)).json().claim;
    assert.ok(Date.parse(extended.expiresAt) > Date.parse(claim.expiresAt));
    assert.equal(extended.claimedAt, claim.claimedAt);
    assert.equal((await bob.request('DELETE', url)).statusCode, 409);
    assert.equal((await alice.request('DELETE', url)).statusCode, 204);
    const unclaimed = await bob.request('POST', `${base()}/sessions/${sessionId}/review`, decideBody);
    assert.equal(unclaimed.statusCode, 409);
    assert.equal(unclaimed.json().error, 'ReviewClaimRequired');
    assert.equal((await alice.request('POST', url)).statusCode, 200);
    platform.advance(16 * 60_000);
    assert.equal((await bob.request('POST', url)).statusCode, 200, 'an expired claim is free');
    assert.equal(await countRows(platform, 'reviews', sessionId), 0);
  });

  test('the holder decides: 200 with review and session, webhook with the review field, audit rows', async () => {
    const sessionId = await pending('/console-approve');
    assert.equal((await bob.request('POST', `${base()}/sessions/${sessionId}/claim`)).statusCode, 200);
    const res = await bob.request('POST', `${base()}/sessions/${sessionId}/review`, decideBody);
    assert.equal(res.statusCode, 200, res.body);
    const { review, session } = res.json();
    assert.equal(review.reviewedBy, 'bob@tenant.example');
    assert.equal(review.reasonCode, 'documents_verified_manually');
    assert.equal(session.verification.status, 'approved');
    assert.equal(session.verification.decision.reason, 'Checked by phone');
    assert.equal(session.claim, null);
    assert.equal(session.reviews.length, 1);
    const [delivery] = await waitFor('the webhook', () => {
      const got = receiver.received.filter((r) => r.url === '/console-approve');
      return got.length ? got : undefined;
    });
    const payload = JSON.parse(delivery!.body.toString('utf8'));
    assert.equal(payload.event, 'verification.approved');
    assert.deepEqual(
      { ...payload.review, reviewedAt: undefined },
      {
        id: review.id,
        decision: 'approved',
        reviewedBy: 'bob@tenant.example',
        reviewedAt: undefined,
        reason: 'Checked by phone',
        reasonCode: 'documents_verified_manually',
      },
    );
    assert.deepEqual(payload.decision.metadata, { reviewReasonCode: 'documents_verified_manually' });
    const audit = await platform.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'actor_user_id'])
      .where('target_id', '=', sessionId)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audit.map((a) => [a.action, a.actor, a.actor_user_id]),
      [
        ['review.claim', 'bob@tenant.example', bob.user.id],
        ['review.decide', 'bob@tenant.example', bob.user.id],
      ],
    );
    // Decided: no more claims or reviews.
    const again = await alice.request('POST', `${base()}/sessions/${sessionId}/claim`);
    assert.equal(again.json().error, 'DecisionFinal');
  });

  test('two reviewers racing for one case: one claim wins, one decision row, one webhook event', async () => {
    const sessionId = await pending('/race-console');
    const claims = await Promise.all(
      [alice, bob].map((r) => r.request('POST', `${base()}/sessions/${sessionId}/claim`)),
    );
    assert.deepEqual(claims.map((c) => c.statusCode).sort(), [200, 409]);
    const decisions = await Promise.all(
      [alice, bob].map((r) =>
        r.request('POST', `${base()}/sessions/${sessionId}/review`, {
          ...decideBody,
          reason: `by ${r.user.email}`,
        }),
      ),
    );
    assert.deepEqual(decisions.map((d) => d.statusCode).sort(), [200, 409]);
    const winner = claims.findIndex((c) => c.statusCode === 200);
    assert.equal(decisions[winner]!.statusCode, 200);
    assert.equal(await countRows(platform, 'decisions', sessionId, { kind: 'review' }), 1);
    assert.equal(await countRows(platform, 'webhook_events', sessionId), 1);
  });

  for (const [label, body] of [
    ['no reasonCode', { decision: 'approved', reason: 'ok' }],
    ['an unknown reasonCode', { ...decideBody, reasonCode: 'because' }],
    ['an empty reason', { ...decideBody, reason: '' }],
    ['a 501-character reason', { ...decideBody, reason: 'x'.repeat(501) }],
    ['reviewedBy smuggled in', { ...decideBody, reviewedBy: 'ceo@tenant.example' }],
    ['a string body', '"approved"'],
  ] as const) {
    test(`a review with ${label} is 400 and leaves the case as it was`, async () => {
      const sessionId = await pending('/bad-console');
      await alice.request('POST', `${base()}/sessions/${sessionId}/claim`);
      const res = await alice.request('POST', `${base()}/sessions/${sessionId}/review`, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(await countRows(platform, 'reviews', sessionId), 0);
      assert.equal(await countRows(platform, 'review_claims', sessionId), 1, 'the claim is kept');
    });
  }

  test('second review: an approval of a once-rejected case waits (202) for a different reviewer to confirm', async () => {
    await withTenantSettings(platform, tenantId, { secondReviewForRejectedApproval: true }, async () => {
      const sessionId = await pending('/second-console', ['rejected', 'pending_review']);
      await alice.request('POST', `${base()}/sessions/${sessionId}/claim`);
      const first = await alice.request('POST', `${base()}/sessions/${sessionId}/review`, decideBody);
      assert.equal(first.statusCode, 202, first.body);
      const { review } = first.json();
      assert.equal(review.status, 'awaiting_confirmation');
      const queue = (await bob.request('GET', `${base()}/review-queue`)).json().sessions;
      assert.equal(
        queue.find((s: { sessionId: string }) => s.sessionId === sessionId).awaitingConfirmation.id,
        review.id,
      );
      const self = await alice.request('POST', `${base()}/reviews/${review.id}/confirm`);
      assert.equal(self.statusCode, 409);
      assert.equal(self.json().error, 'SecondReviewerRequired');
      assert.equal(
        (await otherReviewer.request('POST', `${base()}/reviews/${review.id}/confirm`)).statusCode,
        403,
      );
      const confirmed = await bob.request('POST', `${base()}/reviews/${review.id}/confirm`);
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().review.confirmedBy, 'bob@tenant.example');
      assert.equal(confirmed.json().session.verification.status, 'approved');
      assert.equal(
        (await bob.request('POST', `${base()}/reviews/${review.id}/confirm`)).json().error,
        'DecisionFinal',
      );
      assert.equal(await countRows(platform, 'webhook_events', sessionId), 1);
    });
  });
});

describe('roles and tenants', () => {
  test('each role does its own things only, and nothing across tenants', async () => {
    const sessionId = await pending('/roles');
    const claim = `${base()}/sessions/${sessionId}/claim`;
    assert.equal((await admin.request('POST', claim)).statusCode, 403, 'a tenant admin does not review');
    assert.equal(
      (await operator.request('GET', `${base()}/sessions`)).statusCode,
      200,
      'operators read any tenant’s sessions (read-only, audited: test/console/console-sessions.test.ts)',
    );
    assert.equal((await operator.request('POST', claim)).statusCode, 403, 'but do not review');
    assert.equal((await otherReviewer.request('GET', `${base()}/review-queue`)).statusCode, 403);
    assert.equal((await otherReviewer.request('POST', claim)).statusCode, 403);
    assert.equal((await otherAdmin.request('GET', `${base()}/sessions/${sessionId}`)).statusCode, 403);
    assert.equal(
      (await alice.request('GET', `${base()}/blacklist`)).statusCode,
      403,
      'reviewers keep no blacklist',
    );
    // The other tenant's own path does not reach this tenant's session either.
    const theirs = `/console/api/tenants/${otherTenantId}/sessions/${sessionId}`;
    assert.equal((await otherReviewer.request('GET', theirs)).statusCode, 404);
    assert.equal((await otherReviewer.request('POST', `${theirs}/claim`)).statusCode, 404);
    // Without the CSRF header a signed-in change is refused.
    const noCsrf = await app.inject({
      method: 'POST',
      url: claim,
      cookies: { mimoto_console: alice.cookie },
    });
    assert.equal(noCsrf.statusCode, 403);
    assert.equal(await countRows(platform, 'review_claims', sessionId), 0);
  });
});

describe('blacklist administration', () => {
  const entry = {
    label: 'Chargeback 2026-03',
    matchMode: 'exact',
    action: 'reject',
    documentNumber: 'AB1234567',
  };

  test('create, list, edit, delete with audit rows; entries of another tenant are unknown', async () => {
    const created = await admin.request('POST', `${base()}/blacklist`, entry);
    assert.equal(created.statusCode, 201, created.body);
    const { entryId } = created.json().entry;
    assert.match(entryId, /^bl_/);
    const list = (await admin.request('GET', `${base()}/blacklist`)).json().entries;
    assert.deepEqual(
      list.map((e: { entryId: string }) => e.entryId),
      [entryId],
    );
    const edited = await admin.request('PUT', `${base()}/blacklist/${entryId}`, {
      ...entry,
      action: 'review',
    });
    assert.equal(edited.json().entry.action, 'review');
    const sideways = await otherAdmin.request(
      'PUT',
      `/console/api/tenants/${otherTenantId}/blacklist/${entryId}`,
      entry,
    );
    assert.equal(sideways.statusCode, 404);
    assert.equal((await otherAdmin.request('DELETE', `${base()}/blacklist/${entryId}`)).statusCode, 403);
    assert.equal((await admin.request('DELETE', `${base()}/blacklist/${entryId}`)).statusCode, 204);
    assert.equal((await admin.request('DELETE', `${base()}/blacklist/${entryId}`)).statusCode, 404);
    const actions = await platform.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', entryId)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      actions.map((a) => a.action),
      ['blacklist.create', 'blacklist.update', 'blacklist.delete'],
    );
  });

  for (const [label, body] of [
    ['no condition', { label: 'x', matchMode: 'exact', action: 'reject' }],
    [
      'a name without birth date',
      { label: 'x', matchMode: 'exact', action: 'reject', lastName: '森田', firstName: '悠斗' },
    ],
    ['an unknown matchMode', { ...entry, matchMode: 'sounds_like' }],
    ['an unknown action', { ...entry, action: 'ban' }],
    ['an unknown field', { ...entry, note: 'x' }],
    ['a bad birth date', { ...entry, lastName: '森田', firstName: '悠斗', birthDate: '1988-02-30' }],
    ['a document number with markup', { ...entry, documentNumber: '<img src=x>' }],
    ['a label over 200 characters', { ...entry, label: 'x'.repeat(201) }],
    [
      'a face from an unknown session',
      {
        label: 'x',
        matchMode: 'fuzzy',
        action: 'review',
        faceFromSessionId: 'vs_00000000000000000000000000',
      },
    ],
  ] as const) {
    test(`an entry with ${label} is 400 and nothing is stored`, async () => {
      const before = (await admin.request('GET', `${base()}/blacklist`)).json().entries.length;
      const res = await admin.request('POST', `${base()}/blacklist`, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, 'ValidationFailed');
      assert.equal((await admin.request('GET', `${base()}/blacklist`)).json().entries.length, before);
    });
  }

  test("a face from another tenant's session is refused like an unknown one", async () => {
    const theirs = await decidedSession(platform, otherApi, receiver.url('/theirs'));
    const res = await admin.request('POST', `${base()}/blacklist`, {
      label: 'x',
      matchMode: 'fuzzy',
      action: 'review',
      faceFromSessionId: theirs,
    });
    assert.equal(res.statusCode, 400);
  });
});
