// The screen-light challenge (src/liveness/screen-light.ts, docs/spoof-checks.md "Screen light"):
// how the face's colour follows the page's colours on synthetic captures rendered with the
// screen's light on the face (bona fide, and a print held up: paper reflects it too) and without
// (face-injection: frames fed in as the camera; video-replay: a recording on a screen), and the
// share each would send to review through the selfie spoof check's cue alone.
//
//   npm run bench:screen-light -- [--seeds 1000-1039] [--defences]
//
// --defences also runs each capture through the whole face defence as the pipeline does — the live
// check (verifyLivenessFrames: poses, identity, passive detector, screen light) and then the
// selfie spoof check on its verdict — and reports APCER per attack type (attacks neither refused
// by the live check nor sent to review or rejected) and BPCER (bona fide captures that were).
//
// Seeds 1–20 chose the cue's ramp (SELFIE_SPOOF_THRESHOLDS.screenLight); judge on others
// (src/synth/seed-ranges.ts: ≥ 1000 are never tuned on). Synthetic only: how strongly a real
// phone's screen lights a real face, against the room's light and the camera's white balance,
// is not measured here.
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { SELFIE_SPOOF_THRESHOLDS, selfieSpoofCheck } from '../src/checks/selfie-spoof/selfie-spoof.check.ts';
import {
  drawLightSequence,
  LIGHT_FADE_MS,
  LIVENESS_STEPS,
  type LivenessStep,
  lightAt,
  lightRgb,
  measureScreenLight,
  verifyLivenessFrames,
} from '../src/liveness/index.ts';
import { detectFaceMeshes, type RawImage } from '../src/platform/ml/human.ts';
import { FACE_ATTACKS, renderFaceAttackFrames } from '../src/simulate/face-attack-frames.ts';
import { renderChallengeFrames } from '../src/simulate/render-challenge-frames.ts';
import { drawScreenLightStrength, reflectScreenLight } from '../src/simulate/screen-light-reflection.ts';
import { facePeople, Random } from '../src/synth/index.ts';
import { fitFaceScene } from '../src/synth/liveness-capture.ts';
import type { RgbImage } from '../src/synth/photograph-document.ts';

const { values } = parseArgs({
  options: { seeds: { type: 'string', default: '1000-1039' }, defences: { type: 'boolean', default: false } },
});
const [from, to] = String(values.seeds).split('-').map(Number) as [number, number];
const seeds = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);

/** The correlation at or below which the cue alone reaches medium (a review). */
const t = SELFIE_SPOOF_THRESHOLDS;
const reviewAtOrBelow =
  t.screenLight.from - (t.medium / t.screenLightWeight) * (t.screenLight.from - t.screenLight.to);

type Outcome = 'live check refused' | 'selfie high' | 'selfie medium' | 'passed';

async function judge(
  frames: readonly RgbImage[],
  times: readonly number[],
  colours: readonly string[],
  steps: readonly LivenessStep[],
): Promise<{ correlation: number | null; outcome: Outcome | null }> {
  // Through JPEG as the browser sends them, then decoded as the server reads them.
  const raws: RawImage[] = [];
  const jpegs: Buffer[] = [];
  for (const f of frames) {
    const jpeg = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
      .jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
      .toBuffer();
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    raws.push({ data, width: info.width, height: info.height, channels: 3 });
    jpegs.push(jpeg);
  }
  const timed = raws.map((image, i) => ({ t: times[i] ?? 0, image }));
  if (!values.defences) {
    const reading = measureScreenLight(colours, timed, await detectFaceMeshes(raws));
    return { correlation: reading.correlation, outcome: null };
  }
  const verdict = await verifyLivenessFrames(steps, timed, colours);
  const correlation = verdict.screenLight?.correlation ?? null;
  if (!verdict.passed) return { correlation, outcome: 'live check refused' };
  const selfie = await selfieSpoofCheck.run({
    frames: jpegs.map((image, i) => ({ image, t: times[i] ?? 0 })),
    liveness: verdict,
  });
  const outcome =
    selfie.result.risk === 'high'
      ? 'selfie high'
      : selfie.result.risk === 'medium'
        ? 'selfie medium'
        : 'passed';
  return { correlation, outcome };
}

type Row = {
  kind: string;
  seed: number;
  strength: number | null;
  correlation: number | null;
  outcome: Outcome | null;
};
const rows: Row[] = [];
const started = performance.now();
const people = await facePeople();
const names = [...people.keys()].sort();
for (const seed of seeds) {
  const random = new Random(`bench:screen-light:${seed}`);
  const pool: LivenessStep[] = [...LIVENESS_STEPS];
  const steps = [0, 1, 2].map(() => pool.splice(random.int(0, pool.length - 1), 1)[0] as LivenessStep);
  const person = names[(seed - 1) % names.length] as string;
  const photos = people.get(person) ?? [];
  const photo = photos[1] ?? (photos[0] as string);
  const scene = await fitFaceScene(photo, {
    width: 320,
    height: 240,
    faceWidth: Math.round(random.range(1.45, 1.6) * 1000) / 1000,
    centre: [
      Math.round(random.range(0.47, 0.53) * 1000) / 1000,
      Math.round(random.range(0.6, 0.66) * 1000) / 1000,
    ],
    background: { kind: 'stone', colour: [205, 200, 190], seed: random.int(0, 2 ** 30) },
  });
  const colourRandom = random.fork('colours');
  const colours = drawLightSequence(undefined, (below) => colourRandom.int(0, below - 1));
  const strength = drawScreenLightStrength(random.fork('strength'));
  // A person's pace: a frame about every 0.3 s, the browser's timing jitter on top.
  const times = Array.from({ length: 15 }, (_, i) => Math.round(i * 300 + random.range(0, 120)));
  const lit = (frames: readonly RgbImage[]) =>
    frames.map((image, i) => {
      const at = times[i] ?? 0;
      const colour = lightAt(colours, at) ?? lightAt(colours, at + LIGHT_FADE_MS);
      return colour ? reflectScreenLight(image, lightRgb(colour), strength, scene.centre) : image;
    });
  const genuine = (await renderChallengeFrames(photo, steps, scene)).map((f) => f.image);
  const record = (kind: string, s: number | null, reading: Awaited<ReturnType<typeof judge>>) => {
    rows.push({ kind, seed, strength: s, ...reading });
    console.log(
      `${kind} ${seed} (strength ${s ?? '—'}): correlation ${reading.correlation ?? 'not measured'}${reading.outcome ? `, ${reading.outcome}` : ''}`,
    );
  };
  record('bona fide', strength, await judge(lit(genuine), times, colours, steps));
  for (const attack of FACE_ATTACKS) {
    const frames = await renderFaceAttackFrames(attack, photo, steps, scene, `bench:screen-light:${seed}`);
    // Paper reflects the screen's light; a screen's own picture and an injected stream do not.
    const shown = attack === 'printed-photo' ? lit(frames) : frames;
    record(attack, attack === 'printed-photo' ? strength : null, await judge(shown, times, colours, steps));
  }
}

console.log(
  `\nThe cue alone reaches medium (a review) at a correlation ≤ ${reviewAtOrBelow.toFixed(3)}; not measured = no cue.`,
);
console.log(
  '| presentations | n | measured | sent to review by this cue alone | correlation min / median / max |',
);
console.log('|---|---|---|---|---|');
for (const kind of ['bona fide', ...FACE_ATTACKS]) {
  const set = rows.filter((r) => r.kind === kind);
  const measured = set.map((r) => r.correlation).filter((c): c is number => c !== null);
  const flagged = measured.filter((c) => c <= reviewAtOrBelow).length;
  const sorted = [...measured].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const share = measured.length ? ((100 * flagged) / measured.length).toFixed(1) : '—';
  console.log(
    `| ${kind} | ${set.length} | ${measured.length} | ${flagged} (${share} %) | ${sorted[0]?.toFixed(3) ?? '—'} / ${median?.toFixed(3) ?? '—'} / ${sorted.at(-1)?.toFixed(3) ?? '—'} |`,
  );
}
if (values.defences) {
  console.log('\nThe whole face defence (live check, then selfie spoof check on its verdict):');
  console.log(
    '| presentations | n | live check refused | selfie high | selfie medium (review) | passed | error rate |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const kind of ['bona fide', ...FACE_ATTACKS]) {
    const set = rows.filter((r) => r.kind === kind);
    const count = (o: Outcome) => set.filter((r) => r.outcome === o).length;
    const passed = count('passed');
    // BPCER: a bona fide capture not passed; APCER: an attack passed.
    const errors = kind === 'bona fide' ? set.length - passed : passed;
    const rate = set.length ? ((100 * errors) / set.length).toFixed(1) : '—';
    console.log(
      `| ${kind} | ${set.length} | ${count('live check refused')} | ${count('selfie high')} | ${count('selfie medium')} | ${passed} | ${kind === 'bona fide' ? 'BPCER' : 'APCER'} ${rate} % |`,
    );
  }
}
console.log(`\n${rows.length} captures in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
