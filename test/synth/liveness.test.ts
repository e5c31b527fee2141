import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { POSE_THRESHOLDS } from '../../src/liveness/index.ts';
import { detectFaceMesh } from '../../src/platform/ml/human.ts';
import type { FaceSceneParameters } from '../../src/synth/face-scene.ts';
import {
  generateCorpus,
  POSES,
  packagedFacePeople,
  readY4mInfo,
  renderHeadPose,
} from '../../src/synth/index.ts';
import { fitFaceScene, MAX_LIVE_FACE_WIDTH } from '../../src/synth/liveness-capture.ts';

const scene: FaceSceneParameters = {
  width: 320,
  height: 240,
  faceWidth: 1.5,
  centre: [0.5, 0.5],
  background: { kind: 'stone', colour: [200, 196, 188], seed: 7 },
};

// Three of the packaged people (src/synth/faces.ts), each in the selfie-like cut the live check
// uses: two whose photo is itself turned, so the frontalisation is exercised too (sample4b: Human
// measures about 14° yaw, 6° pitch; sample3c, a tilted selfie taken from below, whose own angles
// Human misreads by several degrees), and a frontal one (sample1c, about 4°).
for (const photo of ['sample4b', 'sample3c', 'sample1c']) {
  test(`rendered poses of ${photo} read back from Human's face mesh with the right sign and size (±10°)`, async () => {
    const file = (await packagedFacePeople()).get(photo)?.[1] ?? '';
    const measure = async (name: keyof typeof POSES) => {
      const image = await renderHeadPose(file, POSES[name], scene);
      const mesh = await detectFaceMesh({ ...image, channels: 3 });
      assert.ok(mesh, `${photo} ${name}: a face is found`);
      return mesh;
    };
    const centre = await measure('center');
    assert.ok(
      Math.abs(centre.rotation.yaw) <= 3 && Math.abs(centre.rotation.pitch) <= 3,
      `centre is frontal: yaw ${centre.rotation.yaw.toFixed(1)}, pitch ${centre.rotation.pitch.toFixed(1)}`,
    );
    for (const name of ['turn_left', 'turn_right', 'look_up', 'look_down'] as const) {
      const mesh = await measure(name);
      const want = POSES[name];
      const got = mesh.rotation;
      const axis = want.yaw !== 0 ? 'yaw' : 'pitch';
      assert.equal(
        Math.sign(got[axis]),
        Math.sign(want[axis]),
        `${photo} ${name} ${axis} sign: got ${got[axis].toFixed(1)}`,
      );
      assert.ok(
        Math.abs(got[axis] - want[axis]) <= 10,
        `${photo} ${name} ${axis}: want ${want[axis]}, got ${got[axis].toFixed(1)}`,
      );
    }
    // Closer: the face spans more of the frame (landmark extent; Human's box is padded and clipped).
    const closer = await measure('closer');
    const span = (m: typeof centre) =>
      Math.max(...m.landmarks.map((p) => p.x)) - Math.min(...m.landmarks.map((p) => p.x));
    assert.ok(span(closer) > span(centre) * 1.2, `closer face is bigger: ${span(closer)} vs ${span(centre)}`);
  });
}

test('a face that would fill the live-check frame is moved back until it fits, and then its turns and nods read as such', async () => {
  const people = await packagedFacePeople();
  // sample3c's selfie cut in a frame as the simulator draws it: its face would span about 190 px of 320.
  const large = people.get('sample3c')?.[1] ?? '';
  const wide: FaceSceneParameters = { ...scene, faceWidth: 1.588, centre: [0.522, 0.645] };
  const fitted = await fitFaceScene(large, wide);
  assert.ok(fitted.faceWidth < wide.faceWidth, `scaled down: ${fitted.faceWidth}`);
  const read = async (name: keyof typeof POSES) => {
    const mesh = await detectFaceMesh({ ...(await renderHeadPose(large, POSES[name], fitted)), channels: 3 });
    assert.ok(mesh, `${name}: a face is found`);
    return mesh;
  };
  const centre = await read('center');
  const span = Math.max(...centre.landmarks.map((p) => p.x)) - Math.min(...centre.landmarks.map((p) => p.x));
  assert.ok(span <= MAX_LIVE_FACE_WIDTH + 10, `face width ${span.toFixed(0)} px`);
  const from = (mesh: typeof centre, axis: 'yaw' | 'pitch') => mesh.rotation[axis] - centre.rotation[axis];
  assert.ok(from(await read('turn_left'), 'yaw') <= -POSE_THRESHOLDS.turnYaw, 'turn left reads as a turn');
  assert.ok(from(await read('turn_right'), 'yaw') >= POSE_THRESHOLDS.turnYaw, 'turn right reads as a turn');
  assert.ok(from(await read('look_up'), 'pitch') <= -POSE_THRESHOLDS.nodPitch, 'look up reads as a nod');
  assert.ok(from(await read('look_down'), 'pitch') >= POSE_THRESHOLDS.nodPitch, 'look down reads as a nod');
  // A face that fits already keeps its scene.
  const small = people.get('sample1c')?.[1] ?? '';
  const narrow: FaceSceneParameters = { ...scene, faceWidth: 1.45 };
  assert.deepEqual(await fitFaceScene(small, narrow), narrow);
});

test('the liveness video is a 4:2:0 y4m at 15–30 fps lasting at least 8 s, matching the manifest', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'synth-video-'));
  try {
    const manifest = await generateCorpus({
      outDir: out,
      seed: 3,
      count: 1,
      captureWidth: 320,
      only: ['drivers_license-genuine-0'],
    });
    const sample = manifest.samples[0];
    assert.ok(sample?.files.video);
    const bytes = await readFile(path.join(out, sample.files.video));
    const header = bytes.subarray(0, bytes.indexOf(0x0a)).toString('ascii');
    assert.match(header, /^YUV4MPEG2 W320 H240 F15:1 Ip A1:1 C420jpeg$/);
    const info = readY4mInfo(bytes);
    const live = sample.truth.liveness as { videoFrames: number; fps: number; duration: number };
    assert.equal(info.frames, live.videoFrames, 'whole number of frames, as many as the truth says');
    assert.ok(info.fps >= 15 && info.fps <= 30);
    assert.ok(info.frames / info.fps >= 8, `lasts ${info.frames / info.fps} s`);
    // Every frame starts with its FRAME marker.
    const frameBytes = 6 + 320 * 240 * 1.5;
    const start = bytes.indexOf(0x0a) + 1;
    for (const i of [0, Math.floor(info.frames / 2), info.frames - 1]) {
      assert.equal(
        bytes.subarray(start + i * frameBytes, start + i * frameBytes + 6).toString('ascii'),
        'FRAME\n',
      );
    }
    // The frames of the manifest cover every pose of the challenge.
    const names = new Set(sample.files.frames.map((f) => f.pose.name));
    for (const step of ['turn_left', 'turn_right', 'look_up', 'look_down', 'closer'])
      assert.ok(names.has(step), step);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
