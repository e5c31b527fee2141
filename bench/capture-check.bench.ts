// How long the hosted flow's capture check makes a person wait after an upload, and what it
// answers, per kind of photo: the committed corpus's fronts (test/fixtures/corpus, synthetic:
// genuine documents and the attacks', which are documents too), their backs, each front sent as
// the back, a selfie, and photos that are no document at all — group photos (the photos inside
// @vladmandic/face-api's demo folder, read from node_modules, never copied), a screenshot of a web
// page (@vladmandic/human's assets) and pages of text drawn here. `--synth DIR` adds the fronts of
// a `mimoto synth` output (e.g. seed 7: its My Number card is a 6° tilted capture with glare).
// Each upload goes through what the upload route runs — decoding, the quality gate, then the
// check with the service's budget — after the models are warmed as `mimoto start` warms them.
// Prints each time and verdict, then per kind p50/p95/max and how many were accepted; say the
// machine's load (uptime) with the figures.
// Run: nice -n 10 node --import tsx bench/capture-check.bench.ts [--rounds 2] [--synth DIR]
//      [--budget MS] [--only KIND[,KIND]]
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import {
  documentQualityProblem,
  measureDocumentQuality,
} from '../src/hosted-flow/assess-document-quality.ts';
import { decodeUploadImage } from '../src/hosted-flow/decode-upload-image.ts';
import {
  CAPTURE_CHECK_BUDGET_MS,
  identifyDocumentCapture,
} from '../src/hosted-flow/identify-document-capture.ts';
import { closeInferencePool } from '../src/inference/index.ts';
import { warmUpCheckModels } from '../src/pipeline/warm-up.ts';
import { percentile } from '../src/platform/math/percentile.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    synth: { type: 'string' },
    budget: { type: 'string', default: String(CAPTURE_CHECK_BUDGET_MS) },
    only: { type: 'string' },
  },
});
const budgetMs = Number(values.budget);

type Case = {
  kind: string;
  name: string;
  image: () => Promise<Buffer>;
  side: 'front' | 'back';
  chosen: string;
  /** A document's front or back meant as what it is: the check should take it. */
  genuine: boolean;
};
const cases: Case[] = [];
const file = (f: string) => async () => readFileSync(f);

const CORPUS = 'test/fixtures/corpus';
const manifest = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8')) as {
  samples: { id: string; documentType: string; quality: string; files: { front: string; back?: string } }[];
};
for (const s of manifest.samples) {
  cases.push({
    kind: 'corpus front',
    name: `${s.id} (${s.quality})`,
    image: file(`${CORPUS}/${s.files.front}`),
    side: 'front',
    chosen: s.documentType,
    genuine: true,
  });
  if (s.id.endsWith('-genuine-0') && s.files.back) {
    cases.push({
      kind: 'corpus back',
      name: `${s.id} back`,
      image: file(`${CORPUS}/${s.files.back}`),
      side: 'back',
      chosen: s.documentType,
      genuine: true,
    });
    cases.push({
      kind: 'front as back',
      name: `${s.id} front as back`,
      image: file(`${CORPUS}/${s.files.front}`),
      side: 'back',
      chosen: s.documentType,
      genuine: false,
    });
  }
}
if (values.synth) {
  const dir = values.synth;
  const synth = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as typeof manifest & {
    seed: number;
  };
  for (const s of synth.samples)
    cases.push({
      kind: 'synth front',
      name: `seed ${synth.seed} ${s.id} (${s.quality})`,
      image: file(path.join(dir, s.files.front)),
      side: 'front',
      chosen: s.documentType,
      genuine: true,
    });
}
const selfie = 'test/fixtures/selfie-as-front/selfie.jpg';
cases.push({
  kind: 'selfie',
  name: 'selfie as licence front',
  image: file(selfie),
  side: 'front',
  chosen: 'drivers_license',
  genuine: false,
});
cases.push({
  kind: 'selfie',
  name: 'selfie as licence back',
  image: file(selfie),
  side: 'back',
  chosen: 'drivers_license',
  genuine: false,
});

// No document at all. The photos are read where npm installed them; absent, they are said absent.
const groups = ['sample1.jpg', 'sample2.jpg', 'sample6.jpg'].map(
  (f) => `node_modules/@vladmandic/face-api/demo/${f}`,
);
for (const [i, g] of groups.entries()) {
  if (!existsSync(g)) {
    console.log(`(absent: ${g})`);
    continue;
  }
  for (const chosen of i === 0
    ? ['drivers_license', 'my_number_card', 'residence_card', 'passport']
    : ['drivers_license'])
    cases.push({
      kind: 'group photo',
      name: `${path.basename(g)} as ${chosen}`,
      image: file(g),
      side: 'front',
      chosen,
      genuine: false,
    });
}
const screenshot = 'node_modules/@vladmandic/human/assets/screenshot-facedetect.jpg';
if (existsSync(screenshot))
  cases.push({
    kind: 'screen of text',
    name: 'web page screenshot as licence',
    image: file(screenshot),
    side: 'front',
    chosen: 'drivers_license',
    genuine: false,
  });

/** A page of text as a screen or a sheet shows it, drawn here (no document's layout). */
async function textPage(lines: string[], dark: boolean): Promise<Buffer> {
  const [bg, fg] = dark ? ['#1e1e1e', '#d4d4d4'] : ['#ffffff', '#202020'];
  const text = lines
    .map(
      (l, i) =>
        `<text x="40" y="${70 + i * 44}" font-size="30" font-family="Noto Sans CJK JP, sans-serif" fill="${fg}">${l}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="960"><rect width="100%" height="100%" fill="${bg}"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}
const english = Array.from(
  { length: 19 },
  (_, i) => `${i + 1}. The quick brown fox jumps over the lazy dog; pack my box with five dozen jugs.`,
);
const japanese = Array.from(
  { length: 19 },
  (_, i) => `${i + 1}．本日の会議は午後三時から第二会議室で行います。資料は事前にお読みください。`,
);
cases.push({
  kind: 'screen of text',
  name: 'English text page as licence',
  image: () => textPage(english, true),
  side: 'front',
  chosen: 'drivers_license',
  genuine: false,
});
cases.push({
  kind: 'screen of text',
  name: 'Japanese text page as My Number card',
  image: () => textPage(japanese, false),
  side: 'front',
  chosen: 'my_number_card',
  genuine: false,
});

const only = values.only?.split(',');
const selected = only ? cases.filter((c) => only.includes(c.kind)) : cases;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const warmStarted = performance.now();
await warmUpCheckModels();
console.log(
  `models warmed in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s; budget ${budgetMs} ms; load ${load()}`,
);

const byKind = new Map<
  string,
  { ms: number[]; accepted: number; genuine: boolean; answers: Map<string, number> }
>();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const c of selected) {
    const bytes = await c.image();
    // What the upload route does with the bytes, timed from the first byte decoded to the answer.
    const started = performance.now();
    const image = await decodeUploadImage(bytes);
    const quality = measureDocumentQuality(image.grey);
    const problem = documentQualityProblem(image, quality);
    const answer = problem
      ? problem
      : ((await identifyDocumentCapture(image, c.side, c.chosen, { quality, budgetMs })).refusal ??
        'accepted');
    const ms = performance.now() - started;
    const k = byKind.get(c.kind) ?? {
      ms: [] as number[],
      accepted: 0,
      genuine: c.genuine,
      answers: new Map<string, number>(),
    };
    k.ms.push(ms);
    if (answer === 'accepted') k.accepted++;
    k.answers.set(answer, (k.answers.get(answer) ?? 0) + 1);
    byKind.set(c.kind, k);
    console.log(`${c.name.padEnd(52)} ${String(Math.round(ms)).padStart(6)} ms  ${answer}  load ${load()}`);
  }
}
console.log(`\nper kind (decode + quality gate + check; budget ${budgetMs} ms; load ${load()}):`);
for (const [kind, k] of byKind) {
  const sorted = [...k.ms].sort((a, b) => a - b);
  const answers = [...k.answers].map(([a, n]) => `${a} ${n}`).join(', ');
  console.log(
    `${kind.padEnd(16)} n ${String(sorted.length).padStart(3)}  p50 ${String(Math.round(percentile(sorted, 50))).padStart(5)} ms  p95 ${String(Math.round(percentile(sorted, 95))).padStart(5)} ms  max ${String(Math.round(sorted.at(-1) ?? 0)).padStart(5)} ms  accepted ${k.accepted}/${sorted.length}${k.genuine ? '' : ' (should be 0)'}  [${answers}]`,
  );
}
await Promise.all([closeInferencePool(), terminateOcrEngine()]);
