// Normalisation of Japanese identity data so that two renderings of the same name compare equal
// (interface §2.2 and §2.7).
//
// The comparison key is deliberately lossy: it is only ever compared with another key built the
// same way, never shown or stored.

import { foldKanjiVariants } from './kanji-variants.ts';

/**
 * Every character that is, on some document or keyboard, a hyphen, a dash or the katakana long
 * vowel mark. NFKC already turns U+FF70 (ｰ) into ー and U+FF0D (－) into "-".
 */
export const DASH_CHARS =
  '\u002D\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2500\u2501\u30FC\uFE63\uFF0D\uFF70\u2043';
const DASH_PATTERN = new RegExp(`[${DASH_CHARS.replace('-', '\\-')}]`, 'gu');

// Spaces of every kind (\s covers U+3000 ideographic space and NBSP) plus the zero-width ones that
// copy-paste leaves behind, and the name separators ・ (nakaguro) and = used between given and
// family names on residence cards.
const SEPARATORS = /\s|\u200B|\u200C|\u200D|\u2060|\uFEFF|[・=]/gu;

/** ぁ–ゖ and ゝゞ → ァ–ヶ and ヽヾ (the blocks are 0x60 apart). */
export function hiraganaToKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096\u309D\u309E]/gu, (c) =>
    String.fromCharCode((c.codePointAt(0) as number) + 0x60),
  );
}

// Small kana folded to the full-size ones: older family-register entries have no small kana
// (シヨウ for ショウ), and OCR confuses the sizes.
const SMALL_KANA: Readonly<Record<string, string>> = {
  ァ: 'ア',
  ィ: 'イ',
  ゥ: 'ウ',
  ェ: 'エ',
  ォ: 'オ',
  ッ: 'ツ',
  ャ: 'ヤ',
  ュ: 'ユ',
  ョ: 'ヨ',
  ヮ: 'ワ',
  ヵ: 'カ',
  ヶ: 'ケ',
};
const SMALL_KANA_PATTERN = new RegExp(`[${Object.keys(SMALL_KANA).join('')}]`, 'gu');

/** 佐々木 → 佐佐木: the iteration mark repeats the kanji before it. */
function expandIterationMark(text: string): string {
  return text.replace(/(\p{Script=Han})々/gu, '$1$1');
}

/**
 * The comparison key for a name (or any short identity string):
 * NFKC (full-width ASCII → ASCII, half-width katakana → full-width), every kind of space and
 * the name separators removed, Latin upper-cased, hiragana → katakana, small kana → full size,
 * 々 expanded, old/variant kanji folded (KANJI_VARIANTS), every dash and long-vowel variant → ー.
 */
export function normalizeJapaneseText(text: string): string {
  let s = text.normalize('NFKC');
  s = s.replace(SEPARATORS, '');
  s = s.toUpperCase();
  s = hiraganaToKatakana(s);
  s = s.replace(SMALL_KANA_PATTERN, (c) => SMALL_KANA[c] ?? c);
  s = expandIterationMark(s);
  s = foldKanjiVariants(s);
  s = s.replace(DASH_PATTERN, 'ー');
  return s;
}

/** True when the two strings are the same name after `normalizeJapaneseText`; empty never matches. */
export function isSameJapaneseText(a: string, b: string): boolean {
  const x = normalizeJapaneseText(a);
  return x.length > 0 && x === normalizeJapaneseText(b);
}

/**
 * The stored form of a kana reading (userInput lastNameKana / firstNameKana, interface §2.3):
 * full-width katakana, whatever the user typed (hiragana, half-width katakana). Spaces at the
 * ends are dropped and inner runs of spaces become one ideographic space; small kana are kept,
 * since this is stored, not just compared.
 */
export function toFullWidthKatakana(text: string): string {
  // NFKC turns half-width katakana (and ﾞﾟ) into full width, composing ｶﾞ → ガ.
  const s = hiraganaToKatakana(text.normalize('NFKC'));
  return s.trim().replace(/\s+/gu, '\u3000');
}

/** True when the text is only full-width katakana (with ー, ・ and ideographic spaces). */
export function isFullWidthKatakana(text: string): boolean {
  return text.length > 0 && /^[\u30A1-\u30FA\u30FC\u30FD\u30FE\u30FB\u3000]+$/u.test(text);
}
