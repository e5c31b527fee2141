// A document type described only by its definition (a health insurance card, declared here and
// nowhere in src) read by the OCR's generic parts: told from its printed title, its name and
// number read as its definition prints them. Readings are scripted, as Tesseract would give them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleMatch } from '../../../src/checks/ocr/classify-document.ts';
import {
  numberShape,
  readDigits,
  readPassportNumber,
  readResidenceCardNumber,
} from '../../../src/checks/ocr/correct-fields.ts';
import { frontFieldsOf, layoutFor, layoutVariantOf } from '../../../src/checks/ocr/document-regions.ts';
import {
  acceptorsFor,
  latinFields,
  readDocumentNumber,
  readName,
} from '../../../src/checks/ocr/read-front-fields.ts';
import type { Recognised } from '../../../src/checks/ocr/read-region.ts';
import { DOCUMENT_DEFINITIONS, type DocumentDefinition } from '../../../src/documents/document-types.ts';

/** 健康保険被保険者証: no portrait, its title across the top, an eight-digit 番号 with no check digit. */
const HEALTH_INSURANCE_CARD: DocumentDefinition<'health_insurance_card'> = {
  type: 'health_insurance_card',
  title: '健康保険被保険者証',
  sides: ['front', 'back'],
  size: { width: 856, height: 540 },
  titleWords: ['健康保険被保険者証', '被保険者証', '健康保険証'],
  titleRegion: { region: [20, 8, 600, 72], vertical: false },
  nameScript: 'kanji',
  front: {
    documentNumber: [420, 80, 848, 130],
    name: [95, 130, 600, 180],
    birthDate: [95, 180, 600, 226],
    issuer: [95, 440, 848, 500],
  },
  labels: { documentNumber: ['記号', '番号'], name: ['氏名'], birthDate: ['生年月日'] },
  portrait: null,
  colourBands: [],
  number: { pattern: /^\d{8}$/, describe: '8 digits' },
  mrz: null,
  tolerance: 12,
};

/** The four supported types' titles printed across the card, then the new one's. */
const ACROSS = [...Object.values(DOCUMENT_DEFINITIONS), HEALTH_INSURANCE_CARD].filter(
  (d) => !d.titleRegion.vertical,
);

/** A line as Tesseract returns it: each word with its box, left to right. */
function line(...words: string[]): Recognised {
  let x = 0;
  return {
    text: words.join(' '),
    confidence: 0.9,
    words: words.map((text) => {
      const box = { x0: x, x1: x + 40 * text.length, y0: 0, y1: 40 };
      x = box.x1 + 30;
      return { text, confidence: 0.9, bbox: box };
    }),
  } as Recognised;
}

describe('a document type given only by its definition', () => {
  it('is told from its printed title, misread or not, and the others still from theirs', () => {
    assert.equal(titleMatch('健康保険 被保険者証', ACROSS).type, 'health_insurance_card');
    // A character misread (険 as 検) and the issuer's name beside the title.
    const misread = titleMatch('全国健康保検協会 被保検者証', ACROSS);
    assert.equal(misread.type, 'health_insurance_card');
    assert.ok(misread.confidence >= 0.7, `${misread.confidence}`);
    assert.equal(titleMatch('在留カード RESIDENCE CARD', ACROSS).type, 'residence_card');
    assert.equal(titleMatch('個人番号カード', ACROSS).type, 'my_number_card');
    assert.equal(titleMatch('日本国 旅券 PASSPORT', ACROSS).type, 'passport');
    // Without its definition the same title names no type well enough (classify takes ≥ 0.7).
    const without = titleMatch('健康保険 被保険者証', ACROSS.slice(0, -1));
    assert.ok(without.confidence < 0.7, `${without.type} ${without.confidence}`);
  });

  it('reads its number in the definition’s format, look-alike letters corrected', () => {
    assert.equal(numberShape(HEALTH_INSURANCE_CARD.number?.pattern ?? /$/), 'DDDDDDDD');
    assert.equal(readDocumentNumber(HEALTH_INSURANCE_CARD, '番号 1234 5O78'), '12345078');
    assert.equal(readDocumentNumber(HEALTH_INSURANCE_CARD, '番号 1234 567'), undefined);
    // A check digit, when the definition declares one, rejects a misread number.
    const checked: DocumentDefinition<'health_insurance_card'> = {
      ...HEALTH_INSURANCE_CARD,
      number: {
        pattern: /^[A-Z]{2}\d{6}$/,
        describe: 'two letters, six digits (the last the sum of the others mod 10)',
        isValid: (n) => [...n.slice(2, 7)].reduce((s, d) => s + Number(d), 0) % 10 === Number(n[7]),
      },
    };
    assert.equal(readDocumentNumber(checked, '番号 KA 123455'), 'KA123455');
    assert.equal(readDocumentNumber(checked, '番号 K4 12345S'), 'KA123455');
    assert.equal(readDocumentNumber(checked, '番号 KA 123456'), undefined);
    assert.deepEqual(latinFields(checked), ['documentNumber']);
  });

  it('reads its name in the script the definition gives, the label 氏名 left out', () => {
    assert.deepEqual(readName(HEALTH_INSURANCE_CARD, line('氏名', '山田', '花子')), {
      lastName: '山田',
      firstName: '花子',
    });
    const accept = acceptorsFor(HEALTH_INSURANCE_CARD, new Date('2026-01-01'));
    assert.equal(accept.name?.('山田 花子'), true);
    assert.equal(accept.name?.('YAMADA HANAKO'), false);
    assert.equal(accept.documentNumber?.('番号 12345678'), true);
    assert.equal(accept.documentNumber?.('番号 1234'), false);
    // Kanji name and digits-only number: read with the Japanese model.
    assert.deepEqual(latinFields(HEALTH_INSURANCE_CARD), []);
    const latin = { ...HEALTH_INSURANCE_CARD, nameScript: 'latin' as const };
    assert.deepEqual(readName(latin, line('NAME', 'YAMADA', 'HANAKO')), {
      lastName: 'YAMADA',
      firstName: 'HANAKO',
    });
    assert.deepEqual(latinFields(latin), ['name']);
  });

  it('is read from its own zones, in the issuer’s layout, on a card', () => {
    assert.deepEqual(frontFieldsOf(HEALTH_INSURANCE_CARD), HEALTH_INSURANCE_CARD.front);
    assert.equal(layoutVariantOf(HEALTH_INSURANCE_CARD), 'official');
    assert.equal(layoutFor(HEALTH_INSURANCE_CARD).width, 856);
  });
});

describe('the supported types’ numbers, read from their definitions', () => {
  it('read as their own readers read them', () => {
    const readings = [
      '第 012345678900 号',
      '第 O1234S678900 号',
      '番号 01234567890',
      'AB12345678CD',
      'A812345678CD',
      '番号 AB 1234 5678 CDX',
      'ABI2345678C0',
      'TK1234567',
      'TKI234S67 JPN',
      'T1234567',
      '',
    ];
    for (const text of readings) {
      assert.equal(
        readDocumentNumber(DOCUMENT_DEFINITIONS.drivers_license, text),
        readDigits(text, 12),
        text,
      );
      assert.equal(
        readDocumentNumber(DOCUMENT_DEFINITIONS.residence_card, text),
        readResidenceCardNumber(text),
        text,
      );
      assert.equal(readDocumentNumber(DOCUMENT_DEFINITIONS.passport, text), readPassportNumber(text), text);
      assert.equal(readDocumentNumber(DOCUMENT_DEFINITIONS.my_number_card, text), undefined, text);
    }
    assert.equal(readDocumentNumber(DOCUMENT_DEFINITIONS.residence_card, 'A812345678CD'), 'AB12345678CD');
  });
});
