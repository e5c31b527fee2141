// The benches report p50/p95/p99 through this one function: nearest rank, always a measured value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentile, percentileOf, quantileAtFloor } from '../../src/platform/math/percentile.ts';

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

describe('quantileAtFloor (the document-spoof cues)', () => {
  const ten = Float64Array.from({ length: 10 }, (_, i) => i + 1);

  it('takes the value at place floor(q·n), one above nearest rank when q·n is whole', () => {
    assert.equal(quantileAtFloor(ten, 0.9), 10);
    assert.equal(percentile(ten, 90), 9);
    assert.equal(quantileAtFloor(ten, 0.95), 10);
    assert.equal(quantileAtFloor(ten, 0.25), 3);
    assert.equal(quantileAtFloor(ten, 0), 1);
    assert.equal(quantileAtFloor(ten, 1), 10);
  });

  it('sorts pixels of any order by value, and is 0 for no pixels', () => {
    assert.equal(quantileAtFloor(Uint8Array.from([200, 9, 30]), 0.5), 30);
    assert.equal(quantileAtFloor([], 0.5), 0);
  });
});
