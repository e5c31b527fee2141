// The passport's domicile: one of the 47 prefectures, in Latin letters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PREFECTURES, PREFECTURES_LATIN, prefectureInLatin } from '../../src/japanese/index.ts';

describe('prefectures in Latin letters', () => {
  it('names every prefecture, in the order of the kanji list', () => {
    assert.deepEqual(
      PREFECTURES_LATIN.map(([kanji]) => kanji),
      [...PREFECTURES],
    );
  });

  it('reads a domicile one letter off as the prefecture, and no guess between two', () => {
    assert.equal(prefectureInLatin('NIIGATA'), 'NIIGATA');
    assert.equal(prefectureInLatin('NIHGATA'), 'NIIGATA');
    assert.equal(prefectureInLatin(' tokyo '), 'TOKYO');
    assert.equal(prefectureInLatin('HOKKAID'), 'HOKKAIDO');
    // Two letters off is no prefecture.
    assert.equal(prefectureInLatin('NIHGAT4'), undefined);
    // OKITA is one letter from AKITA and from OITA: left unread.
    assert.equal(prefectureInLatin('OKITA'), undefined);
  });
});
