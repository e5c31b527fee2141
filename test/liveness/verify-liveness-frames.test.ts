// Server liveness verification on the committed corpus captures: every live
// capture passes; every face attack type (static_photo, warped_photo, replayed_frames,
// face_swap_midway) fails. The rates are printed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import type { LivenessStep } from '../../src/liveness/liveness-challenge-steps.ts';
import { type LivenessFrame, verifyLivenessFrames } from '../../src/liveness/verify-liveness-frames.ts';

const CORPUS = 'test/fixtures/corpus';
const FACE_ATTACKS = ['static_photo', 'warped_photo', 'replayed_frames', 'face_swap_midway'];

type Sample = {
  id: string;
  attack: string | null;
  files: { frames: { file: string; t: number }[] };
  truth: { liveness: { challenge: string[] } };
};
const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as {
  samples: Sample[];
};

/** The corpus names the closer step `closer`; the challenge calls it `move_closer`. */
const toStep = (name: string) => (name === 'closer' ? 'move_closer' : name) as LivenessStep;

async function framesOf(sample: Sample): Promise<LivenessFrame[]> {
  const frames: LivenessFrame[] = [];
  for (const f of sample.files.frames) {
    const { data, info } = await sharp(readFileSync(path.join(CORPUS, f.file)))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    frames.push({
      t: Math.round(f.t * 1000),
      image: { data, width: info.width, height: info.height, channels: 3 },
    });
  }
  return frames;
}

const tally = { live: { total: 0, passed: 0 }, attack: { total: 0, failed: 0 } };
after(() => {
  console.log(
    `liveness on corpus: live captures passed ${tally.live.passed}/${tally.live.total}; ` +
      `face attacks refused ${tally.attack.failed}/${tally.attack.total}`,
  );
});

// Live captures: the genuine bundles and every bundle whose attack is not on the face
// (document attacks and other_person keep a live capture of a real head).
for (const sample of manifest.samples) {
  const isFaceAttack = sample.attack !== null && FACE_ATTACKS.includes(sample.attack);
  test(`${sample.id}: ${isFaceAttack ? 'face attack is refused' : 'live capture passes'}`, async () => {
    const verdict = await verifyLivenessFrames(
      sample.truth.liveness.challenge.map(toStep),
      await framesOf(sample),
    );
    const detail = JSON.stringify({
      failures: verdict.failures,
      observed: verdict.observedSteps,
      distance: verdict.maxFaceDistance?.toFixed(3),
    });
    if (isFaceAttack) {
      tally.attack.total++;
      if (!verdict.passed) tally.attack.failed++;
      assert.equal(verdict.passed, false, `${sample.attack} must fail: ${detail}`);
      assert.equal(verdict.confidence, 0);
      // Each attack is caught by the rule meant for it, not by accident.
      const expected = sample.attack === 'face_swap_midway' ? 'face_changed' : 'pose_order_mismatch';
      assert.ok(verdict.failures.includes(expected), `${sample.attack} fails on ${expected}: ${detail}`);
    } else {
      tally.live.total++;
      if (verdict.passed) tally.live.passed++;
      assert.equal(verdict.passed, true, `live capture must pass: ${detail}`);
      assert.ok(verdict.confidence > 0.5, `confidence ${verdict.confidence}`);
      assert.notEqual(verdict.referenceIndex, null);
    }
  });
}

test('a capture answering a different challenge order fails', async () => {
  const sample = manifest.samples.find((s) => s.id === 'passport-genuine-0')!;
  const steps = sample.truth.liveness.challenge.map(toStep);
  const verdict = await verifyLivenessFrames([...steps].reverse(), await framesOf(sample));
  assert.equal(verdict.passed, false);
  assert.ok(verdict.failures.includes('pose_order_mismatch'));
});

test('a frame without a face fails the capture', async () => {
  const sample = manifest.samples.find((s) => s.id === 'passport-genuine-0')!;
  const frames = await framesOf(sample);
  const blank = Buffer.alloc(frames[2]!.image.width * frames[2]!.image.height * 3, 128);
  frames[2] = { ...frames[2]!, image: { ...frames[2]!.image, data: blank } };
  const verdict = await verifyLivenessFrames(sample.truth.liveness.challenge.map(toStep), frames);
  assert.equal(verdict.passed, false);
  assert.ok(verdict.failures.includes('no_face'));
});
