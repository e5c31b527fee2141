// The identity keys the fraud check stores per session (session_identity_keys): keyed hashes, not
// plain digests a dump could be searched with; same document and same face with different identity
// still found, across a key rotation and for rows written before keyed hashes (rehashed at startup).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/api-keys/index.ts';
import { openPlatform } from '../../src/main/open-platform.ts';
import { gatherFraudFacts } from '../../src/pipeline/gather-fraud-facts.ts';
import {
  identityKeyHash,
  legacyIdentityDigest,
  rehashLegacyIdentityKeys,
} from '../../src/pipeline/identity-hashes.ts';
import { saveFaceDescriptor } from '../../src/pipeline/pipeline-repository.ts';
import { descriptorContext } from '../../src/pipeline/stored-results.ts';
import { encryptJson, type Keyring, parseKeyring } from '../../src/platform/crypto/encryption.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createSession } from '../../src/sessions/create-session.ts';
import { findSession } from '../../src/sessions/index.ts';
import { createTenant } from '../../src/tenants/index.ts';
import {
  createTestPlatform,
  POSTGRES_URL,
  TEST_ENCRYPTION_KEY,
  type TestPlatform,
  testConfig,
} from '../helpers/test-platform.ts';

const NEW_KEY = `fresh:${Buffer.alloc(32, 9).toString('base64')}`;
const PERSON = { lastName: '森田', firstName: '悠斗', birthDate: '1988-05-12' };
const OTHER_PERSON = { lastName: '佐藤', firstName: '花子', birthDate: '1991-02-03' };
const DOCUMENT_NUMBER = 'AB1234567';
const IDENTITY = `${PERSON.lastName}|${PERSON.firstName}|${PERSON.birthDate}`;

let platform: TestPlatform;
let tenantId: string;
let keyId: string;

before(async () => {
  platform = await createTestPlatform();
  ({ tenantId } = await createTenant(platform, {
    name: 'Identity tenant',
    callbackUrlPrefixes: ['https://tenant.example/cb'],
  }));
  ({ keyId } = await createApiKey(platform, tenantId, 'identity tests'));
});
after(async () => {
  await platform?.close();
});

const withKeyring = (keyring: Keyring): Platform => ({ ...platform, keyring });

async function newSession(on: Platform, face: number[] | null = null): Promise<string> {
  const { sessionId } = await createSession(
    on,
    { tenantId, keyId },
    { callbackUrl: 'https://tenant.example/cb/done' },
  );
  if (face) {
    await saveFaceDescriptor(on.database.db, {
      sessionId,
      tenantId,
      source: 'selfie',
      descriptorEnc: encryptJson(on.keyring, face, descriptorContext(sessionId, 'selfie')),
      now: on.now(),
    });
  }
  return sessionId;
}

/** The fraud check's facts for a session whose document read `person` and `documentNumber`. */
async function factsFor(on: Platform, sessionId: string, person = PERSON, documentNumber = DOCUMENT_NUMBER) {
  const session = await findSession(on.database.db, sessionId);
  assert.ok(session);
  return gatherFraudFacts(on, session, {
    ocr: {
      status: 'success',
      confidence: 0.95,
      payload: { ...person, address: '東京都千代田区1-1' },
    } as never,
    ocrExtras: { documentNumber } as never,
    userInput: null,
    minimumAge: 18,
    sameFaceSimilarity: 0.8,
    faceSimilarityThreshold: 0.6,
  });
}

const identityRow = (sessionId: string) =>
  platform.database.db
    .selectFrom('session_identity_keys')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();

// One face for "the same person", one far from it.
const FACE = Array.from({ length: 512 }, (_, i) => Math.sin(i));
const OTHER_FACE = Array.from({ length: 512 }, (_, i) => Math.cos(i * 7));

describe('keyed identity hashes', () => {
  test('a stored hash is not the plain digest of its value, and depends on the key', async () => {
    const sessionId = await newSession(platform);
    await factsFor(platform, sessionId);
    const row = await identityRow(sessionId);
    assert.equal(row.hash_key_id, 'test');
    // The campaign's attack: from a dump, hash guesses of (tenant id, kind, value) and compare.
    assert.notEqual(row.identity_hash, legacyIdentityDigest(tenantId, 'identity', IDENTITY));
    assert.notEqual(row.document_number_hash, legacyIdentityDigest(tenantId, 'document', DOCUMENT_NUMBER));
    assert.equal(row.identity_hash, identityKeyHash(platform.keyring, tenantId, 'identity', IDENTITY).hash);
    assert.notEqual(
      row.identity_hash,
      identityKeyHash(parseKeyring(NEW_KEY), tenantId, 'identity', IDENTITY).hash,
      'another key gives another hash',
    );
  });

  test('same document number and same face with different identity are found, also across a key rotation', async () => {
    const first = await newSession(platform, FACE);
    const firstFacts = await factsFor(platform, first);
    assert.ok(firstFacts.sameDocumentSessions.length >= 0);

    // The keyring rotates: a new current key, the old one kept for what it wrote.
    const rotated = withKeyring(parseKeyring(`${NEW_KEY},${TEST_ENCRYPTION_KEY}`));
    const second = await newSession(rotated, FACE);
    const facts = await factsFor(rotated, second, OTHER_PERSON);
    assert.equal((await identityRow(second)).hash_key_id, 'fresh', 'new rows use the current key');
    assert.ok(
      facts.sameDocumentSessions.some((s) => s.sessionId === first),
      'the same document number under the old key is found',
    );
    const sameFace = facts.sameFaceSessions.find((s) => s.sessionId === first);
    assert.ok(sameFace, 'the same face is found');
    assert.equal(sameFace.differentIdentity, true, 'with different identity data, compared under its key');

    // The same person again, same face, same identity (old key row): not a different identity.
    const third = await newSession(rotated, FACE);
    const again = await factsFor(rotated, third);
    const firstSeen = again.sameFaceSessions.find((s) => s.sessionId === first);
    assert.equal(firstSeen?.differentIdentity, false);
    assert.equal(again.sameFaceSessions.find((s) => s.sessionId === second)?.differentIdentity, true);

    // Another document number and another face: nothing in common.
    const stranger = await newSession(rotated, OTHER_FACE);
    const none = await factsFor(rotated, stranger, OTHER_PERSON, 'ZZ9999999');
    assert.deepEqual(none.sameDocumentSessions, []);
    assert.ok(!none.sameFaceSessions.some((s) => s.sessionId === first));
  });
});

describe('rows written before keyed hashes (migration 0008)', () => {
  test('are rehashed from their stored digest and still match; no plain digest is left', async () => {
    const legacy = await newSession(platform, FACE);
    await platform.database.db
      .insertInto('session_identity_keys')
      .values({
        session_id: legacy,
        tenant_id: tenantId,
        document_number_hash: legacyIdentityDigest(tenantId, 'document', 'LEGACY0001'),
        identity_hash: legacyIdentityDigest(tenantId, 'identity', IDENTITY),
        hash_key_id: null,
        created_at: platform.now(),
      })
      .execute();

    assert.ok((await rehashLegacyIdentityKeys(platform.database.db, platform.keyring)) >= 1);
    const row = await identityRow(legacy);
    assert.equal(row.hash_key_id, 'test');
    assert.equal(
      row.document_number_hash,
      identityKeyHash(platform.keyring, tenantId, 'document', 'LEGACY0001').hash,
    );
    assert.equal(row.identity_hash, identityKeyHash(platform.keyring, tenantId, 'identity', IDENTITY).hash);
    assert.equal(await rehashLegacyIdentityKeys(platform.database.db, platform.keyring), 0, 'idempotent');

    // The earlier test rotated the keyring: its descriptors need the new key too.
    const current = withKeyring(parseKeyring(`${NEW_KEY},${TEST_ENCRYPTION_KEY}`));
    const later = await newSession(current, FACE);
    const facts = await factsFor(current, later, PERSON, 'LEGACY0001');
    assert.ok(facts.sameDocumentSessions.some((s) => s.sessionId === legacy));
    assert.equal(facts.sameFaceSessions.find((s) => s.sessionId === legacy)?.differentIdentity, false);
  });

  test('opening the platform rehashes them before it serves', {
    skip: POSTGRES_URL ? 'the embedded database directory is what openPlatform opens here' : false,
  }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mimoto-rehash-'));
    const config = testConfig({ MIMOTO_DATA_DIR: dataDir });
    let opened = await openPlatform(config, { supervise: false });
    let sessionId: string;
    try {
      const tenant = await createTenant(opened, {
        name: 'Old rows',
        callbackUrlPrefixes: ['https://tenant.example/cb'],
      });
      const key = await createApiKey(opened, tenant.tenantId, 'identity tests');
      ({ sessionId } = await createSession(
        opened,
        { tenantId: tenant.tenantId, keyId: key.keyId },
        { callbackUrl: 'https://tenant.example/cb/x' },
      ));
      await opened.database.db
        .insertInto('session_identity_keys')
        .values({
          session_id: sessionId,
          tenant_id: tenant.tenantId,
          document_number_hash: legacyIdentityDigest(tenant.tenantId, 'document', DOCUMENT_NUMBER),
          identity_hash: null,
          hash_key_id: null,
          created_at: new Date(),
        })
        .execute();
    } finally {
      await opened.close();
    }
    opened = await openPlatform(config, { supervise: false });
    try {
      const row = await opened.database.db
        .selectFrom('session_identity_keys')
        .selectAll()
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      assert.equal(row.hash_key_id, 'test');
      assert.equal(
        row.document_number_hash,
        identityKeyHash(opened.keyring, row.tenant_id, 'document', DOCUMENT_NUMBER).hash,
      );
    } finally {
      await opened.close();
    }
  });
});
