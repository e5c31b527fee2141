// The katakana suggested for a name in Latin letters: romaji read as romaji, other names as
// katakana writes foreign names, and nothing suggested for a name in kanji or kana.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isLatinName, latinNameToKatakana } from '../../src/hosted-flow/latin-name-kana.ts';

describe('latinNameToKatakana', () => {
  test('romaji reads as the Japanese name it spells', () => {
    assert.equal(latinNameToKatakana('Tanaka'), 'タナカ');
    assert.equal(latinNameToKatakana('SHINJI'), 'シンジ');
    assert.equal(latinNameToKatakana('Yuuki'), 'ユーキ');
    assert.equal(latinNameToKatakana('kyoko'), 'キョコ');
    assert.equal(latinNameToKatakana('Sakura'), 'サクラ');
  });

  test('a residence card name in capitals, several words, joined with ・', () => {
    assert.equal(latinNameToKatakana('NGUYEN VAN AN'), 'ングイェン・ヴァン・アン');
    assert.equal(latinNameToKatakana('Le Thi Mai'), 'レ・ティ・マイ');
    assert.equal(latinNameToKatakana('Jean-Pierre'), 'ジェアン・ピエレ');
  });

  test('consonants no vowel follows, doubled letters, c and th as foreign names write them', () => {
    assert.equal(latinNameToKatakana('SMITH'), 'スミス');
    assert.equal(latinNameToKatakana('PATRICK'), 'パトリック');
    assert.equal(latinNameToKatakana('Anna'), 'アンナ');
    assert.equal(latinNameToKatakana('Emma'), 'エンマ');
    assert.equal(latinNameToKatakana('Maria Garcia'), 'マリア・ガルシア');
    assert.equal(latinNameToKatakana('Chen'), 'チェン');
    assert.equal(latinNameToKatakana('WANG'), 'ワン');
    assert.equal(latinNameToKatakana('KIM'), 'キム');
    assert.equal(latinNameToKatakana('Thomas'), 'トマス');
    assert.equal(latinNameToKatakana('Sarah'), 'サラ');
    assert.equal(latinNameToKatakana('Silva'), 'シルヴァ');
  });

  test('accents are dropped; apostrophes join', () => {
    assert.equal(latinNameToKatakana('Nguyễn'), 'ングイェン');
    assert.equal(latinNameToKatakana("O'Brien"), 'オブリエン');
  });

  test('the result is what the form accepts as kana (full-width katakana, ・)', () => {
    for (const name of ['NGUYEN VAN AN', 'SMITH', 'Jean-Pierre', 'Xavier', 'Quentin', 'Zoë'])
      assert.match(latinNameToKatakana(name), /^[\u30A1-\u30FA\u30FB\u30FC]+$/u, name);
  });

  test('a name in kanji or kana, or mixed with other characters, gets no suggestion', () => {
    for (const name of ['山田', 'やまだ', 'ヤマダ', 'SMITH 太郎', '', '   ', '123']) {
      assert.equal(latinNameToKatakana(name), '', name);
      assert.equal(isLatinName(name), false, name);
    }
    assert.equal(isLatinName('SMITH'), true);
  });
});
