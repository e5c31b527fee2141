// The distance→similarity map and the ROC figures the accuracy report quotes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  computeRoc,
  distanceFromSimilarity,
  equalErrorRate,
  FACE_SIMILARITY_CALIBRATION,
  faceSimilarity,
  fitSimilarityCalibration,
  similarityFromDistance,
  tarAtFar,
} from '../../../src/checks/face-match/index.ts';

describe('similarity calibration', () => {
  it('similarity falls as the distance grows, and stays within [0,1]', () => {
    let previous = Infinity;
    for (let d = 0; d <= 2; d += 0.01) {
      const s = similarityFromDistance(d);
      assert.ok(s >= 0 && s <= 1, `similarity ${s} at d=${d}`);
      assert.ok(s < previous, `not decreasing at d=${d}`);
      previous = s;
    }
  });

  it('a descriptor of an earlier embedding (face-api, 128 values) compares as no evidence of the same face', () => {
    const current = new Float32Array(512).fill(1 / Math.sqrt(512));
    assert.equal(faceSimilarity(current, new Float32Array(128).fill(1 / Math.sqrt(128))), 0);
    assert.ok(faceSimilarity(current, current) > 0.99);
  });

  it('is 0.5 at the calibration midpoint and inverts back to the distance', () => {
    assert.equal(similarityFromDistance(FACE_SIMILARITY_CALIBRATION.midpoint), 0.5);
    for (const s of [0.1, 0.4, 0.5, 0.6, 0.9]) {
      assert.ok(Math.abs(similarityFromDistance(distanceFromSimilarity(s)) - s) < 1e-9);
    }
  });

  it('refuses a negative or non-finite distance', () => {
    assert.throws(() => similarityFromDistance(-0.1), RangeError);
    assert.throws(() => similarityFromDistance(Number.NaN), RangeError);
  });

  it('fits the midpoint into the gap between classes; medians centred on it map to 0.9 and 0.1', () => {
    const genuine = [0.3, 0.35, 0.4, 0.45, 0.5];
    const impostor = [0.6, 0.65, 0.7, 0.75, 0.8];
    const fit = fitSimilarityCalibration(genuine, impostor, 'test');
    assert.ok(Math.abs(fit.midpoint - 0.55) < 1e-9);
    assert.ok(Math.abs(similarityFromDistance(0.4, fit) - 0.9) < 1e-9);
    assert.ok(Math.abs(similarityFromDistance(0.7, fit) - 0.1) < 1e-9);
  });
});

describe('ROC figures', () => {
  it('separated classes have EER 0 and TAR 100 % at any FAR', () => {
    const genuine = [0.3, 0.4, 0.5];
    const impostor = [0.6, 0.7, 0.8, 0.9];
    assert.equal(equalErrorRate(genuine, impostor).eer, 0);
    assert.equal(tarAtFar(genuine, impostor, 0).tar, 1);
  });

  it('overlapping classes have the EER where FAR and FRR meet', () => {
    // One genuine pair (0.75) beyond one impostor pair (0.65): at d ≤ 0.65 FAR 1/4, FRR 1/4.
    const genuine = [0.3, 0.4, 0.5, 0.75];
    const impostor = [0.65, 0.8, 0.9, 1.0];
    const { eer, threshold } = equalErrorRate(genuine, impostor);
    assert.equal(eer, 0.25);
    assert.equal(threshold, 0.65);
    assert.equal(tarAtFar(genuine, impostor, 0).tar, 0.75);
    assert.equal(tarAtFar(genuine, impostor, 0.25).tar, 1);
  });

  it('the ROC runs from (0,0) to (1,1) without going back', () => {
    const roc = computeRoc([0.2, 0.5, 0.7], [0.4, 0.6, 0.9]);
    assert.deepEqual(roc.at(0), { threshold: -Infinity, far: 0, tar: 0 });
    assert.equal(roc.at(-1)?.far, 1);
    assert.equal(roc.at(-1)?.tar, 1);
    for (let i = 1; i < roc.length; i++) {
      assert.ok(roc[i]!.far >= roc[i - 1]!.far && roc[i]!.tar >= roc[i - 1]!.tar);
    }
  });

  it('says when a FAR is finer than the impostor set can show', () => {
    assert.equal(tarAtFar([0.1], new Array(700).fill(0.9), 0.001).isResolved, false);
    assert.equal(tarAtFar([0.1], new Array(1000).fill(0.9), 0.001).isResolved, true);
  });
});
