// The OCR check's geometry in the pipeline's geometry thread (inference-pool.ts) gives what it gives
// in the calling thread, and a photo it cannot decode is an error for that one task, not the thread's end.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { CARD_LAYOUT, PASSPORT_LAYOUT } from '../../src/checks/ocr/document-regions.ts';
import { geometryInThisThread } from '../../src/checks/ocr/find-document.ts';
import { closeInferencePool, documentGeometryInWorker } from '../../src/inference/index.ts';

after(closeInferencePool);

const photo = (sample: string, file = 'front.jpg') =>
  readFileSync(new URL(`../fixtures/corpus/${sample}/${file}`, import.meta.url));

for (const [sample, layout] of [
  ['drivers_license-genuine-0', CARD_LAYOUT],
  ['passport-genuine-0', PASSPORT_LAYOUT],
] as const) {
  test(`${sample}: the document found and rectified as in this thread`, async () => {
    const [there, here] = await Promise.all([
      documentGeometryInWorker.locate(photo(sample)),
      geometryInThisThread.locate(photo(sample)),
    ]);
    assert.ok(there && here, 'a document is found');
    assert.deepEqual(there.outline, here.outline);
    assert.deepEqual(there.grey, here.grey);
    const width = Math.round(layout.width * layout.scale);
    const height = Math.round(layout.height * layout.scale);
    const flat = await documentGeometryInWorker.warp(there.grey, there.outline.corners, width, height);
    assert.equal(flat.width, width);
    assert.equal(flat.height, height);
    assert.deepEqual(flat, await geometryInThisThread.warp(here.grey, here.outline.corners, width, height));
  });
}

test('a photo without a document: nothing found', async () => {
  assert.equal(await documentGeometryInWorker.locate(photo('static_photo-0', 'selfie.jpg')), undefined);
});

test('bytes that are no picture: that task fails with a message, and the thread goes on', async () => {
  await assert.rejects(
    documentGeometryInWorker.locate(Buffer.from('not a picture')),
    /unsupported image format/i,
  );
  assert.ok(await documentGeometryInWorker.locate(photo('drivers_license-genuine-0')));
});
