// The pipeline reads a front once: the capture check's Tesseract passes on the stored photo are
// replayed by the pipeline's OCR run (inference/ocr-answers.ts), which then gives the result a
// fresh reading gives, asking Tesseract only for the back. Passes made on another photo, or by
// another version of the check, are never replayed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { terminateOcrEngine } from '../../src/checks/ocr/index.ts';
import {
  closeInferencePool,
  documentGeometryInWorker,
  runOcrWithAnswers,
} from '../../src/inference/index.ts';

const dir = 'test/fixtures/corpus/my_number_card-genuine-0';
const front = readFileSync(`${dir}/front.jpg`);
const back = readFileSync(`${dir}/back.jpg`);
const geometry = documentGeometryInWorker;

after(async () => {
  await terminateOcrEngine();
  await closeInferencePool();
});

test('the pipeline replays the capture’s passes on the same front and reads as a fresh run does', async () => {
  const expectedDocumentType = 'my_number_card';
  const capture = await runOcrWithAnswers({ front, expectedDocumentType }, { geometry });
  assert.ok(capture.asked > 0 && Object.keys(capture.answers.passes).length > 0);

  const fresh = await runOcrWithAnswers({ front, back, expectedDocumentType }, { geometry });
  const reused = await runOcrWithAnswers(
    { front, back, expectedDocumentType },
    { geometry, previous: capture.answers },
  );
  assert.equal(reused.replayed, capture.asked + capture.replayed, 'every front pass replayed');
  assert.ok(reused.asked > 0, 'the back is read');
  assert.ok(reused.asked < fresh.asked, 'fewer passes asked of Tesseract than a fresh run');
  assert.deepEqual(reused.outcome.result, fresh.outcome.result);

  // Another photo (here the back as a front), or another version: nothing replayed.
  const other = await runOcrWithAnswers(
    { front: back, expectedDocumentType },
    { geometry, previous: capture.answers },
  );
  assert.equal(other.replayed, 0);
  const oldVersion = await runOcrWithAnswers(
    { front, expectedDocumentType },
    { geometry, previous: { ...capture.answers, checkVersion: '0.0.1' } },
  );
  assert.equal(oldVersion.replayed, 0);
});
