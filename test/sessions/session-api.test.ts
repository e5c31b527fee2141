// The session routes beyond interface §4: list, cancel, redact (docs/guides "Listing, cancelling and
// erasing sessions"), each with what it refuses.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { CALLBACK_PREFIX, createTestTenant, useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from '../hosted-flow/flow-helpers.ts';

describe('GET /v1/verification-sessions, cancel and redact', () => {
  const env = dataDirEnv();
  const t = useTestApi({ env });
  let otherKey: string;
  before(async () => {
    otherKey = (await createTestTenant(t.platform)).apiKey;
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    options: { body?: string; type?: string; key?: string } = {},
  ) =>
    t.api.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${options.key ?? t.tenant.apiKey}`,
        ...(options.type ? { 'content-type': options.type } : {}),
      },
      ...(options.body === undefined ? {} : { payload: options.body }),
    });
  const create = async () =>
    (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json().sessionId as string;
  const setRow = (id: string, values: Record<string, unknown>) =>
    t.platform.database.db.updateTable('verification_sessions').set(values).where('id', '=', id).execute();

  it('lists newest first, a page at a time, until hasMore is false', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await create());
      t.platform.advance(1_000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await call(
        'GET',
        `/v1/verification-sessions?limit=2${cursor ? `&startingAfter=${cursor}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((s: { sessionId: string }) => s.sessionId));
      if (!page.hasMore) {
        assert.equal('nextCursor' in page, false);
        break;
      }
      cursor = page.nextCursor;
    }
    assert.deepEqual(seen.slice(0, 5), [...ids].reverse(), 'newest first, none twice');
    const item = (await call('GET', '/v1/verification-sessions?limit=1')).json().data[0];
    assert.deepEqual(Object.keys(item).sort(), [
      'createdAt',
      'expiresAt',
      'sessionId',
      'status',
      'updatedAt',
    ]);
  });

  it("filters by status, verification status and creation time, and never shows another tenant's", async () => {
    const from = t.platform.now();
    const submitted = await create();
    await setRow(submitted, { status: 'completed', submitted_at: from, verification_status: 'approved' });
    const waiting = await create();
    const others = new Set(
      (await call('GET', '/v1/verification-sessions?limit=100', { key: otherKey }))
        .json()
        .data.map((s: { sessionId: string }) => s.sessionId),
    );
    assert.ok(!others.has(submitted) && !others.has(waiting));
    const approved = (
      await call('GET', '/v1/verification-sessions?verificationStatus=approved&limit=100')
    ).json();
    assert.ok(approved.data.some((s: { sessionId: string }) => s.sessionId === submitted));
    assert.ok(
      approved.data.every((s: { verificationStatus: string }) => s.verificationStatus === 'approved'),
    );
    const pending = (await call('GET', '/v1/verification-sessions?status=pending&limit=100')).json();
    assert.ok(pending.data.some((s: { sessionId: string }) => s.sessionId === waiting));
    assert.ok(!pending.data.some((s: { sessionId: string }) => s.sessionId === submitted));
    const since = encodeURIComponent(from.toISOString());
    const recent = (await call('GET', `/v1/verification-sessions?createdFrom=${since}&limit=100`)).json();
    assert.deepEqual(
      recent.data.map((s: { sessionId: string }) => s.sessionId),
      [waiting, submitted],
    );
    const before = (await call('GET', `/v1/verification-sessions?createdTo=${since}&limit=100`)).json();
    assert.ok(!before.data.some((s: { sessionId: string }) => s.sessionId === waiting));
    // Past its expiresAt an unsubmitted session lists as expired before the sweep writes it.
    t.platform.advance(16 * 60_000);
    const expired = (await call('GET', '/v1/verification-sessions?status=expired&limit=100')).json();
    assert.ok(expired.data.some((s: { sessionId: string }) => s.sessionId === waiting));
    const stillPending = (await call('GET', '/v1/verification-sessions?status=pending&limit=100')).json();
    assert.ok(!stillPending.data.some((s: { sessionId: string }) => s.sessionId === waiting));
  });

  for (const [label, query] of [
    ['limit 0', 'limit=0'],
    ['limit 101', 'limit=101'],
    ['a limit that is not a number', 'limit=ten'],
    ['an unknown status', 'status=done'],
    ['an unknown verification status', 'verificationStatus=ok'],
    ['a createdFrom that is no date-time', 'createdFrom=yesterday'],
    ['a malformed cursor', 'startingAfter=%00'],
    ['a cursor naming no session', 'startingAfter=vs_UNKNOWN0000000000000000000'],
    ['an unknown parameter', 'sort=asc'],
    ['a repeated parameter', 'status=pending&status=expired'],
  ] as const) {
    it(`list answers 400 ValidationFailed for ${label}`, async () => {
      const res = await call('GET', `/v1/verification-sessions?${query}`);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, 'ValidationFailed');
    });
  }

  it("list: another tenant's session as cursor is refused like an unknown one", async () => {
    const mine = await create();
    const res = await call('GET', `/v1/verification-sessions?startingAfter=${mine}`, { key: otherKey });
    assert.equal(res.statusCode, 400);
  });

  it('cancel: the session ends, the link and the cookie stop working, and a second cancel answers the same', async () => {
    const flow = await FlowClient.enter(t);
    assert.equal((await flow.state()).statusCode, 200);
    const res = await call('POST', `/v1/verification-sessions/${flow.sessionId}/cancel`);
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json();
    assert.equal(detail.status, 'expired');
    assert.match(detail.cancelledAt, /^\d{4}-/);
    assert.notEqual((await flow.state()).statusCode, 200, 'the cookie no longer opens the flow');
    const again = await call('POST', `/v1/verification-sessions/${flow.sessionId}/cancel`, {
      type: 'application/json',
      body: '{}',
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().cancelledAt, detail.cancelledAt);
    // A fresh session's one-time link is refused once cancelled.
    const created = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    await call('POST', `/v1/verification-sessions/${created.sessionId}/cancel`, {
      type: 'application/json',
      body: '',
    });
    const url = new URL(created.verificationUrl);
    const link = await t.api.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    assert.equal(link.statusCode, 410);
  });

  it('cancel: 409 for a submitted or expired session, 403 for another tenant, 404 for none', async () => {
    const submitted = await create();
    await setRow(submitted, {
      status: 'liveness_success',
      submitted_at: t.platform.now(),
      verification_status: 'processing',
    });
    const res = await call('POST', `/v1/verification-sessions/${submitted}/cancel`);
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error, 'SessionNotCancellable');
    const old = await create();
    await setRow(old, { expires_at: new Date(t.platform.now().getTime() - 1) });
    assert.equal(
      (await call('POST', `/v1/verification-sessions/${old}/cancel`)).json().error,
      'SessionNotCancellable',
    );
    assert.equal(
      (await call('POST', `/v1/verification-sessions/${submitted}/cancel`, { key: otherKey })).statusCode,
      403,
    );
    assert.equal(
      (await call('POST', '/v1/verification-sessions/vs_UNKNOWN0000000000000000000/cancel')).statusCode,
      404,
    );
  });

  for (const route of ['cancel', 'redact']) {
    for (const [label, options, status] of [
      ['a body with a field', { type: 'application/json', body: '{"reason":"x"}' }, 400],
      ['a body that is not JSON', { type: 'application/json', body: '{' }, 400],
      ['a body that is not an object', { type: 'application/json', body: '[]' }, 400],
      ['another media type', { type: 'text/plain', body: 'x' }, 415],
    ] as const) {
      it(`${route} answers ${status} for ${label} and changes nothing`, async () => {
        const id = await create();
        const res = await call('POST', `/v1/verification-sessions/${id}/${route}`, options);
        assert.equal(res.statusCode, status, res.body);
        const row = await t.platform.database.db
          .selectFrom('verification_sessions')
          .select(['status', 'cancelled_at', 'data_erased_at'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(row, { status: 'pending', cancelled_at: null, data_erased_at: null });
      });
    }
    it(`${route} answers 400 for a malformed session id`, async () => {
      assert.equal((await call('POST', `/v1/verification-sessions/not-an-id/${route}`)).statusCode, 400);
    });
  }

  it('redact: 409 while processing or in review; erases a decided session and keeps its decision', async () => {
    const id = await create();
    await setRow(id, {
      status: 'liveness_success',
      submitted_at: t.platform.now(),
      verification_status: 'processing',
    });
    assert.equal(
      (await call('POST', `/v1/verification-sessions/${id}/redact`)).json().error,
      'SessionNotRedactable',
    );
    await setRow(id, { status: 'completed', verification_status: 'pending_review' });
    assert.equal((await call('POST', `/v1/verification-sessions/${id}/redact`)).statusCode, 409);
    assert.equal(
      (await call('POST', `/v1/verification-sessions/${await create()}/redact`)).statusCode,
      409,
      'unfinished',
    );

    const withData = (
      await t.api.createSession({
        callbackUrl: CALLBACK_PREFIX,
        preRegisteredInfo: { lastName: '山田', birthDate: '1990-01-15' },
      })
    ).json().sessionId as string;
    const store = openBlobStore(t.platform.config, t.platform.keyring);
    const blob = `${withData}/liveness-reference.jpg`;
    await store.putBlob(blob, Buffer.from('not really a jpeg'));
    await setRow(withData, {
      status: 'completed',
      submitted_at: t.platform.now(),
      verification_status: 'rejected',
      liveness_reference_blob: blob,
    });
    assert.equal(
      (await call('GET', `/v1/verification-sessions/${withData}/images/liveness-reference`)).statusCode,
      200,
    );
    assert.ok((await t.api.getSession(withData)).json().preRegisteredInfo);
    const res = await call('POST', `/v1/verification-sessions/${withData}/redact`);
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json();
    assert.equal('preRegisteredInfo' in detail, false);
    assert.match(detail.dataErasedAt, /^\d{4}-/);
    assert.equal(detail.verification.status, 'rejected', 'the outcome stays');
    assert.equal(await store.getBlob(blob), null, 'the image is deleted');
    assert.equal(
      (await call('GET', `/v1/verification-sessions/${withData}/images/liveness-reference`)).statusCode,
      404,
    );
    const audit = await t.platform.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', withData)
      .where('action', '=', 'session.data.erase')
      .execute();
    assert.equal(audit.length, 1);
    const again = await call('POST', `/v1/verification-sessions/${withData}/redact`);
    assert.equal(again.json().dataErasedAt, detail.dataErasedAt, 'redacting again changes nothing');
  });

  it('redact: an expired session may be erased; another tenant cannot', async () => {
    const id = await create();
    await call('POST', `/v1/verification-sessions/${id}/cancel`);
    assert.equal(
      (await call('POST', `/v1/verification-sessions/${id}/redact`, { key: otherKey })).statusCode,
      403,
    );
    assert.equal((await call('POST', `/v1/verification-sessions/${id}/redact`)).statusCode, 200);
  });
});
