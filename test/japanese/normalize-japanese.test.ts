import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  foldKanjiVariants,
  hiraganaToKatakana,
  isFullWidthKatakana,
  isSameJapaneseText,
  normalizeJapaneseText,
  toFullWidthKatakana,
} from '../../src/japanese/index.ts';

describe('normalizeJapaneseText', () => {
  it('folds full-width Latin and digits to ASCII and upper-cases Latin', () => {
    assert.equal(normalizeJapaneseText('Ｙａｍａｄａ１２'), 'YAMADA12');
    assert.equal(normalizeJapaneseText('yamada'), normalizeJapaneseText('YAMADA'));
  });

  it('removes ASCII, ideographic (U+3000), no-break and zero-width spaces', () => {
    assert.equal(normalizeJapaneseText(' 山田\u3000太郎 '), '山田太郎');
    assert.equal(normalizeJapaneseText('山\u00A0田\u200B太\t\uFEFF郎'), '山田太郎');
  });

  it('treats hiragana, katakana and half-width katakana as the same', () => {
    assert.equal(normalizeJapaneseText('やまだ たろう'), 'ヤマダタロウ');
    assert.equal(normalizeJapaneseText('ﾔﾏﾀﾞ ﾀﾛｳ'), 'ヤマダタロウ');
    assert.ok(isSameJapaneseText('がっこう', 'ｶﾞｯｺｳ'));
  });

  it('folds small kana (old registers write シヨウ for ショウ)', () => {
    assert.ok(isSameJapaneseText('ショウ', 'シヨウ'));
    assert.ok(isSameJapaneseText('キッカワ', 'キツカワ'));
  });

  it('maps old and variant kanji to the common form', () => {
    const pairs: [string, string][] = [
      ['髙橋', '高橋'],
      ['山﨑', '山崎'],
      ['山崎', '山崎'],
      ['渡邊', '渡辺'],
      ['渡邉', '渡辺'],
      ['齋藤', '斎藤'],
      ['齊藤', '斎藤'],
      ['澤田', '沢田'],
      ['長濱', '長浜'],
      ['廣田', '広田'],
      ['國分', '国分'],
      ['櫻井', '桜井'],
      ['大藏', '大蔵'],
      ['德川', '徳川'],
      ['惠子', '恵子'],
      ['\u{20BB7}田', '吉田'],
      ['小嶋', '小島'],
      ['冨田', '富田'],
    ];
    for (const [old, common] of pairs) assert.ok(isSameJapaneseText(old, common), `${old} ≡ ${common}`);
  });

  it('does not fold unrelated kanji (埼 is not 崎, 島 is not 鳥)', () => {
    assert.equal(isSameJapaneseText('埼玉', '崎玉'), false);
    assert.equal(isSameJapaneseText('高島', '高鳥'), false);
  });

  it('expands the iteration mark 々', () => {
    assert.ok(isSameJapaneseText('佐々木', '佐佐木'));
  });

  it('treats long-vowel and dash variants as one character', () => {
    for (const v of ['メアリー', 'メアリｰ', 'メアリ－', 'メアリ-', 'メアリ―', 'メアリ‐', 'メアリ—']) {
      assert.ok(isSameJapaneseText(v, 'メアリー'), v);
    }
  });

  it('ignores the nakaguro between given and family names', () => {
    assert.ok(isSameJapaneseText('スミス・ジョン', 'スミス ジョン'));
  });

  it('keeps different names different', () => {
    assert.equal(isSameJapaneseText('山田太郎', '山田次郎'), false);
    assert.equal(isSameJapaneseText('', ''), false);
  });
});

describe('foldKanjiVariants', () => {
  it('leaves text without variants untouched', () => {
    assert.equal(foldKanjiVariants('東京都千代田区'), '東京都千代田区');
  });
});

describe('hiraganaToKatakana', () => {
  it('converts the whole hiragana block including ゔ and ゝ', () => {
    assert.equal(hiraganaToKatakana('ぁあゔゖゝゞー'), 'ァアヴヶヽヾー');
  });
});

describe('toFullWidthKatakana', () => {
  it('stores hiragana, half-width or mixed input as full-width katakana', () => {
    assert.equal(toFullWidthKatakana('やまだ'), 'ヤマダ');
    assert.equal(toFullWidthKatakana('ﾔﾏﾀﾞ'), 'ヤマダ');
    assert.equal(toFullWidthKatakana('ｼﾞｮｰｼﾞ'), 'ジョージ');
    assert.equal(toFullWidthKatakana('  たろう  '), 'タロウ');
  });

  it('keeps small kana (the stored reading must stay exact)', () => {
    assert.equal(toFullWidthKatakana('しょう'), 'ショウ');
  });

  it('turns inner spaces into one ideographic space', () => {
    assert.equal(toFullWidthKatakana('すみす  じょん'), 'スミス\u3000ジョン');
  });

  it('produces text isFullWidthKatakana accepts, and rejects other scripts', () => {
    assert.ok(isFullWidthKatakana(toFullWidthKatakana('ﾀﾅｶ ﾊﾅｺ')));
    assert.equal(isFullWidthKatakana('ﾀﾅｶ'), false);
    assert.equal(isFullWidthKatakana('田中'), false);
    assert.equal(isFullWidthKatakana('TANAKA'), false);
    assert.equal(isFullWidthKatakana(''), false);
  });
});
