import { readFileSync } from 'node:fs';
import { closeInferencePool, describeReferenceFaceInWorker, findLargestFaceInWorker } from './src/inference/index.ts';
for (const f of ['test/fixtures/corpus/passport-genuine-0/selfie.jpg', 'test/fixtures/corpus/my_number_card-genuine-0/front.jpg', 'test/fixtures/corpus/my_number_card-genuine-0/back.jpg']) {
  const img = readFileSync(f);
  let t = performance.now();
  const a = await findLargestFaceInWorker(img);
  const ta = performance.now() - t; t = performance.now();
  const b = (await describeReferenceFaceInWorker(img)).face;
  const tb = performance.now() - t;
  console.log(f, JSON.stringify(a), JSON.stringify(b && { box: b.box, detectionScore: b.detectionScore, faceCount: b.faceCount }), ta.toFixed(0), tb.toFixed(0));
}
await closeInferencePool();
