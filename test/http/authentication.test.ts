import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { disableTenantApiKey } from '../../src/api-keys/index.ts';
import {
  ApiClient,
  CALLBACK_PREFIX,
  countWrites,
  createTestTenant,
  type TestTenant,
} from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

const UNAUTHORIZED = { error: 'Unauthorized', message: 'Invalid or missing API key' };

describe('API key authentication (interface §5, §7)', () => {
  let platform: TestPlatform;
  let api: ApiClient;
  let tenant: TestTenant;

  before(async () => {
    platform = await createTestPlatform();
    tenant = await createTestTenant(platform);
    api = await ApiClient.start(platform, tenant.apiKey);
  });
  after(async () => {
    await api.app.close();
    await platform.close();
  });

  const create = (authorization: string | undefined) =>
    api.app.inject({
      method: 'POST',
      url: '/v1/verification-sessions',
      headers: {
        'content-type': 'application/json',
        ...(authorization === undefined ? {} : { authorization }),
      },
      payload: JSON.stringify({ callbackUrl: CALLBACK_PREFIX }),
    });

  const cases: [string, string | undefined][] = [
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['a Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a key', 'Bearer '],
    ['a key without the prefix', `Bearer ${'a'.repeat(32)}`],
    ['an unknown well-formed key', `Bearer mmt_test_${'A'.repeat(32)}`],
    ['a production key in development', `Bearer mmt_live_${'A'.repeat(32)}`],
    ['a truncated key', 'Bearer mmt_test_abc'],
    ['a one-character key', 'Bearer x'],
    ['two keys', `Bearer mmt_test_${'A'.repeat(32)} mmt_test_${'B'.repeat(32)}`],
    ['a lowercase scheme', `bearer mmt_test_${'A'.repeat(32)}`],
  ];
  for (const [label, header] of cases) {
    it(`answers 401 with the exact body for ${label}, writing nothing`, async () => {
      const before = await countWrites(platform);
      const res = await create(header);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), UNAUTHORIZED);
      assert.deepEqual(await countWrites(platform), before);
    });
  }

  it('checks the key before reading the body: an unauthenticated oversized body is still 401', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/v1/verification-sessions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ callbackUrl: 'x'.repeat(200_000) }),
    });
    assert.equal(res.statusCode, 401);
  });

  it('authenticates every endpoint, GET and reprocess included', async () => {
    assert.deepEqual((await api.getSession('vs_x', 'nope')).json(), UNAUTHORIZED);
    assert.deepEqual((await api.reprocess('vs_x', {}, 'nope')).json(), UNAUTHORIZED);
  });

  it('refuses a key from the next request on once it is disabled', async () => {
    const second = await createTestTenant(platform);
    const api2 = new ApiClient(api.app, second.apiKey);
    assert.equal((await api2.createSession({ callbackUrl: CALLBACK_PREFIX })).statusCode, 201);
    await disableTenantApiKey(platform, second.keyId);
    const res = await api2.createSession({ callbackUrl: CALLBACK_PREFIX });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), UNAUTHORIZED);
  });

  it('keeps the last-used time without writing it on every request', async () => {
    const lastUsed = async () =>
      (
        await platform.database.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', tenant.keyId)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    await api.getSession('vs_none');
    const first = await lastUsed();
    assert.ok(first instanceof Date);
    await api.getSession('vs_none');
    assert.equal((await lastUsed())?.getTime(), first.getTime(), 'unchanged within the minute');
    platform.advance(61_000);
    try {
      await api.getSession('vs_none');
      assert.ok(((await lastUsed())?.getTime() ?? 0) > first.getTime(), 'moved after a minute');
    } finally {
      platform.advance(-61_000);
    }
  });
});

describe('API keys of the production environment', () => {
  it('accepts mmt_live_ keys and refuses mmt_test_ keys', async () => {
    const prod = await createTestPlatform({
      env: { MIMOTO_ENV: 'production', MIMOTO_PUBLIC_URL: 'https://id.example' },
    });
    const dev = await createTestPlatform();
    try {
      const live = await createTestTenant(prod, ['https://tenant.example/cb']);
      const test = await createTestTenant(dev, ['https://tenant.example/cb']);
      const app = await ApiClient.start(prod, live.apiKey);
      assert.equal((await app.createSession({ callbackUrl: 'https://tenant.example/cb' })).statusCode, 201);
      const wrong = await new ApiClient(app.app, test.apiKey).createSession({
        callbackUrl: 'https://tenant.example/cb',
      });
      assert.equal(wrong.statusCode, 401);
      await app.app.close();
    } finally {
      await prod.close();
      await dev.close();
    }
  });
});
