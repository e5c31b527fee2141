// Passive face presentation-attack detection (liveness/passive-pad.ts, the MiniFASNet nets):
// APCER per attack type and BPCER (ISO/IEC 30107-3) at PASSIVE_PAD.attackBelow, and the threshold
// each set would have chosen.
//
//   npm run bench:pad -- [--seeds 1-12] [--real DIR] [--no-corpus]
//
// Captures, each judged as the selfie spoof check judges it (the median "live" probability over
// 5 frames spread over the capture, the face found by Human):
//   - bona fide: the simulator's genuine persona (15 frames answering a random 3-step challenge)
//     for each seed, and the committed corpus's genuine live captures (test/fixtures/corpus);
//   - attacks, per seed: video-replay (the face answering on a screen, filmed), printed-photo (a
//     print held up), face-injection (rendered frames fed as the camera) — src/simulate/face-attack-frames.ts;
//   - real stills (../shared/real/pad, labels.csv: real / print / screen), one frame each, when present.
// Seeds 1–12 and the corpus's bona fide captures chose the threshold (docs/spoof-checks.md): judge on others.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { passiveReading } from '../src/checks/selfie-spoof/index.ts';
import { PASSIVE_PAD } from '../src/liveness/index.ts';
import { FACE_ATTACKS, renderFaceAttackFrames } from '../src/simulate/face-attack-frames.ts';
import { renderChallengeFrames } from '../src/simulate/render-challenge-frames.ts';
import { faceBenchScenes } from './lib/face-bench-scene.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1-12' },
    real: { type: 'string', default: path.resolve('../shared/real/pad') },
    'no-corpus': { type: 'boolean', default: false },
  },
});
const [from, to] = String(values.seeds).split('-').map(Number) as [number, number];
const seeds = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);

type Row = { set: 'synthetic' | 'real'; kind: string; id: string; live: number | null };
const rows: Row[] = [];
const log = (r: Row) => {
  rows.push(r);
  console.log(`${r.set} ${r.kind} ${r.id}: live ${r.live === null ? 'no face' : r.live.toFixed(3)}`);
};

async function judge(jpegs: readonly Buffer[]): Promise<number | null> {
  return (await passiveReading(jpegs.map((image, t) => ({ image, t })))).live;
}

const encode = (f: { data: Buffer; width: number; height: number }) =>
  sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
    .jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
    .toBuffer();

const started = performance.now();
const sceneFor = await faceBenchScenes('bench:pad');
for (const seed of seeds) {
  const { steps, person, photo, scene } = await sceneFor(seed);
  const genuine = await renderChallengeFrames(photo, steps, scene);
  const id = `${seed} (${person})`;
  log({
    set: 'synthetic',
    kind: 'bona fide',
    id,
    live: await judge(await Promise.all(genuine.map((f) => encode(f.image)))),
  });
  for (const attack of FACE_ATTACKS) {
    const frames = await renderFaceAttackFrames(attack, photo, steps, scene, `bench:pad:${seed}`);
    log({ set: 'synthetic', kind: attack, id, live: await judge(await Promise.all(frames.map(encode))) });
  }
}
const corpus = path.resolve('test/fixtures/corpus');
if (!values['no-corpus']) {
  for (const id of readdirSync(corpus).filter((d) => d.includes('-genuine-'))) {
    const dir = path.join(corpus, id, 'frames');
    if (!existsSync(dir)) continue;
    const jpegs = readdirSync(dir)
      .sort()
      .map((f) => readFileSync(path.join(dir, f)));
    log({ set: 'synthetic', kind: 'bona fide', id: `corpus ${id}`, live: await judge(jpegs) });
  }
}
const realDir = String(values.real);
if (existsSync(path.join(realDir, 'labels.csv'))) {
  const lines = readFileSync(path.join(realDir, 'labels.csv'), 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [file, label] = line.trim().split(',') as [string, string];
    const kind = label === 'real' ? 'bona fide' : label;
    log({ set: 'real', kind, id: file, live: await judge([readFileSync(path.join(realDir, file))]) });
  }
} else console.log(`(no real stills: ${realDir} is absent; synthetic figures only)`);

const isAttack = (live: number | null, threshold: number) => live !== null && live < threshold;
const threshold = PASSIVE_PAD.attackBelow;
console.log(`\nAt attackBelow ${threshold} (a capture with no face found is a non-response, left out):`);
for (const set of ['synthetic', 'real'] as const) {
  const inSet = rows.filter((r) => r.set === set && r.live !== null);
  if (inSet.length === 0) continue;
  const bona = inSet.filter((r) => r.kind === 'bona fide');
  const flagged = bona.filter((r) => isAttack(r.live, threshold)).length;
  console.log(`  ${set}: BPCER ${flagged}/${bona.length}`);
  for (const kind of [...new Set(inSet.map((r) => r.kind))].filter((k) => k !== 'bona fide')) {
    const attacks = inSet.filter((r) => r.kind === kind);
    const passed = attacks.filter((r) => !isAttack(r.live, threshold)).length;
    console.log(`  ${set}: APCER ${kind} ${passed}/${attacks.length}`);
  }
  const noFace = rows.filter((r) => r.set === set && r.live === null).map((r) => r.id);
  if (noFace.length) console.log(`  ${set}: no face found (non-response): ${noFace.join(', ')}`);
  // The threshold this set alone would choose: the highest keeping BPCER ≤ 2 %.
  const lives = bona.map((r) => r.live as number).sort((a, b) => a - b);
  const allowed = Math.floor(lives.length * 0.02);
  console.log(`  ${set}: highest threshold with BPCER ≤ 2 % here: ${lives[allowed]?.toFixed(3) ?? '—'}`);
}
console.log(`\n${rows.length} captures in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
