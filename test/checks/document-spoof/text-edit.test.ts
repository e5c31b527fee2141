// documentSpoofCheck, re-typed values (tampering by text-region consistency): the
// same card photographed the same way, once genuine and once with one value pasted over (the
// corpus generator's text_edit drawing: a flat patch, the value re-typed heavier and set off its line). The check must
// flag the edit only when told the document type, and never flag the genuine card.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DocumentSpoofInput, documentSpoofCheck } from '../../../src/checks/document-spoof/index.ts';
import {
  createDocumentRecord,
  type DocumentType,
  drawCaptureParameters,
  packagedFacePeople,
  photographDocument,
  Random,
  renderDocument,
} from '../../../src/synth/index.ts';

const REFERENCE_DATE = '2026-04-01';
// A woman's ID photo (the records below are F), from the packaged people (src/synth/faces.ts).
const PORTRAIT = (await packagedFacePeople()).get('sample3a')?.[0] ?? '';

/** The front of one card, photographed with clean capture settings, optionally with one field edited. */
async function photographFront(type: DocumentType, seed: number, editedField?: string): Promise<Buffer> {
  const record = createDocumentRecord(new Random(`record:${seed}`), type, 'F', REFERENCE_DATE);
  const flat = await renderDocument(record, 'front', PORTRAIT, editedField ? { editedField } : {});
  if (!flat) throw new Error('no front side');
  return photographDocument(flat, drawCaptureParameters(new Random(`capture:${seed}`), 'clean', 1280));
}

const run = (front: Buffer, documentType?: DocumentType) =>
  documentSpoofCheck.run({
    front,
    ...(documentType ? { documentType } : {}),
    referenceDate: new Date(`${REFERENCE_DATE}T00:00:00Z`),
  } satisfies DocumentSpoofInput);

test('a birth date re-typed heavier on a residence card is tampering; the genuine card is not', async () => {
  const genuine = await run(await photographFront('residence_card', 1), 'residence_card');
  assert.equal(genuine.result.risk, 'low', genuine.result.details);
  assert.equal(genuine.result.isForgedOrTampered, false);
  assert.ok(genuine.measurements.textEdit, 'the printed lines were measured');

  const edited = await run(await photographFront('residence_card', 1, 'birthDate'), 'residence_card');
  assert.notEqual(edited.result.risk, 'low', JSON.stringify(edited.measurements.textEdit));
  assert.equal(edited.result.isForgedOrTampered, true);
  assert.equal(edited.result.isDisplayAttack, false);
  assert.match(edited.result.details ?? '', /re-typed value \(birthDate printed heavier/);
  assert.ok(
    (edited.measurements.textEdit?.weightRatio ?? 0) >
      (genuine.measurements.textEdit?.weightRatio ?? 0) + 0.15,
  );
});

test("an expiry date pasted over a residence card's tinted band is tampering", async () => {
  const genuine = await run(await photographFront('residence_card', 2), 'residence_card');
  assert.equal(genuine.result.risk, 'low', genuine.result.details);

  const edited = await run(await photographFront('residence_card', 2, 'expiryDate'), 'residence_card');
  assert.equal(edited.result.isForgedOrTampered, true, JSON.stringify(edited.measurements.textEdit));
  assert.match(edited.result.details ?? '', /pasted patch \(the band's tint stops behind expiryDate\)/);
  assert.ok((edited.measurements.textEdit?.bandTintLoss ?? 0) > 0.9);
  assert.ok((genuine.measurements.textEdit?.bandTintLoss ?? 1) < 0.3);
});

test('a bold name re-typed below its line is tampering; the genuine name sits on it', async () => {
  for (const [type, seed] of [
    ['residence_card', 4],
    ['passport', 2],
  ] as const) {
    const genuine = await run(await photographFront(type, seed), type);
    assert.equal(genuine.result.risk, 'low', `${type}: ${genuine.result.details}`);
    assert.ok(
      (genuine.measurements.textEdit?.baselineDrop ?? 9) < 3,
      JSON.stringify(genuine.measurements.textEdit),
    );

    const edited = await run(await photographFront(type, seed, 'name'), type);
    assert.equal(
      edited.result.isForgedOrTampered,
      true,
      `${type}: ${JSON.stringify(edited.measurements.textEdit)}`,
    );
    assert.match(edited.result.details ?? '', /re-typed value \(name printed below the card's other lines\)/);
    assert.ok(
      (edited.measurements.textEdit?.baselineDrop ?? 0) > 5.5,
      JSON.stringify(edited.measurements.textEdit),
    );
  }
});

test('without the document type the re-typed-value cues are not measured', async () => {
  const { result, measurements } = await run(await photographFront('my_number_card', 1, 'birthDate'));
  assert.equal(measurements.textEdit, undefined);
  assert.equal(result.risk, 'low');
});

test('a wrong document type does not make a genuine card look tampered: its layout does not fit, no verdict', async () => {
  const front = await photographFront('residence_card', 3);
  const { result } = await run(front, 'passport');
  assert.equal(result.isForgedOrTampered, false, result.details);
  assert.equal(result.risk, 'unknown', result.details);
  assert.match(result.details ?? '', /layout does not fit the photo/);
  // Named a licence or a My Number card, no printed line is measured at all (the next test).
  for (const wrong of ['drivers_license', 'my_number_card'] as const)
    assert.equal((await run(front, wrong)).result.isForgedOrTampered, false, wrong);
  assert.equal((await run(front, 'residence_card')).result.risk, 'low');
});

test("on a licence and a My Number card, a value re-typed heavier in the issuer's zone is tampering, at most a review", async () => {
  // Their print geometry (glyph feet, bold lines) is not measured: the values are weighed in the
  // zones of the issuer's layout (src/documents/document-types.ts) against one another.
  for (const [type, field, seed] of [
    ['drivers_license', 'address', 2],
    ['my_number_card', 'birthDate', 2],
  ] as const) {
    const genuine = await run(await photographFront(type, seed), type);
    assert.equal(genuine.result.risk, 'low', `${type}: ${genuine.result.details}`);
    assert.equal(genuine.result.isForgedOrTampered, false, type);
    assert.ok(genuine.measurements.issuerText, `${type}: the issuer's zones were measured`);
    assert.equal(genuine.measurements.textEdit, undefined, type);

    const edited = await run(await photographFront(type, seed, field), type);
    assert.equal(edited.result.risk, 'medium', `${type}: ${JSON.stringify(edited.measurements.issuerText)}`);
    assert.equal(edited.result.isForgedOrTampered, true, type);
    assert.match(
      edited.result.details ?? '',
      new RegExp(`re-typed value \\(${field} printed heavier than the card's other values\\)`),
    );
    assert.deepEqual(edited.measurements.portrait?.tilt, 0, type);
  }
});

test("an expiry date pasted over the licence's 有効期限 band is tampering: the band's tint is gone behind it", async () => {
  const genuine = await run(await photographFront('drivers_license', 3), 'drivers_license');
  assert.equal(genuine.result.risk, 'low', genuine.result.details);
  assert.ok(
    (genuine.measurements.issuerText?.bandTint ?? 0) > 0.15,
    JSON.stringify(genuine.measurements.issuerText),
  );

  const edited = await run(await photographFront('drivers_license', 3, 'expiryDate'), 'drivers_license');
  assert.equal(edited.result.isForgedOrTampered, true, JSON.stringify(edited.measurements.issuerText));
  assert.match(edited.result.details ?? '', /pasted patch \(the band's tint gone behind expiryDate\)/);
});
