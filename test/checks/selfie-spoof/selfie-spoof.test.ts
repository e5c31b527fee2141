// selfieSpoofCheck on the committed corpus frames. The liveness verdicts are given
// here (the liveness verification has its own corpus tests in test/liveness), so each test shows
// what this check adds: the live-check outcome dominates, still frames are caught on their own,
// Human's nets are weak signals only, and every result has the §2.9 shape.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import {
  type LivenessOutcome,
  type SelfieSpoofFrame,
  selfieSpoofCheck,
} from '../../../src/checks/selfie-spoof/index.ts';
import { SpoofCheckSchema } from '../../../src/webhooks/webhook-payload.schema.ts';

const CORPUS = 'test/fixtures/corpus';
type Sample = { id: string; files: { frames: { file: string; t: number; pose: { name: string } }[] } };
const samples = (
  JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { samples: Sample[] }
).samples;

function framesOf(id: string): SelfieSpoofFrame[] {
  const s = samples.find((x) => x.id === id) as Sample;
  return s.files.frames.map((f) => ({
    image: readFileSync(path.join(CORPUS, f.file)),
    t: Math.round(f.t * 1000),
    pose: f.pose.name,
  }));
}

const PASSED: LivenessOutcome = { passed: true, confidence: 0.85, failures: [], maxFaceDistance: 0.2 };

for (const id of [
  'drivers_license-genuine-0',
  'my_number_card-genuine-0',
  'passport-genuine-0',
  'screen_replay-0',
]) {
  test(`${id}: a live capture that passed the live check is low risk`, async () => {
    const { result } = await selfieSpoofCheck.run({ frames: framesOf(id), liveness: PASSED });
    assert.equal(result.risk, 'low', result.details);
    assert.equal(result.isDisplayAttack, false);
    assert.ok(Value.Check(SpoofCheckSchema, result), 'interface §2.9 shape');
  });
}

test('a failed live check is high risk and names its failure', async () => {
  const { result } = await selfieSpoofCheck.run({
    frames: framesOf('replayed_frames-0'),
    liveness: { passed: false, confidence: 0, failures: ['pose_order_mismatch'], maxFaceDistance: 0.2 },
  });
  assert.equal(result.risk, 'high');
  assert.equal(result.isDisplayAttack, true);
  assert.match(result.details ?? '', /did not answer the challenge/);
  assert.ok(Value.Check(SpoofCheckSchema, result));
});

test('static_photo-0: still frames are caught even if the live check had passed', async () => {
  const { result, measurements } = await selfieSpoofCheck.run({
    frames: framesOf('static_photo-0'),
    liveness: PASSED,
  });
  assert.notEqual(result.risk, 'low', result.details);
  assert.match(result.details ?? '', /nearly identical/);
  assert.ok(measurements.maxFrameChange < 2, `frame change ${measurements.maxFrameChange}`);
});

test('a face that drifts towards another identity raises the risk', async () => {
  const { result } = await selfieSpoofCheck.run({
    frames: framesOf('passport-genuine-0'),
    liveness: { ...PASSED, maxFaceDistance: 0.6 },
  });
  assert.notEqual(result.risk, 'low');
  assert.match(result.details ?? '', /identity drifts/);
});

test("Human's antispoof/liveness nets alone cannot move the risk past low", async () => {
  const { result } = await selfieSpoofCheck.run({
    frames: framesOf('passport-genuine-0'),
    liveness: PASSED,
    humanScores: [{ antispoof: 0, live: 0 }],
  });
  assert.equal(result.risk, 'low');
  assert.ok((result.score ?? 0) > 0, 'the weak signal still shows in the score');
});

test("without scores from the caller the check runs Human's nets on the first frame and keeps them", async () => {
  const frames = framesOf('drivers_license-genuine-0');
  const { result, measurements } = await selfieSpoofCheck.run({ frames, liveness: PASSED });
  assert.equal(measurements.humanScores.length, 1, JSON.stringify(measurements.humanScores));
  for (const s of measurements.humanScores) {
    assert.ok(s.antispoof !== undefined && s.antispoof >= 0 && s.antispoof <= 1, JSON.stringify(s));
    assert.ok(s.live !== undefined && s.live >= 0 && s.live <= 1, JSON.stringify(s));
  }
  const nets = measurements.cues.find((c) => c.name.startsWith("Human's antispoof/liveness nets"));
  assert.ok(nets, 'the nets are one of the cues');
  assert.ok(nets.score > 0 && nets.score <= 0.3, `a weak signal: ${nets.score}`);
  assert.equal(result.risk, 'low', result.details);
  // The caller's scores, when given, are used instead (the nets are not run again).
  const given = await selfieSpoofCheck.run({
    frames,
    liveness: PASSED,
    humanScores: [{ antispoof: 1, live: 1 }],
  });
  assert.deepEqual(given.measurements.humanScores, [{ antispoof: 1, live: 1 }]);
});

test("a face that did not follow the page's colours goes to review; one that did stays low", async () => {
  const frames = framesOf('passport-genuine-0');
  const unlit = await selfieSpoofCheck.run({
    frames,
    liveness: { ...PASSED, screenLight: { correlation: -0.1 } },
  });
  assert.equal(unlit.result.risk, 'medium', unlit.result.details);
  assert.match(unlit.result.details ?? '', /colour sequence/);
  assert.equal(unlit.measurements.screenLight, -0.1);
  assert.deepEqual(unlit.injectionSignals, ['screen_light_not_reflected']);
  const lit = await selfieSpoofCheck.run({
    frames,
    liveness: { ...PASSED, screenLight: { correlation: 0.8 } },
  });
  assert.equal(lit.result.risk, 'low', lit.result.details);
  assert.deepEqual(lit.injectionSignals, []);
  // Not measured (too few frames, or a challenge without colours): no cue either way.
  const unmeasured = await selfieSpoofCheck.run({
    frames,
    liveness: { ...PASSED, screenLight: { correlation: null } },
  });
  assert.equal(unmeasured.result.risk, 'low');
  assert.equal(unmeasured.measurements.screenLight, null);
});

test('a virtual camera or frames of another size than the camera reported send the capture to review, never to rejection', async () => {
  const frames = framesOf('passport-genuine-0');
  const run = (injectionSignals: string[]) =>
    selfieSpoofCheck.run({
      frames,
      liveness: { ...PASSED, screenLight: { correlation: 0.9 }, injectionSignals },
    });
  const plain = await run([]);
  assert.equal(plain.result.risk, 'low', plain.result.details);
  const virtual = await run(['virtual_camera']);
  assert.equal(virtual.result.risk, 'medium', virtual.result.details);
  assert.match(virtual.result.details ?? '', /virtual-camera/);
  assert.deepEqual(virtual.injectionSignals, ['virtual_camera']);
  // Both camera signals together are still a review: a label and a size can be wrong innocently.
  const both = await run(['virtual_camera', 'camera_settings_mismatch', 'not_a_signal']);
  assert.equal(both.result.risk, 'medium', both.result.details);
  assert.deepEqual(both.injectionSignals, ['virtual_camera', 'camera_settings_mismatch']);
});
