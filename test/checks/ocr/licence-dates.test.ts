// A licence's birth date and expiry check each other (documents/card-validity.ts): a card whose
// two dates break the rule is not read as a confident one, whichever of the two is wrong.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOcrCheck } from '../../../src/checks/ocr/ocr.check.ts';
import { terminateOcrEngine } from '../../../src/checks/ocr/ocr-engine.ts';
import { licenceExpiryFitsBirthDate } from '../../../src/documents/index.ts';
import { drawCaptureParameters } from '../../../src/synth/capture-parameters.ts';
import { createDocumentRecord, type DocumentRecord } from '../../../src/synth/document-record.ts';
import { REFERENCE_DATE } from '../../../src/synth/generate-corpus.ts';
import { photographDocument } from '../../../src/synth/photograph-document.ts';
import { Random } from '../../../src/synth/random.ts';
import { renderDocumentSide } from '../../../src/synth/render-document.ts';
import { createWideIdentityFor } from '../../../src/synth/wide-identity.ts';
import { plainPortrait } from '../../helpers/plain-portrait.ts';

const reference = new Date(`${REFERENCE_DATE}T00:00:00Z`);

describe('a licence whose birth date and expiry disagree', () => {
  let portrait: Buffer;
  // Seed 43 is a tuning seed (src/synth/seed-ranges.ts): nothing is measured on it.
  const random = new Random('43:licence-dates');
  const identity = createWideIdentityFor(random.fork('identity'), 'drivers_license', 'F', REFERENCE_DATE);
  const genuine = createDocumentRecord(
    random.fork('record'),
    'drivers_license',
    'F',
    REFERENCE_DATE,
    identity,
  );
  const capture = async (record: DocumentRecord) => {
    const flat = await renderDocumentSide(record, 'front', portrait, { typeface: 'gothic' });
    if (!flat) throw new Error('no licence front');
    return photographDocument(
      flat,
      drawCaptureParameters(new Random('43:licence-dates:camera'), 'clean', 1280),
    );
  };
  before(async () => {
    portrait = await plainPortrait();
  });
  after(() => terminateOcrEngine());

  it('the synthetic licence itself follows the rule', () => {
    assert.ok(licenceExpiryFitsBirthDate(genuine.identity.birthDate, genuine.expiryDate));
  });

  it('reads the genuine card confidently, and one with its birth month changed not', async () => {
    const check = createOcrCheck({ now: () => reference });
    const read = async (record: DocumentRecord) =>
      check.run({ front: await capture(record), expectedDocumentType: 'drivers_license' });
    const good = await read(genuine);
    assert.equal(good.result.status, 'success', good.result.reason);
    assert.equal(good.result.payload?.birthDate, genuine.identity.birthDate);
    assert.equal(good.extras.licenceDatesDisagree, undefined);

    // The same card with the birth date printed two months earlier (a misprint, a forgery, or
    // what a misread looks like): the expiry still says the other birthday.
    const [y, m, d] = genuine.identity.birthDate.split('-').map(Number) as [number, number, number];
    const month = ((m + 9) % 12) + 1;
    const altered = `${month > m ? y - 1 : y}-${String(month).padStart(2, '0')}-${String(Math.min(d, 28)).padStart(2, '0')}`;
    const edited = { ...genuine, identity: { ...genuine.identity, birthDate: altered } };
    const bad = await read(edited);
    assert.equal(bad.extras.licenceDatesDisagree, true);
    assert.equal(bad.result.status, 'low_confidence');
    assert.match(bad.result.reason ?? '', /birth date and expiry disagree/);
  });
});
