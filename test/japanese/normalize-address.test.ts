import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isPartialAddressMatch,
  normalizeAddress,
  parseKanjiNumber,
  splitPrefecture,
} from '../../src/japanese/index.ts';

describe('parseKanjiNumber', () => {
  it('reads numerals with units and positional ones', () => {
    const cases: [string, number][] = [
      ['一', 1],
      ['十', 10],
      ['十一', 11],
      ['二十', 20],
      ['二十三', 23],
      ['百', 100],
      ['百五', 105],
      ['三百二十一', 321],
      ['千九百九十', 1990],
      ['二〇二三', 2023],
      ['一〇', 10],
      ['三万', 30000],
    ];
    for (const [text, value] of cases) assert.equal(parseKanjiNumber(text), value, text);
  });

  it('rejects what is not a kanji numeral', () => {
    assert.equal(parseKanjiNumber(''), undefined);
    assert.equal(parseKanjiNumber('二三十'), undefined);
    assert.equal(parseKanjiNumber('十日'), undefined);
  });
});

describe('normalizeAddress', () => {
  const canonical = '東京都千代田区霞ケ関1-2-3';

  it('treats 丁目・番・号, hyphens, kanji and full-width numerals as one notation', () => {
    for (const a of [
      '東京都千代田区霞が関１丁目２番３号',
      '東京都千代田区霞が関1-2-3',
      '東京都千代田区霞が関一丁目二番三号',
      '東京都千代田区霞ヶ関1丁目2-3',
      '東京都 千代田区 霞が関 １－２－３',
      '東京都千代田区霞が関1ー2ー3',
      '東京都千代田区霞が関1‐2‐3',
      '〒100-0013 東京都千代田区霞が関1-2-3',
    ]) {
      assert.equal(normalizeAddress(a), canonical, a);
    }
  });

  it('reads 十 and compound kanji numerals in block numbers', () => {
    assert.equal(normalizeAddress('港区六本木十丁目二十三番地の四'), normalizeAddress('港区六本木10-23-4'));
    assert.equal(normalizeAddress('港区六本木十丁目二十三番地の四'), '港区六本木10-23-4');
  });

  it('leaves numerals that are part of a place name alone', () => {
    assert.equal(normalizeAddress('三重県四日市市八王子町'), '三重県四日市市八王子町');
    assert.equal(normalizeAddress('東京都千代田区'), '東京都千代田区');
  });

  it('makes 大字 and 字 optional', () => {
    assert.equal(
      normalizeAddress('長野県上田市大字上野字中原123番地'),
      normalizeAddress('長野県上田市上野中原123'),
    );
  });

  it('keeps 十字 and 文字 (words, not the 字 marker)', () => {
    assert.ok(normalizeAddress('十字町1番').includes('十字'));
  });

  it('folds old kanji in place names', () => {
    assert.equal(normalizeAddress('大阪府大阪市北區'), normalizeAddress('大阪府大阪市北区'));
  });
});

describe('splitPrefecture', () => {
  it('finds the prefecture at the start only', () => {
    assert.deepEqual(splitPrefecture('京都府京都市'), { prefecture: '京都府', rest: '京都市' });
    assert.deepEqual(splitPrefecture('千代田区'), { prefecture: '', rest: '千代田区' });
  });
});

describe('isPartialAddressMatch (interface §2.2)', () => {
  const ocr = '東京都千代田区霞が関１丁目２番３号';

  it('matches the full address in another notation', () => {
    assert.ok(isPartialAddressMatch('東京都千代田区霞が関一丁目二番三号', ocr));
  });

  it('matches a leading part of the address', () => {
    assert.ok(isPartialAddressMatch('東京都千代田区', ocr));
    assert.ok(isPartialAddressMatch('東京都千代田区霞が関1丁目', ocr));
  });

  it('allows the prefecture to be left out of either side', () => {
    assert.ok(isPartialAddressMatch('千代田区霞が関1-2-3', ocr));
    assert.ok(isPartialAddressMatch('東京都千代田区霞が関1-2-3', '千代田区霞が関1丁目2番3号'));
  });

  it('matches a contiguous middle part', () => {
    assert.ok(isPartialAddressMatch('霞が関1-2', ocr));
  });

  it('rejects a different prefecture even when the rest matches', () => {
    assert.equal(isPartialAddressMatch('広島県府中市', '東京都府中市宮西町1-1'), false);
  });

  it('rejects a different block or lot number', () => {
    assert.equal(isPartialAddressMatch('東京都千代田区霞が関1-2-4', ocr), false);
    assert.equal(isPartialAddressMatch('東京都千代田区霞が関2丁目', ocr), false);
  });

  it('never matches a number as part of a longer number', () => {
    assert.equal(isPartialAddressMatch('霞が関1丁目2番', '東京都千代田区霞が関1丁目23番4号'), false);
    assert.equal(isPartialAddressMatch('霞が関1丁目', '東京都千代田区霞が関11丁目'), false);
  });

  it('rejects parts that are not contiguous', () => {
    assert.equal(isPartialAddressMatch('千代田区1-2-3', ocr), false);
    assert.equal(isPartialAddressMatch('東京都千代田区1丁目', ocr), false);
  });

  it('checks the prefecture on its own, then the rest as a contiguous part', () => {
    assert.ok(isPartialAddressMatch('東京都霞が関1-2-3', ocr));
  });

  it('rejects empty and numbers-only input', () => {
    assert.equal(isPartialAddressMatch('', ocr), false);
    assert.equal(isPartialAddressMatch('  ', ocr), false);
    assert.equal(isPartialAddressMatch('1-2-3', ocr), false);
  });

  it('accepts a prefecture alone only when the OCR address has it', () => {
    assert.ok(isPartialAddressMatch('東京都', ocr));
    assert.equal(isPartialAddressMatch('大阪府', ocr), false);
    assert.equal(isPartialAddressMatch('東京都', '千代田区霞が関1-2-3'), false);
  });
});
