// How long the hosted flow's capture check (identify-document-capture.ts) makes a user wait after an
// upload: each corpus fixture's front and back (test/fixtures/corpus, synthetic) and a selfie, sent
// as the side it is and as the wrong side, through the check as the upload route runs it (the
// stored JPEG, the OCR check and the face search in their threads), after the models are warmed
// as `mimoto start` warms them. Prints each time, the verdict, and the median per side; say the
// machine's load (uptime) with the figures.
// Run: nice -n 10 node --import tsx bench/capture-check.bench.ts [--rounds 2]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { decodeUploadImage } from '../src/hosted-flow/decode-upload-image.ts';
import { identifyDocumentCapture } from '../src/hosted-flow/identify-document-capture.ts';
import { closeInferencePool } from '../src/inference/index.ts';
import { warmUpCheckModels } from '../src/pipeline/warm-up.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
const CORPUS = 'test/fixtures/corpus';
const cases: { name: string; file: string; side: 'front' | 'back'; chosen: string }[] = [];
for (const type of ['drivers_license', 'my_number_card', 'residence_card']) {
  const dir = `${CORPUS}/${type}-genuine-0`;
  cases.push({ name: `${type} front`, file: `${dir}/front.jpg`, side: 'front', chosen: type });
  cases.push({ name: `${type} back`, file: `${dir}/back.jpg`, side: 'back', chosen: type });
  cases.push({ name: `${type} front as back`, file: `${dir}/front.jpg`, side: 'back', chosen: type });
}
cases.push({
  name: 'passport front',
  file: `${CORPUS}/passport-genuine-0/front.jpg`,
  side: 'front',
  chosen: 'passport',
});
cases.push({
  name: 'selfie as licence front',
  file: 'test/fixtures/selfie-as-front/selfie.jpg',
  side: 'front',
  chosen: 'drivers_license',
});
cases.push({
  name: 'selfie as licence back',
  file: 'test/fixtures/selfie-as-front/selfie.jpg',
  side: 'back',
  chosen: 'drivers_license',
});

const load = async () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const warmStarted = performance.now();
await warmUpCheckModels();
console.log(
  `models warmed in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s; load ${await load()}`,
);

const times: Record<'front' | 'back', number[]> = { front: [], back: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  for (const c of cases) {
    const image = await decodeUploadImage(readFileSync(c.file));
    const started = performance.now();
    const verdict = await identifyDocumentCapture(image, c.side, c.chosen);
    const ms = performance.now() - started;
    times[c.side].push(ms);
    console.log(
      `${c.name.padEnd(34)} ${String(Math.round(ms)).padStart(6)} ms  ${verdict.refusal ?? 'accepted'}  load ${await load()}`,
    );
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
for (const side of ['front', 'back'] as const)
  console.log(
    `${side}: median ${Math.round(median(times[side]))} ms, max ${Math.round(Math.max(...times[side]))} ms (${times[side].length} uploads)`,
  );
await Promise.all([closeInferencePool(), terminateOcrEngine()]);
