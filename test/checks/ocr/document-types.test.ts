// The document definitions and the readers of the issuer's layouts (pure: no images needed).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cleanAddress,
  readPrintedDate,
  splitNameLine,
  startsWithPrefecture,
} from '../../../src/checks/ocr/correct-fields.ts';
import { FRONT_FIELDS, portraitBoxFor } from '../../../src/checks/ocr/document-regions.ts';
import {
  DOCUMENT_DEFINITIONS,
  DOCUMENT_TYPES,
  isValidMyNumber,
  type Region,
} from '../../../src/documents/document-types.ts';

const inside = ([x0, y0, x1, y1]: Region, size: { width: number; height: number }) =>
  x0 >= 0 && y0 >= 0 && x1 <= size.width && y1 <= size.height && x0 < x1 && y0 < y1;
const overlaps = (a: Region, b: Region) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

describe('document definitions', () => {
  it('every zone, title and portrait lies on its document', () => {
    for (const type of DOCUMENT_TYPES) {
      const d = DOCUMENT_DEFINITIONS[type];
      for (const [field, region] of Object.entries(d.front))
        assert.ok(inside(region as Region, d.size), `${type} ${field}`);
      assert.ok(inside(d.titleRegion.region, d.size), `${type} title`);
      if (d.portrait) assert.ok(inside(d.portrait, d.size), `${type} portrait`);
    }
  });

  it("no field zone of the issuer's layout runs into the printed portrait", () => {
    for (const type of ['drivers_license', 'my_number_card'] as const) {
      const portrait = portraitBoxFor(type);
      assert.ok(portrait);
      for (const [field, region] of Object.entries(FRONT_FIELDS[type]))
        if (field !== 'issuer') assert.ok(!overlaps(region as Region, portrait), `${type} ${field}`);
    }
  });

  it('the My Number card prints its portrait at the left, the licence at the right', () => {
    assert.ok((portraitBoxFor('my_number_card')?.[2] ?? 856) < 428);
    assert.ok((portraitBoxFor('drivers_license')?.[0] ?? 0) > 428);
  });

  it('the My Number check digit (総務省令第八十五号 第五条)', () => {
    assert.equal(isValidMyNumber('123456789018'), true);
    assert.equal(isValidMyNumber('123456789012'), false);
    assert.equal(isValidMyNumber('12345678901'), false);
  });
});

describe("reading the issuer's print", () => {
  const reference = new Date('2024-01-15T00:00:00Z');
  it("the licence's 有効期限 band: Western year first, the era year in brackets", () => {
    assert.equal(readPrintedDate('2024年(令和06年)06月01日まで有効', reference), '2024-06-01');
    assert.equal(readPrintedDate('2025年 3月31日まで有効', reference), '2025-03-31');
    // mimoto's synthetic layout prints it the other way round.
    assert.equal(readPrintedDate('令和09年(2027)10月07日', reference), '2027-10-07');
  });

  it('a name spread evenly over the line is split by its shape, a wider gap where it shows', () => {
    const spread = ['日', '本', '花', '子'].map((text, i) => ({ text, x0: i * 100, x1: i * 100 + 30 }));
    assert.deepEqual(splitNameLine(spread, 'kanji'), { lastName: '日本', firstName: '花子' });
    const gapped = [
      { text: '神', x0: 0, x1: 30 },
      { text: '奈', x0: 40, x1: 70 },
      { text: '川', x0: 80, x1: 110 },
      { text: '花', x0: 200, x1: 230 },
      { text: '子', x0: 240, x1: 270 },
    ];
    assert.deepEqual(splitNameLine(gapped, 'kanji'), { lastName: '神奈川', firstName: '花子' });
  });

  it('a Latin name printed with single spaces is cut after its surname, the first word and its particles', () => {
    const words = (...texts: string[]) => {
      let x = 0;
      return texts.map((text) => {
        const box = { text, x0: x, x1: x + text.length * 20 };
        x = box.x1 + 14 + (text.length % 3); // spaces of one width, as read: a pixel or two apart
        return box;
      });
    };
    assert.deepEqual(splitNameLine(words('NGUYEN', 'VAN', 'NAM'), 'latin'), {
      lastName: 'NGUYEN',
      firstName: 'VAN NAM',
    });
    assert.deepEqual(splitNameLine(words('DE', 'LA', 'CRUZ', 'MARIA', 'CLARA'), 'latin'), {
      lastName: 'DE LA CRUZ',
      firstName: 'MARIA CLARA',
    });
    // A space printed clearly wider than the others is where the card splits the name.
    const wide = [
      { text: 'SILVA', x0: 0, x1: 100 },
      { text: 'SANTOS', x0: 114, x1: 234 },
      { text: 'JOAO', x0: 300, x1: 380 },
    ];
    assert.deepEqual(splitNameLine(wide, 'latin'), { lastName: 'SILVA SANTOS', firstName: 'JOAO' });
  });

  it('address dashes read as ー or 一 between numbers, the label 住所 caught by the crop', () => {
    assert.equal(cleanAddress('住所 東京都千代田区霞が関2ー1一2'), '東京都千代田区霞が関2-1-2');
  });

  it('an address in a designated city may be printed without its prefecture', () => {
    assert.ok(startsWithPrefecture('横浜市旭区中尾1-1-1'));
    assert.ok(!startsWithPrefecture('見本市見本町1-1-1'));
  });
});
