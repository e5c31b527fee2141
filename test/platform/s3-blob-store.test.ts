// Blobs in an S3-compatible bucket (MIMOTO_BLOB_STORE=s3), against a real S3 server on 127.0.0.1
// (s3rver): what is stored is ciphertext bound to its key, a missing object reads as none but a
// missing bucket is an error, and the retention sweep and the tenant's redact delete the objects.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { documentBlobKey, livenessBlobKey } from '../../src/hosted-flow/document-types.ts';
import {
  type BlobStore,
  createRawBlobStore,
  encryptedBlobStore,
  openBlobStore,
} from '../../src/platform/blobs/index.ts';
import { DecryptionError, parseKeyring } from '../../src/platform/crypto/encryption.ts';
import { sweepRetention } from '../../src/session-api/retention-sweep.ts';
import { ApiClient, CALLBACK_PREFIX, createTestTenant } from '../helpers/api-client.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.ts';
import { createTestPlatform, type TestPlatform, testConfig } from '../helpers/test-platform.ts';
import { decidedSession } from '../review/review-fixture.ts';

const DAY = 24 * 60 * 60_000;
let s3: TestS3Server;

before(async () => {
  s3 = await startS3Server();
});
after(async () => {
  await s3?.close();
});

describe('the S3 blob store', () => {
  let store: BlobStore;
  let raw: BlobStore;
  before(() => {
    const config = testConfig({ ...s3.env, MIMOTO_S3_PREFIX: 'tenant-a/' });
    assert.equal(config.blobStorage.kind, 's3');
    store = openBlobStore(config, parseKeyring(`k1:${Buffer.alloc(32, 3).toString('base64')}`));
    raw = createRawBlobStore(config.blobStorage);
  });

  test('stores, reads back and deletes a blob; a missing one reads as null and deletes quietly', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0, 1, 2, 0xff, 0xd9]);
    await store.putBlob('vs_s3test/front.jpg', bytes);
    assert.deepEqual(await store.getBlob('vs_s3test/front.jpg'), bytes);
    await store.putBlob('vs_s3test/front.jpg', Buffer.from('replaced'));
    assert.equal((await store.getBlob('vs_s3test/front.jpg'))?.toString(), 'replaced');
    await store.deleteBlob('vs_s3test/front.jpg');
    assert.equal(await store.getBlob('vs_s3test/front.jpg'), null);
    await store.deleteBlob('vs_s3test/front.jpg');
    assert.equal(await store.getBlob('vs_s3test/never.jpg'), null);
  });

  test('the bucket holds ciphertext under the prefix, bound to the blob key', async () => {
    const secret = Buffer.from('山田太郎 1990-04-01 document image bytes');
    await store.putBlob('vs_s3test/selfie.jpg', secret);
    const bare = createRawBlobStore(testConfig(s3.env).blobStorage); // no prefix
    const sealed = await bare.getBlob('tenant-a/vs_s3test/selfie.jpg');
    assert.ok(sealed, 'the object is under the configured prefix');
    assert.equal(sealed.includes(secret), false, 'no plaintext in the bucket');
    assert.equal(sealed.includes(Buffer.from('1990-04-01')), false);
    // The same sealed bytes under another key do not decrypt: a blob cannot be swapped for another.
    await raw.putBlob('vs_s3test/other.jpg', sealed);
    await assert.rejects(store.getBlob('vs_s3test/other.jpg'), DecryptionError);
    // Another keyring cannot read it either.
    const stranger = encryptedBlobStore(raw, parseKeyring(`k1:${Buffer.alloc(32, 4).toString('base64')}`));
    await assert.rejects(stranger.getBlob('vs_s3test/selfie.jpg'), DecryptionError);
  });

  test('a missing bucket is an error, not an empty store', async () => {
    const config = testConfig({ ...s3.env, MIMOTO_S3_BUCKET: 'no-such-bucket' });
    const missing = createRawBlobStore(config.blobStorage);
    await assert.rejects(missing.getBlob('vs_s3test/front.jpg'), /bucket/i);
    await assert.rejects(missing.putBlob('vs_s3test/front.jpg', Buffer.from('x')), /bucket/i);
  });

  test('credentials the server refuses surface as an error, not as a missing blob', async () => {
    const config = testConfig({ ...s3.env, MIMOTO_S3_ACCESS_KEY_ID: 'UNKNOWN' });
    const refused = createRawBlobStore(config.blobStorage);
    await assert.rejects(refused.getBlob('vs_s3test/front.jpg'), /Access Key/i);
    await assert.rejects(refused.putBlob('vs_s3test/front.jpg', Buffer.from('x')), /Access Key/i);
  });

  test('keys outside the blob key pattern never reach the bucket', async () => {
    await assert.rejects(store.putBlob('../escape', Buffer.from('x')), /invalid blob key/);
    await assert.rejects(store.getBlob('a/../../b'), /invalid blob key/);
  });
});

describe('erasure deletes from the S3 store', () => {
  let platform: TestPlatform;
  let api: ApiClient;
  let bucket: BlobStore;

  before(async () => {
    platform = await createTestPlatform({ env: s3.env });
    const tenant = await createTestTenant(platform);
    await platform.database.db
      .updateTable('tenants')
      .set({ settings: JSON.stringify({ retentionDays: 30 }) })
      .where('id', '=', tenant.tenantId)
      .execute();
    api = await ApiClient.start(platform, tenant.apiKey);
    bucket = createRawBlobStore(platform.config.blobStorage);
  });
  after(async () => {
    await api?.app.close();
    await platform?.close();
  });

  /** A decided session `ageDays` old whose document and liveness reference live in the bucket. */
  async function sessionWithImages(ageDays: number): Promise<{ id: string; keys: string[] }> {
    platform.advance(-ageDays * DAY);
    const id = await decidedSession(platform, api, `${CALLBACK_PREFIX}/s3`, ['approved']);
    platform.advance(ageDays * DAY);
    const store = openBlobStore(platform.config, platform.keyring);
    const front = documentBlobKey(id, 'front', 'n1');
    const reference = livenessBlobKey(id, 'chl1', 'reference');
    for (const key of [front, reference]) await store.putBlob(key, Buffer.from(`jpeg ${key}`));
    const db = platform.database.db;
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
        uploaded_at: platform.now(),
      })
      .execute();
    await db
      .updateTable('verification_sessions')
      .set({ document_type: 'passport', liveness_reference_blob: reference })
      .where('id', '=', id)
      .execute();
    for (const key of [front, reference]) assert.ok(await bucket.getBlob(key), `${key} is in the bucket`);
    return { id, keys: [front, reference] };
  }

  test('the retention sweep deletes an old session’s objects and keeps a young one’s', async () => {
    const old = await sessionWithImages(31);
    const young = await sessionWithImages(5);
    assert.equal(await sweepRetention(platform), 1);
    for (const key of old.keys) assert.equal(await bucket.getBlob(key), null, `${key} deleted`);
    for (const key of young.keys) assert.ok(await bucket.getBlob(key), `${key} kept`);
    const image = await api.app.inject({
      method: 'GET',
      url: `/v1/verification-sessions/${young.id}/images/front`,
      headers: { authorization: `Bearer ${api.apiKey}` },
    });
    assert.equal(image.statusCode, 200, 'the API still serves a kept image from the bucket');
    assert.equal(image.rawPayload.toString(), `jpeg ${young.keys[0]}`);
  });

  test('redact deletes the session’s objects from the bucket', async () => {
    const session = await sessionWithImages(1);
    const res = await api.app.inject({
      method: 'POST',
      url: `/v1/verification-sessions/${session.id}/redact`,
      headers: { authorization: `Bearer ${api.apiKey}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    for (const key of session.keys) assert.equal(await bucket.getBlob(key), null, `${key} deleted`);
  });
});
