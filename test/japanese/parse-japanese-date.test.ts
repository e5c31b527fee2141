import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findJapaneseDates,
  formatJapaneseEraDate,
  formatPassportDate,
  parseJapaneseDate,
  toJapaneseEra,
} from '../../src/japanese/index.ts';

const reference = new Date('2025-06-01T00:00:00Z');

describe('parseJapaneseDate: Japanese eras', () => {
  it('converts each era with its start year', () => {
    const cases: [string, string][] = [
      ['平成2年4月1日', '1990-04-01'],
      ['昭和63年12月31日', '1988-12-31'],
      ['令和5年1月1日', '2023-01-01'],
      ['大正15年12月24日', '1926-12-24'],
      ['明治45年7月29日', '1912-07-29'],
      ['昭和元年12月25日', '1926-12-25'],
    ];
    for (const [text, date] of cases) assert.equal(parseJapaneseDate(text), date, text);
  });

  it('reads 元年 as year 1', () => {
    assert.equal(parseJapaneseDate('平成元年1月8日'), '1989-01-08');
    assert.equal(parseJapaneseDate('令和元年5月1日'), '2019-05-01');
  });

  it('accepts the last and first days at an era boundary', () => {
    assert.equal(parseJapaneseDate('昭和64年1月7日'), '1989-01-07');
    assert.equal(parseJapaneseDate('平成31年4月30日'), '2019-04-30');
  });

  it('rejects dates outside their era', () => {
    assert.equal(parseJapaneseDate('平成31年5月1日'), undefined);
    assert.equal(parseJapaneseDate('令和元年4月30日'), undefined);
    assert.equal(parseJapaneseDate('昭和64年1月8日'), undefined);
    assert.equal(parseJapaneseDate('平成元年1月7日'), undefined);
    assert.equal(parseJapaneseDate('大正16年1月1日'), undefined);
    assert.equal(parseJapaneseDate('平成0年1月1日'), undefined);
  });

  it('reads padded, spaced, full-width and kanji-numeral forms as printed on cards', () => {
    assert.equal(parseJapaneseDate('平成02年04月01日生'), '1990-04-01');
    assert.equal(parseJapaneseDate('平成 2年 4月 1日生'), '1990-04-01');
    assert.equal(parseJapaneseDate('平成２年４月１日'), '1990-04-01');
    assert.equal(parseJapaneseDate('平成二年四月一日'), '1990-04-01');
    assert.equal(parseJapaneseDate('昭和六十三年十二月三十一日'), '1988-12-31');
  });

  it('reads abbreviated era dates', () => {
    assert.equal(parseJapaneseDate('H2.4.1'), '1990-04-01');
    assert.equal(parseJapaneseDate('S63.12.31'), '1988-12-31');
    assert.equal(parseJapaneseDate('R5.1.1'), '2023-01-01');
    assert.equal(parseJapaneseDate('H02.04.01'), '1990-04-01');
    assert.equal(parseJapaneseDate('h2/4/1'), '1990-04-01');
    assert.equal(parseJapaneseDate('Ｈ２．４．１'), '1990-04-01');
    assert.equal(parseJapaneseDate('平成2.4.1'), '1990-04-01');
  });

  it('rejects abbreviated dates outside their era', () => {
    assert.equal(parseJapaneseDate('H31.5.1'), undefined);
    assert.equal(parseJapaneseDate('R1.4.30'), undefined);
  });
});

describe('parseJapaneseDate: Gregorian and passport forms', () => {
  it('reads 年月日, slashes, dots, hyphens and 8 digits', () => {
    for (const text of [
      '1990年4月1日',
      '1990年04月01日',
      '1990/04/01',
      '1990/4/1',
      '1990.4.1',
      '1990-04-01',
      '１９９０年４月１日',
      '19900401',
    ]) {
      assert.equal(parseJapaneseDate(text), '1990-04-01', text);
    }
  });

  it('reads passport dates with four- and two-digit years', () => {
    assert.equal(parseJapaneseDate('01 APR 1990'), '1990-04-01');
    assert.equal(parseJapaneseDate('01APR1990'), '1990-04-01');
    assert.equal(parseJapaneseDate('01APR90', { referenceDate: reference }), '1990-04-01');
    assert.equal(parseJapaneseDate('1 apr 1990'), '1990-04-01');
    assert.equal(parseJapaneseDate('15 AUG/AOUT 1985'), '1985-08-15');
  });

  it('completes two-digit birth years into the past, expiry years to the nearest century', () => {
    assert.equal(parseJapaneseDate('01JAN24', { referenceDate: reference }), '2024-01-01');
    assert.equal(parseJapaneseDate('01JAN30', { referenceDate: reference }), '1930-01-01');
    assert.equal(
      parseJapaneseDate('01JAN30', { referenceDate: reference, twoDigitYear: 'nearest' }),
      '2030-01-01',
    );
  });

  it('accepts only real calendar dates', () => {
    assert.equal(parseJapaneseDate('2023年2月30日'), undefined);
    assert.equal(parseJapaneseDate('2023/02/29'), undefined);
    assert.equal(parseJapaneseDate('2024/02/29'), '2024-02-29');
    assert.equal(parseJapaneseDate('1990/13/01'), undefined);
    assert.equal(parseJapaneseDate('31 APR 1990'), undefined);
    assert.equal(parseJapaneseDate('平成2年2月30日'), undefined);
    assert.equal(parseJapaneseDate('19900230'), undefined);
  });

  it('returns undefined for text without a date', () => {
    assert.equal(parseJapaneseDate(''), undefined);
    assert.equal(parseJapaneseDate('山田太郎'), undefined);
    assert.equal(parseJapaneseDate('123456789012'), undefined);
  });

  it('finds the date inside a labelled OCR line', () => {
    assert.equal(parseJapaneseDate('生年月日 昭和63年12月31日生'), '1988-12-31');
  });
});

describe('findJapaneseDates', () => {
  it('finds every real date in order', () => {
    const found = findJapaneseDates('交付 令和05年01月10日 12345 有効期限 令和10年02月15日まで');
    assert.deepEqual(
      found.map((f) => f.date),
      ['2023-01-10', '2028-02-15'],
    );
  });
});

describe('formatJapaneseEraDate', () => {
  it('writes dates the way documents print them', () => {
    assert.equal(formatJapaneseEraDate('1990-04-01'), '平成2年4月1日');
    assert.equal(formatJapaneseEraDate('1990-04-01', { padded: true }), '平成02年04月01日');
    assert.equal(formatJapaneseEraDate('1989-01-08'), '平成元年1月8日');
    assert.equal(formatJapaneseEraDate('1989-01-08', { gannen: false }), '平成1年1月8日');
    assert.equal(formatJapaneseEraDate('1989-01-07'), '昭和64年1月7日');
    assert.equal(formatJapaneseEraDate('2019-05-01'), '令和元年5月1日');
    assert.equal(formatJapaneseEraDate('1988-12-31', { style: 'letter' }), 'S63.12.31');
  });

  it('round-trips through parseJapaneseDate for every era and style', () => {
    for (const date of [
      '1912-07-30',
      '1926-12-25',
      '1955-06-15',
      '1989-01-08',
      '2000-02-29',
      '2019-04-30',
      '2019-05-01',
      '2024-12-31',
    ]) {
      for (const options of [
        {},
        { padded: true },
        { style: 'letter' as const },
        { style: 'letter' as const, padded: true },
      ]) {
        assert.equal(
          parseJapaneseDate(formatJapaneseEraDate(date, options)),
          date,
          `${date} ${JSON.stringify(options)}`,
        );
      }
    }
  });

  it('rejects impossible input dates', () => {
    assert.throws(() => formatJapaneseEraDate('2023-02-30'), RangeError);
    assert.throws(() => formatJapaneseEraDate('1800-01-01'), RangeError);
  });

  it('names the era of a date', () => {
    assert.deepEqual(
      (({ era, year }) => ({ name: era.name, year }))(
        toJapaneseEra('2019-05-01') as NonNullable<ReturnType<typeof toJapaneseEra>>,
      ),
      { name: '令和', year: 1 },
    );
  });
});

describe('formatPassportDate', () => {
  it('writes DD MMM YYYY and round-trips', () => {
    assert.equal(formatPassportDate('1990-04-01'), '01 APR 1990');
    assert.equal(parseJapaneseDate(formatPassportDate('1985-08-15')), '1985-08-15');
  });
});
