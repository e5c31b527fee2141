// The pooled random source of ids, link tokens and IVs: fresh bytes every call, never shared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pooledRandomBytes } from '../../src/platform/crypto/random-pool.ts';

test('every draw is fresh: no repeats across pool refills, exact lengths, copies not views', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const bytes = pooledRandomBytes(16);
    assert.equal(bytes.length, 16);
    const hex = bytes.toString('hex');
    assert.ok(!seen.has(hex), 'a 128-bit value came out twice');
    seen.add(hex);
    bytes.fill(0); // a caller changing its bytes changes nothing for the next one
  }
  assert.equal(pooledRandomBytes(0).length, 0);
  assert.equal(pooledRandomBytes(5000).length, 5000, 'larger than the pool');
});

test('the bytes are spread over every value (a stuck or zeroed pool would show)', () => {
  const counts = new Array<number>(256).fill(0);
  for (let i = 0; i < 1024; i++) for (const byte of pooledRandomBytes(1000)) counts[byte]! += 1;
  // 1,024,000 bytes: 4000 per value expected, σ ≈ 63; ±15 σ leaves no room for flakiness.
  for (const [value, count] of counts.entries()) {
    assert.ok(count > 3050 && count < 4950, `value ${value} drawn ${count} times`);
  }
});
