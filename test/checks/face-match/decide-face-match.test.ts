// decideFaceMatch: the result from two descriptions, as a pipeline that describes the pictures in
// two worker threads uses it. No model needed: descriptors are made up here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideFaceMatch, FACE_SIMILARITY_CALIBRATION } from '../../../src/checks/face-match/index.ts';
import type { FaceDescription } from '../../../src/platform/ml/face-api.ts';

/** A description whose descriptor lies `distance` from the origin descriptor along one axis. */
const described = (distance: number): FaceDescription => {
  const descriptor = new Float32Array(128);
  descriptor[0] = distance;
  return { descriptor, box: { x: 0, y: 0, width: 100, height: 100 }, detectionScore: 0.9, faceCount: 1 };
};

describe('decideFaceMatch', () => {
  it('identical faces are the same person with similarity near 1', () => {
    const r = decideFaceMatch({ document: described(0), selfie: described(0), faceApiVersion: 'test' });
    assert.equal(r.status, 'success');
    assert.equal(r.reason, 'face_match');
    assert.equal(r.isSamePerson, true);
    assert.ok(r.similarity > 0.99 && r.similarity <= 1);
    assert.equal(r.distance, 0);
  });

  it('a distance at the calibration midpoint is a close call', () => {
    const r = decideFaceMatch({
      document: described(0),
      selfie: described(FACE_SIMILARITY_CALIBRATION.midpoint + 0.001),
      faceApiVersion: 'test',
    });
    assert.equal(r.reason, 'face_similarity_near_threshold');
    assert.equal(r.isSamePerson, false);
  });

  it('a missing face on either side says which', () => {
    assert.equal(
      decideFaceMatch({ document: null, selfie: described(0), faceApiVersion: 'test' }).status,
      'no_face_document',
    );
    assert.equal(
      decideFaceMatch({ document: described(0), selfie: null, faceApiVersion: 'test' }).status,
      'no_face_selfie',
    );
  });

  it('records the threshold applied and the model behind it', () => {
    const r = decideFaceMatch({
      document: described(0),
      selfie: described(0.3),
      faceApiVersion: '1.7.15',
      threshold: 0.8,
      nearThresholdBand: 0.05,
    });
    assert.equal(r.threshold, 0.8);
    assert.equal(r.nearThresholdBand, 0.05);
    assert.equal(r.provider, 'mimoto');
    assert.match(r.model, /@vladmandic\/face-api@1\.7\.15/);
  });
});
