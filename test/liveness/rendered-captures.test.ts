// The live face check on 15-frame captures like the browser uploads (3 frontal frames, each step
// held twice then released, 3 frontal frames), rendered by the corpus generator with camera noise
// and JPEG: the quick sequence reading (tracking while the head holds still) reads the same poses
// as a fresh detection of every frame, and a face swapped in at any point is refused wherever the
// best frontal frame (the reference) lies.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { noisyChallengeCapture } from '../../bench/lib/noisy-challenge-capture.ts';
import {
  classifyHeadPose,
  faceWidth,
  type LivenessFrame,
  type LivenessStep,
  verifyLivenessFrames,
} from '../../src/liveness/index.ts';
import { sameFaceCheckpoints } from '../../src/liveness/verify-liveness-frames.ts';
import { detectFaceMesh, detectFaceMeshes } from '../../src/platform/ml/human.ts';
import { packagedFacePeople } from '../../src/synth/index.ts';

const STEPS: LivenessStep[] = ['turn_left', 'move_closer', 'look_down'];
const scene = {
  width: 320,
  height: 240,
  faceWidth: 1.5,
  centre: [0.5, 0.5] as [number, number],
  background: { kind: 'stone' as const, colour: [190, 180, 170] as [number, number, number], seed: 3 },
};

// Two of the packaged people (src/synth/faces.ts), in the selfie-like cut the live check uses.
const capture = async (person: string, seed: number) =>
  noisyChallengeCapture((await packagedFacePeople()).get(person)?.[1] ?? '', STEPS, scene, seed);

let first: LivenessFrame[];
let second: LivenessFrame[];
before(async () => {
  first = await capture('sample3a', 1);
  second = await capture('sample5d', 2);
});

test('a genuine rendered capture passes', async () => {
  const verdict = await verifyLivenessFrames(STEPS, first);
  assert.equal(verdict.passed, true, JSON.stringify(verdict.failures));
  assert.deepEqual(verdict.observedSteps, STEPS);
  assert.ok((verdict.maxFaceDistance ?? 1) < 0.3, `distance ${verdict.maxFaceDistance}`);
});

// The angles differ by a few degrees (measured up to 3.2°, the mesh reads from a slightly
// different crop), about as much as two fresh readings of neighbouring frames of one held pose.
test('the sequence reading gives the poses a fresh detection of every frame gives', async () => {
  const tracked = await detectFaceMeshes(first.map((f) => f.image));
  const fresh = [];
  for (const frame of first) fresh.push(await detectFaceMesh(frame.image));
  const baseline = faceWidth(fresh[0]!);
  for (const [i, mesh] of tracked.entries()) {
    assert.ok(mesh && fresh[i], `frame ${i}: a face`);
    assert.equal(classifyHeadPose(mesh, baseline), classifyHeadPose(fresh[i]!, baseline), `frame ${i}`);
    assert.ok(Math.abs(mesh.rotation.yaw - fresh[i]!.rotation.yaw) < 4, `frame ${i}: yaw`);
    assert.ok(Math.abs(mesh.rotation.pitch - fresh[i]!.rotation.pitch) < 4, `frame ${i}: pitch`);
  }
});

test('a face that vanishes after tracked frames is noticed', async () => {
  const frames = [...first];
  const blank = Buffer.alloc(320 * 240 * 3, 128);
  frames[13] = { ...frames[13]!, image: { ...frames[13]!.image, data: blank } };
  const verdict = await verifyLivenessFrames(STEPS, frames);
  assert.equal(verdict.passed, false);
  assert.ok(verdict.failures.includes('no_face'));
  assert.equal(verdict.frames[13]?.pose, 'no_face');
  assert.equal(verdict.frames[12]?.pose, 'center');
});

test('another person from the middle of the capture on is refused', async () => {
  const verdict = await verifyLivenessFrames(STEPS, [...first.slice(0, 8), ...second.slice(8)]);
  assert.equal(verdict.passed, false);
  assert.deepEqual(verdict.failures, ['face_changed']);
});

test('another person during the middle movement only is refused', async () => {
  const verdict = await verifyLivenessFrames(STEPS, [
    ...first.slice(0, 6),
    ...second.slice(6, 9),
    ...first.slice(9),
  ]);
  assert.equal(verdict.passed, false);
  assert.deepEqual(verdict.failures, ['face_changed']);
});

test('checkpoints: the first frontal frame, the first frontal frame after each movement, the last frame', () => {
  const poses = (list: string) =>
    list.split(' ').map((pose) => ({ pose }) as Parameters<typeof sameFaceCheckpoints>[0][number]);
  assert.deepEqual(
    sameFaceCheckpoints(poses('center center turn_left turn_left center between look_up center center')),
    [0, 4, 7, 8],
  );
  // A capture that starts between poses and ends on a held pose.
  assert.deepEqual(
    sameFaceCheckpoints(poses('between center move_closer between center look_down')),
    [1, 4, 5],
  );
  assert.deepEqual(sameFaceCheckpoints([]), []);
});
