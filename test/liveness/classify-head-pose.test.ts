// The pose of one frame (issue 5 item 3): thresholds measured on the corpus captures
// (src/liveness/classify-head-pose.ts), and the axis that passes its threshold by more wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyHeadPose } from '../../src/liveness/index.ts';
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
