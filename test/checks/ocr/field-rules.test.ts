// The rules that encode facts of the documents: era dates, the residence card number's shape, and
// which printed date is the expiry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  readExpiryDate,
  readNumberOfFormat,
  readPrintedDate,
  readResidenceCardNumber,
} from '../../../src/checks/ocr/correct-fields.ts';
import { readRegion } from '../../../src/checks/ocr/read-region.ts';
import { RESIDENCE_CARD } from '../../../src/documents/document-types.ts';
import { isKnownName } from '../../../src/japanese/index.ts';

const reference = new Date('2026-04-01T00:00:00Z');

describe('era dates as printed', () => {
  it('reads era years with a 0 digit and 元年', () => {
    assert.equal(readPrintedDate('昭和40年4月12日生', reference), '1965-04-12');
    assert.equal(readPrintedDate('昭和50年11月30日生', reference), '1975-11-30');
    assert.equal(readPrintedDate('平成10年10月10日生', reference), '1998-10-10');
    assert.equal(readPrintedDate('平成元年1月8日生', reference), '1989-01-08');
    assert.equal(readPrintedDate('令和元年5月1日', reference), '2019-05-01');
    // Full-width digits, as some cards print them, and digits read apart.
    assert.equal(readPrintedDate('昭和４０年１１月３０日', reference), '1965-11-30');
    assert.equal(readPrintedDate('昭和4 0年1 1月3 0日', reference), '1965-11-30');
  });

  it('rejects a date outside its era', () => {
    assert.equal(readPrintedDate('平成31年5月1日', reference), undefined);
    assert.equal(readPrintedDate('令和元年4月30日', reference), undefined);
  });
});

describe('the residence card number', () => {
  it('is two letters, eight digits, two letters, each position corrected to its class', () => {
    assert.equal(readResidenceCardNumber('AB12345678CD'), 'AB12345678CD');
    // Look-alikes by position: 8 for B in a letter slot, O for 0 in a digit slot.
    assert.equal(readResidenceCardNumber('A812345678CD'), 'AB12345678CD');
    assert.equal(readResidenceCardNumber('AB1234S67OCD'), 'AB12345670CD');
    assert.equal(readNumberOfFormat(RESIDENCE_CARD.number!, '番号 AB 1234 5678 CD'), 'AB12345678CD');
  });

  it('a stray glyph before the number does not shift it: the window needing no correction wins', () => {
    // The first window, SAB12345678C, fits too once B is read as 8 and 8 as B: SA81234567BC.
    assert.equal(readResidenceCardNumber('SAB12345678CD'), 'AB12345678CD');
    assert.equal(readNumberOfFormat(RESIDENCE_CARD.number!, '番号 SAB12345678CD'), 'AB12345678CD');
  });

  it('is not read from a run of the wrong shape', () => {
    assert.equal(readResidenceCardNumber('AB1234567CD'), undefined);
  });
});

describe('the expiry among the printed dates', () => {
  it('is the date the card is valid until (まで有効), not the issue date beside it', () => {
    const line = '交付年月日 2025年03月10日 このカードは2028年03月10日まで有効です';
    assert.equal(readExpiryDate(line, reference), '2028-03-10');
    // Printed the other way round.
    assert.equal(
      readExpiryDate('このカードは2028年03月10日まで有効です 交付年月日2025年03月10日', reference),
      '2028-03-10',
    );
    // まで misread.
    assert.equal(readExpiryDate('2025年03月10日 2028年03月10日まて有効', reference), '2028-03-10');
  });

  it('is the date after an expiry label, never the one after an issue label', () => {
    assert.equal(
      readExpiryDate('有効期間満了日 2030年01月31日 交付 2025年02月01日', reference),
      '2030-01-31',
    );
    assert.equal(readExpiryDate('許可年月日 2025年02月01日 2027年06月30日', reference), '2027-06-30');
  });

  it('is the later date when nothing labels them (a card expires after it is issued)', () => {
    assert.equal(readExpiryDate('2025年02月01日 2030年01月31日', reference), '2030-01-31');
  });

  it('a line with one date reads as any printed date', () => {
    assert.equal(readExpiryDate('2024年(令和06年)06月01日まで有効', reference), '2024-06-01');
    assert.equal(readExpiryDate('令和13年5月1日', reference), '2031-05-01');
  });
});

describe('a name the dictionary does not know', () => {
  // The engine reads the crop by its width: 100 px (1×) gives a look-alike, 140 px (1.4×) the name.
  const byWidth = (texts: Record<number, string>): Parameters<typeof readRegion>[0] =>
    ({
      model: 'fake',
      isHealthy: true,
      recognize: async (png: Buffer) => {
        const { width = 0 } = await sharp(png).metadata();
        const text = texts[width] ?? '';
        return { text, confidence: 90, words: [], lines: [] };
      },
    }) as unknown as Parameters<typeof readRegion>[0];
  const page = { data: new Uint8Array(100 * 20).fill(255), width: 100, height: 20 };
  const layout = { width: 100, height: 20, scale: 1 };
  const kanji = (t: string) => /^\p{Script=Han}{2,8}$/u.test(t.replace(/\s/g, ''));
  const known = (t: string) => isKnownName(t.replace(/\s/g, ''));

  it('is read again at another scale, and the reading it knows is taken', async () => {
    const engine = byWidth({ 100: '西村 鹿', 140: '西村 麗' });
    const r = await readRegion(engine, page, [0, 0, 100, 20], layout, { accept: kanji, prefer: known });
    assert.equal(r.text, '西村 麗');
  });

  it('is kept as read when no other scale gives a name it knows', async () => {
    const engine = byWidth({ 100: '我如古 幸子', 140: '我如古 幸于', 75: '我如吉 幸子' });
    const r = await readRegion(engine, page, [0, 0, 100, 20], layout, { accept: kanji, prefer: known });
    assert.equal(r.text, '我如古 幸子');
  });
});
