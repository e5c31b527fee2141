// verification.expired: sent for a session that expires unfinished, only to tenants who turned it
// on (the interface defines three events), never for a session the tenant cancelled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { decryptBytes } from '../../src/platform/crypto/encryption.ts';
import { sweepExpiredSessions } from '../../src/sessions/expire-sessions.ts';
import { eventBodyContext } from '../../src/webhooks/record-webhook-event.ts';
import { ApiClient, CALLBACK_PREFIX, createTestTenant, useTestApi } from '../helpers/api-client.ts';

describe('verification.expired', () => {
  const t = useTestApi();

  it('goes to opted-in tenants for sessions the sweep expires, matching the published schema', async () => {
    const quiet = await createTestTenant(t.platform);
    const quietApi = new ApiClient(t.api.app, quiet.apiKey);
    await t.platform.database.db
      .updateTable('tenants')
      .set({ settings: JSON.stringify({ webhookExpiredEvent: true }) })
      .where('id', '=', t.tenant.tenantId)
      .execute();
    const mine = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json();
    const cancelled = (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json().sessionId;
    await t.api.app.inject({
      method: 'POST',
      url: `/v1/verification-sessions/${cancelled}/cancel`,
      headers: { authorization: `Bearer ${t.tenant.apiKey}` },
    });
    const theirs = (await quietApi.createSession({ callbackUrl: CALLBACK_PREFIX })).json().sessionId;
    t.platform.advance(15 * 60_000 + 1_000);
    assert.ok((await sweepExpiredSessions(t.platform)) >= 2);

    const events = await t.platform.database.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('session_id', 'in', [mine.sessionId, cancelled, theirs])
      .execute();
    assert.deepEqual(
      events.map((e) => [e.session_id, e.event]),
      [[mine.sessionId, 'verification.expired']],
    );
    const payload = JSON.parse(
      decryptBytes(
        t.platform.keyring,
        Buffer.from(events[0]!.body_enc),
        eventBodyContext(events[0]!.id),
      ).toString('utf8'),
    );
    assert.deepEqual(Object.keys(payload), [
      'event',
      'verificationId',
      'tenantId',
      'status',
      'expiresAt',
      'processedAt',
    ]);
    assert.equal(payload.status, 'expired');
    assert.equal(payload.expiresAt, mine.expiresAt);
    const schema = (await t.api.app.inject({ method: 'GET', url: '/schemas/webhook-payload.json' })).json();
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(payload), JSON.stringify(validate.errors));
    // A second sweep sends nothing again.
    await sweepExpiredSessions(t.platform);
    const again = await t.platform.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('session_id', '=', mine.sessionId)
      .execute();
    assert.equal(again.length, 1);
  });
});
