// The pose of one frame: thresholds measured on the corpus captures
// (src/liveness/classify-head-pose.ts), and the axis that passes its threshold by more wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyHeadPose, frontalOffset } from '../../src/liveness/index.ts';
import type { FaceMesh } from '../../src/platform/ml/human.ts';

/** A mesh whose landmarks span `width` pixels, turned by the given angles. */
function mesh(yaw: number, pitch: number, width = 100): FaceMesh {
  return {
    landmarks: [
      { x: 100, y: 100, z: 0 },
      { x: 100 + width, y: 100 + width, z: 0 },
    ],
    box: [100, 100, width, width],
    score: 0.9,
    rotation: { yaw, pitch, roll: 0 },
  };
}

test('a frontal face is the centre; small angles are not movements', () => {
  assert.equal(classifyHeadPose(mesh(0, 0), 100), 'center');
  assert.equal(classifyHeadPose(mesh(5.9, -4.9), 100), 'center');
  assert.equal(classifyHeadPose(mesh(0, 6.2), 100), 'between');
});

test('turns and nods as Human reads them on the corpus', () => {
  assert.equal(classifyHeadPose(mesh(-10.6, 2), 100), 'turn_left');
  assert.equal(classifyHeadPose(mesh(21, 0), 100), 'turn_right');
  assert.equal(classifyHeadPose(mesh(0.3, -6.6), 100), 'look_up'); // the weakest nod up measured
  assert.equal(classifyHeadPose(mesh(-1, 15), 100), 'look_down');
});

test('a held pose is not lost to some movement on the other axis', () => {
  // A turn that also reads some pitch, a nod that also reads some yaw (both measured).
  assert.equal(classifyHeadPose(mesh(-16.5, 6.8), 100), 'turn_left');
  assert.equal(classifyHeadPose(mesh(9.1, 13.9), 100), 'look_down');
});

test('closer is a frontal face grown over the baseline; without a baseline it cannot be', () => {
  assert.equal(classifyHeadPose(mesh(1, 0, 130), 100), 'move_closer');
  assert.equal(classifyHeadPose(mesh(1, 0, 115), 100), 'between');
  assert.equal(classifyHeadPose(mesh(1, 0, 130), null), 'center');
});

test("angles are judged from the capture's own frontal reading", () => {
  // drivers_license-genuine-7 of the accuracy corpus: frontal frames read pitch 0 to +1.9, the
  // nod up −6.5 — short of the threshold on its own, 8° above the capture's frontal reading.
  const capture = [mesh(-1.2, 0), mesh(-1.2, -6.5), mesh(-1.3, 1.6), mesh(-0.1, 15.2), mesh(-1.6, 1.9)];
  capture.push(mesh(14, 2.9), mesh(-2, 0.9), mesh(-19, 6.3), mesh(-1.6, 1.6), mesh(-1.2, 1.3));
  const offset = frontalOffset(capture);
  assert.ok(
    Math.abs(offset.pitch - 1.45) < 1e-9 && Math.abs(offset.yaw + 1.45) < 1e-9,
    JSON.stringify(offset),
  );
  assert.equal(classifyHeadPose(mesh(-1.2, -6.4), 100), 'between');
  assert.equal(classifyHeadPose(mesh(-1.2, -6.4), 100, offset), 'look_up');
  assert.deepEqual(
    capture.map((m) => classifyHeadPose(m, 100, offset)),
    [
      'center',
      'look_up',
      'center',
      'look_down',
      'center',
      'turn_right',
      'center',
      'turn_left',
      'center',
      'center',
    ],
  );
  // No frontal frame: nothing to measure from.
  assert.deepEqual(frontalOffset([mesh(20, 0), mesh(0, 15)]), { yaw: 0, pitch: 0 });
});
