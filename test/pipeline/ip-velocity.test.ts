// The sessions-per-IP fraud fact on a real database: distinct identities among the tenant's
// sessions from one clientIpAddress in the hour before a session (gather-fraud-facts.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countIdentitiesFromIp, saveIdentityKeys } from '../../src/pipeline/pipeline-repository.ts';
import { ApiClient, CALLBACK_PREFIX, createTestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

let platform: TestPlatform;
let api: ApiClient;
let tenantId: string;

before(async () => {
  platform = await createTestPlatform();
  const tenant = await createTestTenant(platform);
  tenantId = tenant.tenantId;
  api = await ApiClient.start(platform, tenant.apiKey);
});
after(async () => {
  await api?.app.close();
  await platform?.close();
});

async function sessionFrom(ip: string, identityHash: string | null): Promise<string> {
  const created = await api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/done`, clientIpAddress: ip });
  assert.equal(created.statusCode, 201, created.body);
  const { sessionId } = created.json() as { sessionId: string };
  await saveIdentityKeys(platform.database.db, {
    sessionId,
    tenantId,
    documentNumberHash: null,
    identityHash,
    hashKeyId: platform.keyring.currentId,
    now: platform.now(),
  });
  return sessionId;
}

test('one person retrying counts once; different people, and sessions of unknown identity, each count', async () => {
  const ip = '198.51.100.23';
  const count = () =>
    countIdentitiesFromIp(
      platform.database.db,
      tenantId,
      ip,
      new Date(platform.now().getTime() - 3_600_000),
      platform.now(),
    );
  for (let i = 0; i < 4; i++) await sessionFrom(ip, 'identity-a');
  assert.equal(await count(), 1);
  await sessionFrom(ip, 'identity-b');
  await sessionFrom(ip, null);
  await sessionFrom(ip, null);
  assert.equal(await count(), 4);
  // Another address, and sessions older than the hour, are not counted.
  await sessionFrom('198.51.100.24', 'identity-c');
  platform.advance(3_600_001);
  await sessionFrom(ip, 'identity-d');
  assert.equal(await count(), 1);
});
