// The document check takes the front's outline from the OCR check's extras instead of finding it
// again on the same photo: the OCR gives exactly the finder's outline, and the verdict and every
// measurement are the same as when the check finds it itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { documentSpoofCheck, documentSpoofFacts } from '../../../src/checks/document-spoof/index.ts';
import { decodePhoto, findDocumentOutline } from '../../../src/checks/ocr/find-document.ts';
import { createOcrCheck, type DocumentType } from '../../../src/checks/ocr/index.ts';
import { terminateOcrEngine } from '../../../src/checks/ocr/ocr-engine.ts';

const CORPUS = 'test/fixtures/corpus';
const REFERENCE_DATE = new Date('2026-04-01T00:00:00Z');
const ocrCheck = createOcrCheck({ now: () => REFERENCE_DATE });

after(() => terminateOcrEngine());

for (const [id, documentType] of [
  ['drivers_license-genuine-0', 'drivers_license'],
  ['passport-genuine-0', 'passport'],
] as [string, DocumentType][]) {
  test(`${id}: the OCR's outline is the finder's, and the document check judges alike with it`, async () => {
    const front = readFileSync(path.join(CORPUS, id, 'front.jpg'));
    const { extras } = await ocrCheck.run({ front, expectedDocumentType: documentType });
    const found = findDocumentOutline(await decodePhoto(front));
    assert.ok(found, 'the corpus capture shows the card on a surface');
    assert.deepEqual(extras.documentOutline, found);

    const facts = documentSpoofFacts(extras);
    assert.deepEqual(facts.documentOutline, found);
    const { documentOutline: _, ...withoutOutline } = facts;
    const input = { front, documentType, referenceDate: REFERENCE_DATE };
    const given = await documentSpoofCheck.run({ ...input, ocr: facts });
    const searched = await documentSpoofCheck.run({ ...input, ocr: withoutOutline });
    assert.deepEqual(given, searched);
  });
}

test('an OCR that found no outline: the document check measures none rather than looking again', async () => {
  const front = readFileSync(path.join(CORPUS, 'drivers_license-genuine-0', 'front.jpg'));
  const input = { front, documentType: 'drivers_license' as const, referenceDate: REFERENCE_DATE };
  const none = await documentSpoofCheck.run({ ...input, ocr: { documentOutline: null } });
  assert.equal(none.measurements.front.borders.found, false);
  assert.equal(none.measurements.portrait, undefined);
  const searched = await documentSpoofCheck.run({ ...input, ocr: {} });
  assert.equal(searched.measurements.front.borders.found, true);
});
