import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey } from '../../src/api-keys/api-key-format.ts';
import { newId, randomBase62 } from '../../src/platform/crypto/random-id.ts';
import { TokenBuckets } from '../../src/platform/http/token-bucket.ts';

describe('identifiers and keys (docs/decisions.md)', () => {
  it('makes ids of prefix + 26 Crockford base32 characters, all distinct', () => {
    const ids = Array.from({ length: 2000 }, () => newId('vs'));
    for (const id of ids.slice(0, 50)) assert.match(id, /^vs_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('uses every base62 character about equally', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62);
    for (const n of counts.values()) assert.ok(n > 800 && n < 1200, `count ${n}`);
  });

  it('issues mmt_live_ keys in production and mmt_test_ keys elsewhere', () => {
    assert.match(generateApiKey('production').apiKey, /^mmt_live_[0-9A-Za-z]{32}$/);
    assert.match(generateApiKey('staging').apiKey, /^mmt_test_[0-9A-Za-z]{32}$/);
    assert.match(generateApiKey('development').apiKey, /^mmt_test_[0-9A-Za-z]{32}$/);
  });
});

describe('token bucket rate limit', () => {
  it('allows the burst, then refills at the sustained rate', () => {
    let now = 0;
    const buckets = new TokenBuckets(100, 200, () => now);
    for (let i = 0; i < 200; i++) assert.ok(buckets.take('k').allowed);
    const refused = buckets.take('k');
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1);
    now += 50; // 5 tokens
    let allowed = 0;
    while (buckets.take('k').allowed) allowed++;
    assert.equal(allowed, 5);
    assert.ok(buckets.take('other').allowed, 'keys are independent');
  });
});
