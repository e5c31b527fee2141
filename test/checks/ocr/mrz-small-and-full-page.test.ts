// An MRZ anywhere is found (issue 42 point 4): a zone drawn in OCR-B at ICAO's fixed pitch on a
// whole A4 page among paragraphs of longer lines, on a card filling the frame, and on a card on a
// white sheet is found and read exactly; the look-alike fixes hold to what ICAO 9303 allows there
// (a state's code, M/F/X/< for the sex), and passes over one zone are merged by check digit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeForMrz, findMrz, rankMrzBands } from '../../../src/checks/ocr/locate-mrz.ts';
import { isCredibleMrz, mrzDoubt } from '../../../src/checks/ocr/mrz-result.ts';
import { getOcrEngineFor, type OcrEngine, terminateOcrEngine } from '../../../src/checks/ocr/ocr-engine.ts';
import { mergeMrzReadings, readMrzLines } from '../../../src/checks/ocr/read-mrz.ts';
import { madeUpMrz, mrzCapture } from '../../../src/synth/mrz-captures.ts';
import { Random } from '../../../src/synth/random.ts';

// Tuning seeds (src/synth/seed-ranges.ts): bench:mrz-scale measures on validation seeds.
describe('an MRZ anywhere in the photo', () => {
  let mrz: OcrEngine;
  let eng: OcrEngine;
  before(async () => {
    mrz = await getOcrEngineFor(['mrz']);
    eng = await getOcrEngineFor(['eng']);
  });
  after(terminateOcrEngine);

  it('finds the zone on a whole page whose paragraphs outscore it as lines, and reads it exactly', async () => {
    const page = await mrzCapture(1, 'page', 1000);
    // The paragraphs are longer lines, and more of them: by pitch the zone comes first.
    const [first] = rankMrzBands(await decodeForMrz(page.image));
    assert.ok(first && first.fit < 0.3, `best band fit ${first?.fit}`);
    const found = await findMrz(mrz, page.image, eng);
    assert.deepEqual(found?.reading.lines, page.lines);
    assert.equal(found?.reading.valid, true);
  });

  it('reads a card filling the frame and a card on a white sheet', async () => {
    for (const [seed, scene, width] of [
      [2, 'card-fill', 1000],
      [1, 'card-on-white', 1000],
    ] as const) {
      const capture = await mrzCapture(seed, scene, width);
      const found = await findMrz(mrz, capture.image, eng);
      assert.deepEqual(found?.reading.lines, capture.lines, `${scene} ${width} px (${capture.format})`);
    }
  });
});

describe('what ICAO 9303 allows where look-alikes are read', () => {
  const td3 = madeUpMrz(new Random('mrz-small-test'), 'TD3');
  const [l1 = '', l2 = ''] = td3;
  const withCodes = (issuing: string, nationality: string, sex = l2[20]) =>
    readMrzLines([
      `${l1.slice(0, 2)}${issuing}${l1.slice(5)}`,
      `${l2.slice(0, 10)}${nationality}${l2.slice(13, 20)}${sex}${l2.slice(21)}`,
    ]);

  it('reads a state code no state has, one OCR-B look-alike from exactly one state, as that state', () => {
    const r = withCodes('MZL', 'MZL');
    assert.deepEqual([r?.issuingState, r?.nationality], ['NZL', 'NZL']);
    assert.equal(withCodes('BWE', 'BWE')?.issuingState, 'SWE');
    // A state's code stays, and one look-alike from no state (or from several) stays as read.
    assert.equal(withCodes('GBD', 'GBD')?.issuingState, 'GBD');
    assert.equal(withCodes('QQX', 'QQX')?.issuingState, 'QQX');
    // A mended code speaks for a misread, not for a zone: judged as read, it vouches for nothing.
    const band = { cx: 0, cy: 0, angle: 0, length: 44 * 9, thickness: 20, lines: 2, score: 1 };
    assert.match(mrzDoubt({ reading: r!, band }) ?? '', /state code/);
    assert.equal(mrzDoubt({ reading: withCodes(l1.slice(2, 5), l2.slice(10, 13))!, band }), undefined);
    const garbage = readMrzLines([`P<MZL${'Q'.repeat(39)}`, `${'Q'.repeat(10)}MZL${'Q'.repeat(31)}`])!;
    assert.equal(garbage.issuingState, 'NZL');
    assert.equal(isCredibleMrz(garbage), false);
  });

  it('reads the sex as M, F, X or a filler only', () => {
    assert.equal(withCodes(l1.slice(2, 5), l2.slice(10, 13), 'N')?.sex, 'male');
    assert.equal(withCodes(l1.slice(2, 5), l2.slice(10, 13), 'E')?.sex, 'female');
    assert.equal(withCodes(l1.slice(2, 5), l2.slice(10, 13), 'X')?.sex, 'nonspecified');
  });

  it('merges passes by check digit: a field from the passes where its check holds, the rest by majority', () => {
    const truth = readMrzLines(td3)!;
    // One pass misreads a name letter, another the document number (its check then fails).
    const nameSlip = readMrzLines([`${l1.slice(0, 6)}${l1[6] === 'Q' ? 'O' : 'Q'}${l1.slice(7)}`, l2])!;
    const numberSlip = readMrzLines([l1, `${l2[0] === '7' ? '1' : '7'}${l2.slice(1)}`])!;
    const merged = mergeMrzReadings([nameSlip, truth, numberSlip]);
    assert.deepEqual(merged?.reading.lines, td3);
    assert.equal(merged?.reading.valid, true);
    // Two passes only, disagreeing on a name letter: no majority, not agreed.
    assert.equal(mergeMrzReadings([nameSlip, truth])?.agreed, false);
    assert.equal(mergeMrzReadings([truth, truth])?.agreed, true);
  });
});
