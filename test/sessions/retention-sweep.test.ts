// The retention sweep (tenants.settings.retentionDays): a finished session older than its
// tenant's retention loses its images and personal data but keeps its row, statuses and decision,
// so the tenant's GET still answers; younger sessions and other tenants' defaults are untouched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/api-keys/index.ts';
import { documentBlobKey, livenessBlobKey } from '../../src/hosted-flow/document-types.ts';
import { userInputContext } from '../../src/hosted-flow/user-input.ts';
import { resultContext } from '../../src/pipeline/stored-results.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { encryptJson } from '../../src/platform/crypto/encryption.ts';
import { eraseOneBatch, sweepRetention } from '../../src/session-api/retention-sweep.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { ApiClient, CALLBACK_PREFIX } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { decidedSession } from '../review/review-fixture.ts';

const DAY = 24 * 60 * 60_000;
let platform: TestPlatform;
let api: ApiClient;
let defaultApi: ApiClient;
let tenantId: string;

async function tenant(settings: Record<string, unknown> | null) {
  const { tenantId } = await createTenant(platform, {
    name: 'Retention tenant',
    callbackUrlPrefixes: [CALLBACK_PREFIX],
  });
  if (settings) {
    await platform.database.db
      .updateTable('tenants')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', tenantId)
      .execute();
  }
  return { tenantId, apiKey: (await createApiKey(platform, tenantId, 'tests')).apiKey };
}

/** A decided session `ageDays` old with every kind of personal data the sweep must erase. */
async function sessionWithData(client: ApiClient, ageDays: number): Promise<{ id: string; blobs: string[] }> {
  platform.advance(-ageDays * DAY);
  const id = await decidedSession(platform, client, `${CALLBACK_PREFIX}/r`, ['approved']);
  platform.advance(ageDays * DAY);
  const db = platform.database.db;
  const now = platform.now();
  const store = openBlobStore(platform.config, platform.keyring);
  const front = documentBlobKey(id, 'front', 'n1');
  const frame = livenessBlobKey(id, 'chl1', 'frame-0');
  const reference = livenessBlobKey(id, 'chl1', 'reference');
  for (const key of [front, frame, reference]) await store.putBlob(key, Buffer.from(`jpeg ${key}`));
  await db
    .insertInto('session_documents')
    .values({
      session_id: id,
      side: 'front',
      blob_key: front,
      content_type: 'image/jpeg',
      width: 10,
      height: 10,
      byte_size: 10,
      uploaded_at: now,
    })
    .execute();
  await db
    .insertInto('liveness_challenges')
    .values({
      id: `chl_${id}`,
      session_id: id,
      steps: ['blink'],
      issued_at: now,
      expires_at: now,
      frame_blobs: [frame],
    })
    .execute();
  await db
    .updateTable('verification_sessions')
    .set({
      document_type: 'passport',
      liveness_reference_blob: reference,
      user_input_enc: encryptJson(platform.keyring, { lastName: '山田' }, userInputContext(id)),
      first_access_ip: '198.51.100.9',
    })
    .where('id', '=', id)
    .execute();
  await db
    .insertInto('check_results')
    .values({
      session_id: id,
      check_id: 'ocr',
      generation: 0,
      status: 'success',
      result_enc: encryptJson(
        platform.keyring,
        { result: { success: true, confidence: 0.9, payload: { lastName: '山田' } } },
        resultContext(id, 'ocr'),
      ),
      provider: 'test',
      model: 'test',
      version: '1',
      input_hashes: JSON.stringify({}),
      duration_ms: 1,
      completed_at: now,
    })
    .execute();
  await db
    .insertInto('session_face_descriptors')
    .values({ session_id: id, tenant_id: tenantId, source: 'selfie', descriptor_enc: 'x', created_at: now })
    .execute();
  await db
    .insertInto('session_identity_keys')
    .values({
      session_id: id,
      tenant_id: tenantId,
      document_number_hash: 'h',
      identity_hash: 'i',
      created_at: now,
    })
    .execute();
  return { id, blobs: [front, frame, reference] };
}

async function webhookEvent(sessionId: string, state: 'pending' | 'delivered') {
  await platform.database.db
    .insertInto('webhook_events')
    .values({
      id: `evt_${sessionId}`,
      tenant_id: tenantId,
      session_id: sessionId,
      kind: 'decision',
      idempotency_key: 'auto:0',
      event: 'verification.completed',
      callback_url: `${CALLBACK_PREFIX}/r`,
      endpoint: 'https://tenant.example',
      body_enc: Buffer.from('sealed body'),
      body_sha256: 'x',
      state,
      next_attempt_at: state === 'pending' ? platform.now() : null,
    })
    .execute();
}

const image = (id: string, kind: string) =>
  api.app.inject({
    method: 'GET',
    url: `/v1/verification-sessions/${id}/images/${kind}`,
    headers: { authorization: `Bearer ${api.apiKey}` },
  });

before(async () => {
  platform = await createTestPlatform({
    env: { MIMOTO_DATA_DIR: fs.mkdtempSync('/tmp/mimoto-retention-') },
  });
  const custom = await tenant({ retentionDays: 30 });
  tenantId = custom.tenantId;
  api = await ApiClient.start(platform, custom.apiKey);
  const fallback = await tenant(null);
  defaultApi = new ApiClient(api.app, fallback.apiKey);
});

after(async () => {
  await api?.app.close();
  await platform?.close();
});

describe('retention sweep', () => {
  let old: { id: string; blobs: string[] };
  let young: { id: string; blobs: string[] };
  let defaultOld: string;
  let undelivered: { id: string; blobs: string[] };
  let erased: number;

  before(async () => {
    old = await sessionWithData(api, 31);
    await webhookEvent(old.id, 'delivered');
    young = await sessionWithData(api, 29);
    undelivered = await sessionWithData(api, 40);
    await webhookEvent(undelivered.id, 'pending');
    defaultOld = await decidedSession(platform, defaultApi, `${CALLBACK_PREFIX}/d`, ['rejected']);
    await platform.database.db
      .updateTable('decisions')
      .set({ decided_at: new Date(platform.now().getTime() - 364 * DAY) })
      .where('session_id', '=', defaultOld)
      .execute();
    erased = await sweepRetention(platform);
  });

  test('only the session decided longer ago than retentionDays is erased', async () => {
    assert.equal(erased, 1);
    const rows = await platform.database.db
      .selectFrom('verification_sessions')
      .select(['id', 'data_erased_at', 'user_input_enc', 'first_access_ip', 'verification_status'])
      .where('id', 'in', [old.id, young.id, defaultOld])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    assert.ok(byId.get(old.id)?.data_erased_at);
    assert.equal(byId.get(old.id)?.user_input_enc, null);
    assert.equal(byId.get(old.id)?.first_access_ip, null);
    assert.equal(byId.get(old.id)?.verification_status, 'approved');
    assert.equal(byId.get(young.id)?.data_erased_at, null);
    assert.notEqual(byId.get(young.id)?.user_input_enc, null);
    assert.equal(byId.get(defaultOld)?.data_erased_at, null, 'default retention is 365 days');
  });

  test("the erased session's webhook body is gone; a session whose webhook is still pending waits", async () => {
    const events = await platform.database.db
      .selectFrom('webhook_events')
      .select('session_id')
      .where('session_id', 'in', [old.id, undelivered.id])
      .execute();
    assert.deepEqual(events, [{ session_id: undelivered.id }]);
    const row = await platform.database.db
      .selectFrom('verification_sessions')
      .select('data_erased_at')
      .where('id', '=', undelivered.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.data_erased_at, null);
  });

  test("the erased session's blobs and encrypted rows are gone; the young one keeps them", async () => {
    const store = openBlobStore(platform.config, platform.keyring);
    for (const key of old.blobs) assert.equal(await store.getBlob(key), null, key);
    for (const key of young.blobs) assert.ok(await store.getBlob(key), key);
    for (const table of ['check_results', 'session_face_descriptors', 'session_identity_keys'] as const) {
      const count = async (id: string) =>
        (
          await platform.database.db
            .selectFrom(table)
            .select('session_id')
            .where('session_id', '=', id)
            .execute()
        ).length;
      assert.equal(await count(old.id), 0, table);
      assert.equal(await count(young.id), 1, table);
    }
  });

  test('GET detail still answers with the decision, without the personal fields; images answer 404', async () => {
    const res = await api.getSession(old.id);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    for (const field of ['userInput', 'preRegisteredInfo', 'ocrResult'])
      assert.equal(field in body, false, field);
    assert.match(body.dataErasedAt, /^\d{4}-/);
    assert.equal(body.verification.status, 'approved');
    assert.equal(body.verification.decision.reason, 'all_checks_passed');
    assert.equal((await image(old.id, 'front')).statusCode, 404);
    assert.equal((await image(old.id, 'liveness-reference')).statusCode, 404);
    const youngRes = await api.getSession(young.id);
    assert.equal(youngRes.statusCode, 200, youngRes.body);
    const youngBody = youngRes.json();
    assert.equal(youngBody.ocrResult.payload.lastName, '山田');
    assert.deepEqual(youngBody.userInput, { lastName: '山田' });
    assert.equal((await image(young.id, 'front')).statusCode, 200);
  });

  test('an erased session cannot be reprocessed (409 SessionDataErased)', async () => {
    const res = await api.reprocess(old.id);
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error, 'SessionDataErased');
  });

  test('one audit row per erased session, by the system', async () => {
    const rows = await platform.database.db
      .selectFrom('audit_log')
      .select(['actor', 'target_id', 'tenant_id'])
      .where('action', '=', 'session.data.erase')
      .execute();
    assert.deepEqual(rows, [{ actor: 'system', target_id: old.id, tenant_id: tenantId }]);
  });

  test('a second run changes nothing', async () => {
    const before = await platform.database.db
      .selectFrom('verification_sessions')
      .select('data_erased_at')
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    platform.advance(1_000);
    assert.equal(await sweepRetention(platform), 0);
    const afterRow = await platform.database.db
      .selectFrom('verification_sessions')
      .select('data_erased_at')
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(afterRow.data_erased_at, before.data_erased_at);
  });

  test('the default 365 days applies once passed; batches take at most their limit; racing sweeps share', async () => {
    const extra = await decidedSession(platform, defaultApi, `${CALLBACK_PREFIX}/e`, ['rejected']);
    platform.advance(366 * DAY);
    assert.equal(await eraseOneBatch(platform, 1), 1);
    // young, defaultOld and extra are all due now; the rest follow, shared by two racing sweeps
    // (two worker processes) that never erase the same session twice.
    const [a, b] = await Promise.all([sweepRetention(platform), sweepRetention(platform)]);
    assert.equal(a + b, 2);
    const audits = await platform.database.db
      .selectFrom('audit_log')
      .select('target_id')
      .where('action', '=', 'session.data.erase')
      .execute();
    assert.equal(new Set(audits.map((r) => r.target_id)).size, audits.length);
    assert.equal(audits.length, 4);
    const left = await platform.database.db
      .selectFrom('verification_sessions')
      .select('id')
      .where('id', 'in', [young.id, defaultOld, extra])
      .where('data_erased_at', 'is', null)
      .execute();
    assert.deepEqual(left, []);
  });
});
