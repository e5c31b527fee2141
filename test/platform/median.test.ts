import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median } from '../../src/platform/math/median.ts';

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    assert.equal(median([7, -6.5, 1.45]), 1.45);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([0.3]), 0.3);
  });

  it("leaves the caller's list in its order", () => {
    const readings = [3, 1, 2];
    median(readings);
    assert.deepEqual(readings, [3, 1, 2]);
  });

  it('refuses an empty list rather than answer NaN', () => {
    assert.throws(() => median([]), RangeError);
  });
});
