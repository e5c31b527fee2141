import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, CALLBACK_PREFIX, countWrites, createTestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

describe('request limits and headers', () => {
  let platform: TestPlatform;
  let api: ApiClient;

  before(async () => {
    platform = await createTestPlatform({
      env: { MIMOTO_RATE_LIMIT_PER_SECOND: '1', MIMOTO_RATE_LIMIT_BURST: '10' },
    });
    api = await ApiClient.start(platform, (await createTestTenant(platform)).apiKey);
  });
  after(async () => {
    await api.app.close();
    await platform.close();
  });

  it('answers 413 for a JSON body over 64 KB and stores nothing', async () => {
    const other = await createTestTenant(platform);
    const client = new ApiClient(api.app, other.apiKey);
    const before = await countWrites(platform);
    const res = await client.createSession({ callbackUrl: CALLBACK_PREFIX, state: 'x'.repeat(70_000) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error, 'PayloadTooLarge');
    assert.deepEqual(await countWrites(platform), before);
  });

  for (const contentType of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ]) {
    it(`answers 415 for ${contentType}`, async () => {
      const other = await createTestTenant(platform);
      const res = await new ApiClient(api.app, other.apiKey).createSession(`callbackUrl=${CALLBACK_PREFIX}`, {
        'content-type': contentType,
      });
      assert.equal(res.statusCode, 415);
      assert.equal(res.json().error, 'UnsupportedMediaType');
    });
  }

  it('accepts application/json with a charset', async () => {
    const other = await createTestTenant(platform);
    const res = await new ApiClient(api.app, other.apiKey).createSession(
      JSON.stringify({ callbackUrl: CALLBACK_PREFIX }),
      {
        'content-type': 'application/json; charset=utf-8',
      },
    );
    assert.equal(res.statusCode, 201);
  });

  it('limits each key to its burst, then answers 429 with Retry-After; other keys are unaffected', async () => {
    const limited = await createTestTenant(platform);
    const client = new ApiClient(api.app, limited.apiKey);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await client.getSession('vs_none')).statusCode);
    assert.deepEqual(statuses, Array(10).fill(404));
    // The bucket refills one token a second while these run (slowly on a loaded CI machine), so a
    // request or two more may still pass; twenty more cannot, unless they take ten seconds.
    let refused = await client.getSession('vs_none');
    for (let i = 0; i < 20 && refused.statusCode !== 429; i++) refused = await client.getSession('vs_none');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error, 'TooManyRequests');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    const fresh = await createTestTenant(platform);
    assert.equal((await new ApiClient(api.app, fresh.apiKey).getSession('vs_none')).statusCode, 404);
  });

  it('sends no CORS headers under /v1, preflight included', async () => {
    const preflight = await api.app.inject({
      method: 'OPTIONS',
      url: '/v1/verification-sessions',
      headers: { origin: 'https://browser.example', 'access-control-request-method': 'POST' },
    });
    assert.ok(preflight.statusCode >= 400);
    const other = await createTestTenant(platform);
    const real = await new ApiClient(api.app, other.apiKey).createSession(
      { callbackUrl: CALLBACK_PREFIX },
      { origin: 'https://browser.example' },
    );
    assert.equal(real.statusCode, 201);
    for (const res of [preflight, real]) {
      const cors = Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
      assert.deepEqual(cors, []);
    }
  });
});

describe('rate limit switched off', () => {
  it('lets a key make many requests at once when MIMOTO_RATE_LIMIT_PER_SECOND=0', async () => {
    const platform = await createTestPlatform({ env: { MIMOTO_RATE_LIMIT_PER_SECOND: '0' } });
    try {
      const api = await ApiClient.start(platform, (await createTestTenant(platform)).apiKey);
      const results = await Promise.all(Array.from({ length: 300 }, () => api.getSession('vs_none')));
      assert.ok(results.every((r) => r.statusCode === 404));
      await api.app.close();
    } finally {
      await platform.close();
    }
  });
});
