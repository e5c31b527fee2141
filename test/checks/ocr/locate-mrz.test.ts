// MRZ anywhere: zones rendered by the test (fixed pitch, as ICAO 9303 prints them) on a page with
// other print, turned and skewed, are found without any card outline and read exactly; the
// reader corrects look-alikes only where a check digit confirms.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { findMrz } from '../../../src/checks/ocr/locate-mrz.ts';
import {
  documentTypeOfMrz,
  isForeignMrz,
  isJapaneseMrz,
  mrzDoubt,
} from '../../../src/checks/ocr/mrz-result.ts';
import { createOcrCheck } from '../../../src/checks/ocr/ocr.check.ts';
import { getOcrEngineFor, type OcrEngine, terminateOcrEngine } from '../../../src/checks/ocr/ocr-engine.ts';
import { readMrzLines } from '../../../src/checks/ocr/read-mrz.ts';
import { mrzCheckDigit } from '../../../src/synth/mrz.ts';
import { renderTextImage, type TextLine } from './render-text-image.ts';

const cd = (s: string) => String(mrzCheckDigit(s));

/** A made-up TD3 passport of another state (Utopia, ICAO's specimen state code), check digits computed. */
function td3(): string[] {
  return td3With('X4R27B910', 'AB1234567<<<<<');
}

/** A made-up TD3 of Utopia with the given document number and personal number, check digits computed. */
function td3With(number: string, personal: string): [string, string] {
  const birth = '880314';
  const expiry = '310920';
  const head = `${number}${cd(number)}UTO${birth}${cd(birth)}F${expiry}${cd(expiry)}${personal}${cd(personal)}`;
  const composite = cd(`${head.slice(0, 10)}${head.slice(13, 20)}${head.slice(21, 43)}`);
  return ['P<UTOVARGAS<<ELENA<MARIE'.padEnd(44, '<'), `${head}${composite}`];
}

/** A made-up TD3 of Utopia with the given names field, check digits computed. */
function td3Named(names: string): string[] {
  const [line1, line2] = td3With('X4R27B910', '<<<<<<<<<<<<<<');
  return [`${line1.slice(0, 5)}${names}`.padEnd(44, '<'), line2];
}

/** A made-up TD1 identity card. */
function td1(): string[] {
  const number = 'L0RX21653';
  const birth = '920705';
  const expiry = '290131';
  const l1 = `IDUTO${number}${cd(number)}`.padEnd(30, '<');
  const l2head = `${birth}${cd(birth)}M${expiry}${cd(expiry)}UTO`.padEnd(29, '<');
  const composite = cd(
    `${l1.slice(5, 30)}${l2head.slice(0, 7)}${l2head.slice(8, 15)}${l2head.slice(18, 29)}`,
  );
  return [l1, `${l2head}${composite}`, 'OKAFOR<<CHIDI<JAMES'.padEnd(30, '<')];
}

/** A page: a title and a few lines of other print above the zone, the zone at a fixed pitch. */
async function page(lines: string[], turn: number): Promise<Buffer> {
  const pitch = 22;
  const width = lines[0]!.length * pitch + 120;
  const height = 360 + lines.length * 44;
  const text: TextLine[] = [
    { text: 'UTOPIA  PASSPORT  SPECIMEN', x: 60, y: 70, size: 34 },
    { text: 'Surname / Nom  VARGAS', x: 60, y: 150, size: 22 },
    { text: 'Given names  ELENA MARIE   Date of birth 14 MAR 1988', x: 60, y: 190, size: 22 },
  ];
  lines.forEach((line, row) => {
    [...line].forEach((c, i) => {
      text.push({ text: c, x: 60 + i * pitch, y: 320 + row * 44, size: 30 });
    });
  });
  const flat = await renderTextImage(text, width, height);
  // Turned (any quarter turn plus a few degrees of skew) on a white surround: no card outline.
  return sharp(flat).rotate(turn, { background: '#ffffff' }).png().toBuffer();
}

describe('MRZ anywhere', () => {
  let eng: OcrEngine;
  before(async () => {
    eng = await getOcrEngineFor(['eng']);
  });
  after(async () => {
    await terminateOcrEngine();
  });

  for (const [name, lines, turn] of [
    ['a TD3 passport, upright', td3(), 0],
    ['a TD3 passport upside down', td3(), 180],
    ['a TD3 passport turned a quarter turn', td3(), 90],
  ] as const) {
    it(`finds and reads ${name}`, async () => {
      const found = await findMrz(eng, await page([...lines], turn));
      assert.ok(found, 'a zone is found');
      assert.deepEqual(found.reading.lines, lines);
      assert.equal(found.reading.valid, true);
      assert.equal(found.reading.format, lines.length === 3 ? 'TD1' : 'TD3');
    });
  }

  it('reads the zone with the second engine when the first reads nothing that checks, and only then', async () => {
    const blank = {
      model: 'reads nothing',
      recognize: async () => ({ text: '', confidence: 0, words: [], lines: [] }),
    } as unknown as OcrEngine;
    let secondCalls = 0;
    const counted = Object.assign(Object.create(eng) as OcrEngine, {
      recognize: (...args: Parameters<OcrEngine['recognize']>) => {
        secondCalls++;
        return eng.recognize(...args);
      },
    });
    const png = await page(td3(), 0);
    const found = await findMrz(blank, png, counted);
    assert.deepEqual(found?.reading.lines, td3());
    assert.equal(found?.reading.valid, true);
    assert.ok(secondCalls > 0);
    // A first reading whose check digits hold is not read again.
    secondCalls = 0;
    const clean = await findMrz(eng, png, counted);
    assert.equal(clean?.reading.valid, true);
    assert.equal(secondCalls, 0);
  });

  it('reads a zone with the committed MRZ model alone', async () => {
    const mrz = await getOcrEngineFor(['mrz']);
    const found = await findMrz(mrz, await page(td3(), 0));
    assert.deepEqual(found?.reading.lines, td3());
    assert.equal(found?.reading.valid, true);
  });

  for (const names of ['HAMMOND<<HANNAH<BRENDA'])
    it(`reads the names of a zone of 5.6 px a character (${names}) by comparing look-alikes with the zone's own glyphs`, async () => {
      // Tesseract alone reads H<MMOND here: the strokes telling A from a filler blur at this
      // size, and names carry no check digit.
      const mrz = await getOcrEngineFor(['mrz']);
      const lines = td3Named(names);
      const png = await page(lines, 0);
      const meta = await sharp(png).metadata();
      const scale = 5.6 / 22;
      const small = await sharp(png)
        .resize(Math.round(meta.width! * scale), Math.round(meta.height! * scale))
        .png()
        .toBuffer();
      const found = await findMrz(mrz, small, eng);
      assert.deepEqual(found?.reading.lines, lines);
      assert.equal(found?.reading.valid, true);
    });

  it('finds nothing on a page without a zone', async () => {
    const png = await renderTextImage(
      [
        { text: 'An ordinary letter with no machine-readable zone', x: 40, y: 80, size: 28 },
        { text: 'Second line of plain prose, words and spaces.', x: 40, y: 140, size: 28 },
      ],
      900,
      300,
    );
    assert.equal(await findMrz(eng, png), undefined);
  });

  it('reads a flat scan of a foreign passport as a passport, its fields from the MRZ', async () => {
    const check = createOcrCheck({ engine: getOcrEngineFor, now: () => new Date('2026-01-10T00:00:00Z') });
    const { result, extras } = await check.run({
      front: await page(td3(), 0),
      expectedDocumentType: 'passport',
    });
    assert.equal(result.detectedDocumentType, 'passport');
    assert.equal(result.unsupportedDocumentType, undefined);
    assert.equal(result.payload?.lastName, 'VARGAS');
    assert.equal(result.payload?.firstName, 'ELENA MARIE');
    assert.equal(result.payload?.birthDate, '1988-03-14');
    assert.equal(extras.documentNumber, 'X4R27B910');
    assert.equal(extras.expiryDate, '2031-09-20');
    assert.equal(extras.documentTypeMismatch, false);
    assert.equal(extras.mrz?.valid, true);
    // Printed in its issuer's layout: the document check judges it by the MRZ, not by a synthetic layout.
    assert.equal(extras.layout, 'official');
  });

  it("names another state's identity card chosen as a passport an unsupported foreign_id_card, keeping its expiry for the document check", async () => {
    const check = createOcrCheck({ engine: getOcrEngineFor, now: () => new Date('2026-01-10T00:00:00Z') });
    // ICAO 9303 Part 6's TD2 specimen (Utopia).
    const td2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
    const { result, extras } = await check.run({
      front: await page(td2, 0),
      expectedDocumentType: 'passport',
    });
    assert.equal(result.unsupportedDocumentType, 'foreign_id_card');
    assert.equal(result.detectedDocumentType, undefined);
    assert.equal(result.status, 'low_confidence');
    assert.equal(extras.expiryDate, '2012-04-15');
    assert.equal(extras.expiryDateReliable, true);
    assert.equal(extras.layout, 'official');
  });

  it('names a passport chosen as a licence a mismatch', async () => {
    const check = createOcrCheck({ engine: getOcrEngineFor, now: () => new Date('2026-01-10T00:00:00Z') });
    const passport = await check.run({
      front: await page(td3(), 0),
      expectedDocumentType: 'drivers_license',
    });
    assert.equal(passport.result.detectedDocumentType, 'passport');
    assert.equal(passport.extras.documentTypeMismatch, true);
  });
});

describe('readMrzLines', () => {
  const [l1, l2] = td3() as [string, string];

  it('reads a clean TD3 as valid, with its fields', () => {
    const r = readMrzLines([l1, l2]);
    assert.equal(r?.format, 'TD3');
    assert.equal(r?.valid, true);
    assert.equal(r?.documentNumber, 'X4R27B910');
    assert.equal(r?.lastName, 'VARGAS');
    assert.deepEqual(documentTypeOfMrz({ reading: r!, band: {} as never }), { type: 'passport' });
  });

  it('turns O into 0 in a date (a digit must stand there) and restores a glyph not read from the check digit', () => {
    const misread = `${l2.slice(0, 13)}88O314${l2.slice(19, 22)}?${l2.slice(23)}`;
    const r = readMrzLines([l1, misread]);
    assert.deepEqual(r?.lines, [l1, l2]);
    assert.equal(r?.valid, true);
  });

  it('leaves a wrong document number alone when no single look-alike change makes its check digit hold', () => {
    // 9 → 3 is no OCR-B look-alike: the check digit says "wrong", nothing says what is right.
    const altered = `X4R27B310${l2.slice(9)}`;
    const r = readMrzLines([l1, altered]);
    assert.equal(r?.valid, false);
    assert.ok(r?.invalidFields.includes('documentNumber'));
    assert.equal(r?.lines[1]?.slice(0, 9), 'X4R27B310');
  });

  it('turns look-alikes among trailing fillers of the names into fillers', () => {
    const r = readMrzLines([`${l1.slice(0, 30)}LLKC<<<L<<<<<`.slice(0, 44), l2]);
    assert.equal(r?.lines[0], l1);
  });

  it('restores the surname separator a look-alike took, only when one neighbour looks like a filler', () => {
    const lost = readMrzLines([`P<UTOVARGASS<MARIE`.padEnd(44, '<'), l2]);
    assert.equal(lost?.lines[0], 'P<UTOVARGAS<<MARIE'.padEnd(44, '<'));
    // Both neighbours plain letters: nothing says which one it was.
    const unsure = readMrzLines([`P<UTOVARGAN<MELENA`.padEnd(44, '<'), l2]);
    assert.equal(unsure?.lines[0], 'P<UTOVARGAN<MELENA'.padEnd(44, '<'));
  });

  it("restores a state code's glyph read as a filler from the holder's nationality, only when the rest agree", () => {
    // `<TO` cannot be a code (codes end in fillers); the nationality reads UTO.
    const lost = readMrzLines([`P<<TO${l1.slice(5)}`, l2]);
    assert.equal(lost?.lines[0], l1);
    assert.equal(lost?.issuingState, 'UTO');
    // A state that differs from the nationality elsewhere too is not made up.
    const other = readMrzLines([`P<<XA${l1.slice(5)}`, l2]);
    assert.equal(other?.lines[0]?.slice(0, 5), 'P<<XA');
  });

  it('tells a Japanese passport by its state codes, one glyph off included, from any other MRZ', () => {
    const japanese = readMrzLines([`P<JPN${l1.slice(5)}`, `${l2.slice(0, 10)}JPN${l2.slice(13)}`])!;
    assert.equal(isJapaneseMrz(japanese), true);
    assert.equal(isJapaneseMrz({ ...japanese, issuingState: 'JRN', nationality: 'JPM' }), true);
    assert.equal(isJapaneseMrz(readMrzLines([l1, l2])!), false);
    assert.equal(isJapaneseMrz(readMrzLines(td1())!), false);
    assert.equal(isForeignMrz(readMrzLines([l1, l2])!), true);
    assert.equal(isForeignMrz(japanese), false);
    // Other print read as a zone: nothing checks, no state's code.
    assert.equal(isForeignMrz(readMrzLines(['P<QQQ'.padEnd(44, 'A'), 'Q'.repeat(44)])!), false);
  });

  it("restores a state code no state has from the other code one glyph off (EAN beside CAN), never one state's from another's", () => {
    const can = readMrzLines([`P<EAN${l1.slice(5)}`, `${l2.slice(0, 10)}CAN${l2.slice(13)}`]);
    assert.equal(can?.issuingState, 'CAN');
    // GBR issuing a GBD (British Dependent Territories) citizen's passport: both are states' codes.
    const gbd = readMrzLines([`P<GBR${l1.slice(5)}`, `${l2.slice(0, 10)}GBD${l2.slice(13)}`]);
    assert.deepEqual([gbd?.issuingState, gbd?.nationality], ['GBR', 'GBD']);
  });

  it('does not trust check digits that hold on a zone too small to tell look-alikes apart, nor on state codes no state has', () => {
    const reading = readMrzLines([l1, l2])!;
    const band = (length: number) => ({ cx: 0, cy: 0, angle: 0, length, thickness: 20, lines: 2, score: 1 });
    assert.equal(mrzDoubt({ reading, band: band(44 * 9) }), undefined);
    assert.match(mrzDoubt({ reading, band: band(44 * 5.5) }) ?? '', /too small/);
    // QQX is no state's code nor one look-alike from one (GER would be GBR's, read-mrz.ts nearestStateCodes).
    const garbled = readMrzLines([`P<EE<${l1.slice(5)}`, `${l2.slice(0, 10)}QQX${l2.slice(13)}`])!;
    assert.equal(garbled.valid, true);
    assert.match(mrzDoubt({ reading: garbled, band: band(44 * 9) }) ?? '', /state code/);
  });

  it('reads a TD1 card (three lines of 30) and names it an identity card', () => {
    const r = readMrzLines(td1());
    assert.equal(r?.format, 'TD1');
    assert.equal(r?.valid, true);
    assert.equal(r?.documentNumber, 'L0RX21653');
    assert.deepEqual(documentTypeOfMrz({ reading: r!, band: {} as never }), {
      unsupported: 'foreign_id_card',
    });
  });

  it('reads a Z taken for a 7 (OCR-B: a 7 with a foot bar) where the check digit confirms it', () => {
    // Made-up numbers; the document number holds a Z the OCR read as 7.
    const [n1, n2] = td3With('X31Z42221', '<<<<<<<<<<<<<<');
    const r = readMrzLines([n1, `${n2.slice(0, 3)}7${n2.slice(4)}`]);
    assert.equal(r?.lines[1], n2);
    assert.equal(r?.valid, true);
  });

  it('restores a Z read as 7 in the personal number only when the composite holds with it too', () => {
    const [n1, n2] = td3With('X4R27B910', 'ZU734704<<<<<<');
    const misread = `${n2.slice(0, 28)}7${n2.slice(29)}`;
    const r = readMrzLines([n1, misread]);
    assert.equal(r?.lines[1], n2);
    assert.equal(r?.valid, true);
    // A composite that confirms none of them: the field stays as read, and invalid.
    const unconfirmed = `${misread.slice(0, 43)}${(Number(misread[43]) + 1) % 10}`;
    const u = readMrzLines([n1, unconfirmed]);
    assert.equal(u?.lines[1], unconfirmed);
    assert.equal(u?.valid, false);
  });

  it('never turns a filler at the end of a field into a letter to make a check digit hold', () => {
    // Z read as 7, and a C at the personal number's last filler would make both digits hold too:
    // fields end in fillers, so only the Z is a reading.
    const [n1, n2] = td3With('X4R27B910', 'ZA715506<<<<<<');
    const misread = `${n2.slice(0, 28)}7${n2.slice(29)}`;
    const r = readMrzLines([n1, misread]);
    assert.equal(r?.lines[1], n2);
    assert.equal(r?.valid, true);
  });

  it('reports a card whose printed check digits fail as printed, not "corrected" into another number', () => {
    // The document number's check digit is misprinted (one look-alike change, its last 0 read as
    // Q, would make it hold), and so are the birth date's and the composite: the reading says
    // invalid, with the characters as printed.
    const birth = '920705';
    const l1 = 'IDUTOL665896100'.padEnd(30, '<');
    const head = `${birth}${(Number(cd(birth)) + 3) % 10}M290131${cd('290131')}UTO`.padEnd(29, '<');
    const composite = cd(`${l1.slice(5, 30)}${head.slice(0, 7)}${head.slice(8, 15)}${head.slice(18, 29)}`);
    const lines = [l1, `${head}${(Number(composite) + 1) % 10}`, 'OKAFOR<<CHIDI<JAMES'.padEnd(30, '<')];
    const r = readMrzLines(lines);
    assert.deepEqual(r?.lines, lines);
    assert.equal(r?.valid, false);
    assert.ok(r?.invalidFields.includes('documentNumber'));
    assert.ok(r?.invalidFields.includes('birthDate'));
  });

  it('tells TD2 and visas (MRV-A) by length and document code', () => {
    const number = 'D23145890';
    const head = `${number}${cd(number)}UTO740812${cd('740812')}F120415${cd('120415')}<<<<<<<`;
    const composite = cd(`${head.slice(0, 10)}${head.slice(13, 20)}${head.slice(21, 35)}`);
    const td2 = readMrzLines(['I<UTOERIKSSON<<ANNA<MARIA'.padEnd(36, '<'), `${head}${composite}`]);
    assert.equal(td2?.format, 'TD2');
    assert.equal(td2?.valid, true);
    const visaLine2 = `${number}${cd(number)}UTO740812${cd('740812')}F120415${cd('120415')}`.padEnd(44, '<');
    const visa = readMrzLines(['V<UTOERIKSSON<<ANNA'.padEnd(44, '<'), visaLine2]);
    assert.equal(visa?.format, 'MRVA');
    assert.equal(visa?.valid, true);
  });
});
