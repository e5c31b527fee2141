import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { checkQueue } from '../../src/checks/check-queues.ts';
import { checksForMethod } from '../../src/checks/index.ts';
import { CALLBACK_PREFIX, countWrites, createTestTenant, useTestApi } from '../helpers/api-client.ts';

describe('POST /v1/verification-sessions/{sessionId}/reprocess', () => {
  const t = useTestApi();
  let otherTenantKey: string;
  before(async () => {
    otherTenantKey = (await createTestTenant(t.platform)).apiKey;
  });

  const newSession = async () =>
    (await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).json().sessionId as string;
  /** What the hosted flow's submission will do; until it exists, tests mark the row directly. */
  const markSubmitted = (sessionId: string) =>
    t.platform.database.db
      .updateTable('verification_sessions')
      .set({ status: 'liveness_success', submitted_at: new Date(), verification_status: 'processing' })
      .where('id', '=', sessionId)
      .execute();
  const queuedJobs = async (sessionId: string) => {
    const { rows } = await t.platform.database.executeSql(
      "SELECT name FROM pgboss.job WHERE data->>'sessionId' = $1 ORDER BY name",
      [sessionId],
    );
    return rows.map((r) => r.name as string);
  };

  it('answers 409 for a session with no submission yet, and queues nothing', async () => {
    const sessionId = await newSession();
    const res = await t.api.reprocess(sessionId, { queues: ['ocr'] });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error, 'SessionNotSubmitted');
    assert.deepEqual(await queuedJobs(sessionId), []);
  });

  it('queues the named checks as pg-boss jobs and answers with the interface §4.3 shape', async () => {
    const sessionId = await newSession();
    await markSubmitted(sessionId);
    const res = await t.api.reprocess(sessionId, { queues: ['ocr', 'faceMatch'], reason: 'new model' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['queued', 'queuedAt', 'sessionId']);
    assert.equal(body.sessionId, sessionId);
    assert.deepEqual(
      body.queued.map((q: { queue: string }) => q.queue),
      ['ocr', 'faceMatch'],
    );
    for (const q of body.queued) assert.equal(q.queuedAt, body.queuedAt);
    assert.deepEqual(await queuedJobs(sessionId), [checkQueue('faceMatch'), checkQueue('ocr')]);
  });

  it("queues every check of the session's method when the body is missing, empty (under Content-Type: application/json) or the list empty", async () => {
    // A session photographed a document: the image method's checks, not the chip's.
    const CHECK_IDS = checksForMethod('image');
    assert.ok(!CHECK_IDS.includes('icChip'));
    for (const body of [undefined, '', {}, { queues: [] }]) {
      const sessionId = await newSession();
      await markSubmitted(sessionId);
      const res = await t.api.reprocess(sessionId, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().queued.map((q: { queue: string }) => q.queue),
        [...CHECK_IDS],
      );
      assert.equal((await queuedJobs(sessionId)).length, CHECK_IDS.length);
    }
  });

  it('refuses a check of the other method with 400 and queues nothing', async () => {
    const sessionId = await newSession();
    await markSubmitted(sessionId);
    const res = await t.api.reprocess(sessionId, { queues: ['icChip'] });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'ValidationFailed');
    assert.deepEqual(await queuedJobs(sessionId), []);
  });

  for (const [label, body] of [
    ['an unknown queue', { queues: ['ocr', 'decision'] }],
    ['a repeated queue', { queues: ['ocr', 'ocr'] }],
    ['queues not an array', { queues: 'ocr' }],
    ['a reason that is not a string', { reason: 42 }],
    ['an unknown field', { queue: ['ocr'] }],
  ] as const) {
    it(`answers 400 for ${label} and queues nothing`, async () => {
      const sessionId = await newSession();
      await markSubmitted(sessionId);
      const before = await countWrites(t.platform);
      const res = await t.api.reprocess(sessionId, body);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(await countWrites(t.platform), before);
    });
  }

  it("answers 403 for another tenant's session and 404 for an unknown one", async () => {
    const sessionId = await newSession();
    await markSubmitted(sessionId);
    const foreign = await t.api.reprocess(sessionId, {}, otherTenantKey);
    assert.equal(foreign.statusCode, 403);
    assert.deepEqual(foreign.json(), { error: 'Forbidden', message: 'Access denied to this resource' });
    assert.deepEqual(await queuedJobs(sessionId), []);
    assert.equal((await t.api.reprocess('vs_unknown', {})).statusCode, 404);
  });
});
