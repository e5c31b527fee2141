// The benches report p50/p95/p99 through this one function: nearest rank, always a measured value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentile, percentileOf } from '../../src/platform/math/percentile.ts';

describe('percentile', () => {
  const hundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);

  it('is the value at the nearest rank of an ascending list', () => {
    assert.equal(percentile(hundred, 50), 50);
    assert.equal(percentile(hundred, 95), 95);
    assert.equal(percentile(hundred, 99), 99);
    assert.equal(percentile(hundred, 100), 100);
    assert.equal(percentile(hundred, 0), 1);
    assert.equal(percentile([10, 20, 30], 50), 20);
  });

  it('is NaN for an empty list, never a made-up figure', () => {
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('sorts a list in any order by value, not as text', () => {
    assert.equal(percentileOf([9, 100, 20], 50), 20);
    assert.equal(percentileOf([9, 100, 20], 100), 100);
  });
});
