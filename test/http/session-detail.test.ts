import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sweepExpiredSessions } from '../../src/sessions/expire-sessions.ts';
import { CALLBACK_PREFIX, createTestTenant, useTestApi } from '../helpers/api-client.ts';

describe('GET /v1/verification-sessions/{sessionId}', () => {
  const t = useTestApi();
  let otherTenantKey: string;
  before(async () => {
    otherTenantKey = (await createTestTenant(t.platform)).apiKey;
  });

  it('shows the fields of interface §2.1 that have a value, and leaves out those that have none', async () => {
    const created = (await t.api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/x` })).json();
    const res = await t.api.getSession(created.sessionId);
    assert.equal(res.statusCode, 200);
    const detail = res.json();
    // documentType, preRegisteredInfo, userInput, documents, liveness, ocrResult and verification
    // have no value yet: absent, never null (§2.1 types them as strings and objects, §2.11).
    assert.deepEqual(Object.keys(detail).sort(), [
      'callbackUrl',
      'createdAt',
      'expiresAt',
      'sessionId',
      'status',
      'updatedAt',
      // An addition to §2.1 (docs/ic-chip.md): the methods the session offers, always known.
      'verificationMethods',
      'verificationUrl',
      'verificationUrlExpiresAt',
    ]);
    assert.deepEqual(detail.verificationMethods, ['image']);
    assert.ok(!Object.values(detail).includes(null));
    assert.equal(detail.sessionId, created.sessionId);
    assert.equal(detail.status, 'pending');
    assert.equal(detail.callbackUrl, `${CALLBACK_PREFIX}/x`);
    assert.equal(detail.verificationUrl, created.verificationUrl);
    assert.equal(detail.verificationUrlExpiresAt, created.verificationUrlExpiresAt);
    assert.equal(detail.expiresAt, created.expiresAt);
    for (const field of ['createdAt', 'updatedAt'])
      assert.match(detail[field], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("answers 403 with the exact body of interface §7 for another tenant's session", async () => {
    const created = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    const res = await t.api.getSession(created.sessionId, otherTenantKey);
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'Forbidden', message: 'Access denied to this resource' });
  });

  it('answers 404 for an unknown session', async () => {
    const res = await t.api.getSession('vs_00000000000000000000000000');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'NotFound');
  });

  it('answers 400 for a session id over 64 characters', async () => {
    const res = await t.api.getSession('x'.repeat(65));
    assert.equal(res.statusCode, 400);
  });

  it('shows expired once expiresAt passes, before and after the sweep writes it', async () => {
    const created = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    const live = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    t.platform.advance(15 * 60_000 + 1_000);
    try {
      assert.equal((await t.api.getSession(created.sessionId)).json().status, 'expired');
      const row = () =>
        t.platform.database.db
          .selectFrom('verification_sessions')
          .select('status')
          .where('id', '=', created.sessionId)
          .executeTakeFirstOrThrow();
      assert.equal((await row()).status, 'pending', 'not yet written before the sweep');
      assert.ok((await sweepExpiredSessions(t.platform)) >= 2);
      assert.equal((await row()).status, 'expired');
      assert.equal((await t.api.getSession(live.sessionId)).json().status, 'expired');
    } finally {
      t.platform.advance(-(15 * 60_000 + 1_000));
    }
  });

  it('does not expire a session that was submitted before its time ran out', async () => {
    const created = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    await t.platform.database.db
      .updateTable('verification_sessions')
      .set({ status: 'liveness_success', submitted_at: new Date(), verification_status: 'processing' })
      .where('id', '=', created.sessionId)
      .execute();
    t.platform.advance(16 * 60_000);
    try {
      await sweepExpiredSessions(t.platform);
      assert.equal((await t.api.getSession(created.sessionId)).json().status, 'liveness_success');
    } finally {
      t.platform.advance(-16 * 60_000);
    }
  });
});
