// The validation corpus's people are drawn widely: every prefecture with its real municipalities,
// the registry variants of kanji, long names, and the era years a reader finds hard.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { municipalitiesOf } from '../../src/japanese/municipalities.ts';
import { toEra } from '../../src/synth/japanese-date.ts';
import { Random } from '../../src/synth/random.ts';
import { createWideIdentityFor, PREFECTURES_LATIN } from '../../src/synth/wide-identity.ts';

const people = Array.from({ length: 3000 }, (_, i) =>
  createWideIdentityFor(
    new Random(`wide:${i}`),
    i % 5 === 0 ? 'residence_card' : 'drivers_license',
    i % 2 ? 'F' : 'M',
    '2026-04-01',
  ),
);

describe('wide identities', () => {
  it('live in every prefecture, in one of its real municipalities', () => {
    const seen = new Set<string>();
    for (const p of people) {
      const prefecture = PREFECTURES_LATIN.find(([kanji]) => p.address.startsWith(kanji));
      assert.ok(prefecture, p.address);
      seen.add(prefecture[0]);
      const rest = p.address.slice(prefecture[0].length);
      assert.ok(
        municipalitiesOf(prefecture[0]).some((m) => rest.startsWith(m)),
        `${p.address}: no municipality of ${prefecture[0]}`,
      );
      assert.equal(p.prefectureLatin, prefecture[1]);
    }
    assert.equal(seen.size, 47);
  });

  it('carry variant kanji and long names, and addresses in several notations', () => {
    const names = people.map((p) => p.lastName + p.firstName);
    for (const variant of ['髙', '﨑', '邊', '齋', '𠮷'])
      assert.ok(
        names.some((n) => n.includes(variant)),
        variant,
      );
    assert.ok(names.some((n) => [...n].length >= 6));
    for (const notation of [
      /丁目\d+番\d+号/,
      /番地の\d+/,
      /\d+-\d+-\d+/,
      /[一二三四五六七八九十]丁目/,
      /号室/,
    ])
      assert.ok(
        people.some((p) => notation.test(p.address)),
        String(notation),
      );
  });

  it('include foreign residents whose surname is several words', () => {
    const residents = people.filter((p) => p.nationality !== '日本');
    assert.ok(residents.some((p) => /^(DE|DEL|DELA|DOS|DA|VAN) /.test(p.lastNameLatin)));
    assert.ok(residents.some((p) => p.lastNameLatin.split(' ').length >= 3));
  });

  it('are born in era years with a 0 digit and in 平成元年 more often than by chance', () => {
    const japanese = people.filter((p) => p.nationality === '日本');
    const years = japanese.map((p) => toEra(p.birthDate));
    assert.ok(years.some((y) => y.era === '昭和' && y.year === 40));
    assert.ok(years.some((y) => y.era === '平成' && y.year === 1));
    assert.ok(years.filter((y) => y.year % 10 === 0).length / years.length > 0.2);
    for (const p of people) {
      const age = 2026 - Number(p.birthDate.slice(0, 4));
      assert.ok(age >= 17 && age <= 81, `${p.birthDate}`);
    }
  });
});
