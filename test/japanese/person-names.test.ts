// The name dictionary (models/jp-names, IPADIC's person names): known names, variant kanji, and
// where a name printed without a space ends its surname.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitKanjiName } from '../../src/checks/ocr/correct-fields.ts';
import {
  isKnownGivenName,
  isKnownName,
  isKnownSurname,
  splitByKnownNames,
} from '../../src/japanese/index.ts';

describe('the name dictionary', () => {
  it('knows common names and their registered variants, and not a misread of them', () => {
    assert.equal(isKnownSurname('高橋'), true);
    // 髙 and 﨑 are the registers' forms of 高 and 崎: the same name to the dictionary.
    assert.equal(isKnownSurname('髙橋'), true);
    assert.equal(isKnownSurname('山\uFA11'), true);
    assert.equal(isKnownGivenName('花子'), true);
    assert.equal(isKnownName('西村 麗'), true);
    // Misreadings of the validation corpus's kind (麗 → 鹿 is a known kanji, 凸末 is no name).
    assert.equal(isKnownName('凸末'), false);
    assert.equal(isKnownName('太田故子'), false);
  });

  it('splits a name printed without a space where a known part ends', () => {
    assert.deepEqual(splitByKnownNames('長谷川大輔'), { lastName: '長谷川', firstName: '大輔', known: 2 });
    // One part known: the longest known part decides (花子 over 神 in 神奈川花子).
    assert.deepEqual(splitByKnownNames('神奈川花子'), { lastName: '神奈川', firstName: '花子', known: 1 });
    assert.equal(splitByKnownNames('凸末'), undefined);
  });

  it('splits the passport kanji line of a four-character or an unknown three-character surname', () => {
    assert.deepEqual(splitKanjiName('勅使河原ひかり'), { lastName: '勅使河原', firstName: 'ひかり' });
    assert.deepEqual(splitKanjiName('我如古幸子'), { lastName: '我如古', firstName: '幸子' });
    // A name the dictionary knows no part of is cut as most are: two characters of surname.
    assert.deepEqual(splitKanjiName('凸凹末尾'), { lastName: '凸凹', firstName: '末尾' });
  });
});
