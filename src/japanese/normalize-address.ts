// Japanese address normalisation and partial matching (interface §2.2: "A partial address is
// acceptable for matching": 丁目・番・号 vs hyphens, kanji vs Arabic numerals).
//
// 東京都千代田区霞が関１丁目２番３号, 東京都千代田区霞ヶ関1-2-3 and 東京都千代田区霞が関一丁目二番三号
// all normalise to 東京都千代田区霞ケ関1-2-3.

import { KANJI_NUMERAL_CHARS, replaceKanjiNumerals } from './kanji-numerals.ts';
import { foldKanjiVariants } from './kanji-variants.ts';
import { DASH_CHARS, hiraganaToKatakana } from './normalize-japanese.ts';

/** The 47 prefectures, as printed at the start of an address. */
export const PREFECTURES = [
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
] as const;

/** A prefecture as a commission's short name gives it (鳥取公委, 東京公委, 北海道公委): without 都, 府 or 県. */
export function prefectureShortName(prefecture: string): string {
  return prefecture === '北海道' ? prefecture : prefecture.replace(/[都府県]$/u, '');
}

const KANJI_NUMERAL = `[${KANJI_NUMERAL_CHARS}]`;
// Non-ー dashes become "-" everywhere; ー only between numbers (1ー2ー3 typed with the long-vowel
// key), since inside katakana words (センター) it is a long vowel.
const HYPHENS = new RegExp(`[${DASH_CHARS.replace('-', '\\-').replace('\u30FC', '')}]`, 'gu');
const LONG_VOWEL_BETWEEN_NUMBERS = new RegExp(
  `(?<=[0-9]|${KANJI_NUMERAL})ー(?=[0-9]|${KANJI_NUMERAL})`,
  'gu',
);
// A kanji numeral is a number when a block/lot marker follows it or a hyphen/marker precedes it;
// elsewhere it is part of a place name (四日市, 八王子, 千代田, 十日町).
// (の is ノ by then: hiragana has been turned into katakana.)
const NUMBER_FOLLOWS = new RegExp(`^(丁目|丁|番地|番|号|地割|条|線|-|ノ[0-9${KANJI_NUMERAL_CHARS}])`, 'u');
const NUMBER_PRECEDES = /(-|丁目|番地|番|条|(?:[0-9]|番地|番)ノ)$/u;
// With 〒 anywhere, or a bare 123-4567 at the very start (an address line read with its postal code).
const POSTAL_CODE = /〒\s*\d{3}-\d{4}|^\s*\d{3}-\d{4}(?!\d)/gu;

/**
 * The comparison form of an address: NFKC (full-width digits → ASCII), spaces and postal codes
 * removed, hiragana → katakana, old kanji folded, ヶ/ケ/が/ガ between kanji → ケ (霞ヶ関 = 霞が関),
 * 大字/字 dropped, kanji numerals in block/lot positions → Arabic, and 丁目/番地/番/号/の → hyphens
 * (1丁目2番3号 → 1-2-3). A hyphen not followed by a digit is dropped.
 */
export function normalizeAddress(text: string): string {
  let s = text.normalize('NFKC');
  s = s.replace(HYPHENS, '-');
  s = s.replace(POSTAL_CODE, '');
  s = s.replace(/\s|\u200B|\u200C|\u200D|\u2060|\uFEFF/gu, '');
  s = s.toUpperCase();
  s = hiraganaToKatakana(s);
  s = s.replace(/(\p{Script=Han})々/gu, '$1$1');
  s = foldKanjiVariants(s);
  s = s.replace(LONG_VOWEL_BETWEEN_NUMBERS, '-');
  s = s.replace(/(?<=\p{Script=Han})[ヶケヵガ](?=\p{Script=Han})/gu, 'ケ');
  // 大字 and 字 introduce a district name and are often left out (大字上野字中原 = 上野中原);
  // 十字 and 文字 are words, not the marker.
  s = s.replace(/大字/gu, '');
  s = s.replace(/(?<=\p{Script=Han})(?<![十文])字(?=[\p{Script=Han}\p{Script=Katakana}])/gu, '');
  s = replaceKanjiNumerals(s, (before, after) => NUMBER_FOLLOWS.test(after) || NUMBER_PRECEDES.test(before));
  s = s.replace(/(\d+)(丁目|番地|番|号)/gu, '$1-');
  s = s.replace(/(?<=[0-9-])ノ(?=\d)/gu, '-'); // 23番地の4, 23の4
  s = s.replace(/-+/gu, '-');
  s = s.replace(/-(?=\D|$)/gu, '');
  return s;
}

/** Splits a normalised address into its leading prefecture (or '') and the rest. */
export function splitPrefecture(normalized: string): { prefecture: string; rest: string } {
  const prefecture = PREFECTURES.find((p) => normalized.startsWith(p)) ?? '';
  return { prefecture, rest: normalized.slice(prefecture.length) };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * interface §2.2: the pre-registered address may be partial. It matches when, after
 * `normalizeAddress`, it is a contiguous part of the OCR address (usually its beginning):
 * - the prefecture may be left out of either; when both have one, they must be equal;
 * - a number is never matched as part of a longer one (1丁目2番 does not match 1-23);
 * - the part must contain more than numbers and hyphens ("1-2" alone says nothing), and an empty
 *   address never matches.
 */
export function isPartialAddressMatch(preRegistered: string, ocr: string): boolean {
  const expected = splitPrefecture(normalizeAddress(preRegistered));
  const actual = splitPrefecture(normalizeAddress(ocr));
  if (expected.prefecture && actual.prefecture && expected.prefecture !== actual.prefecture) return false;
  const part = expected.rest;
  if (part === '') {
    // Only a prefecture was given: it has to be there to be confirmed.
    return expected.prefecture !== '' && expected.prefecture === actual.prefecture;
  }
  if (!/[^0-9-]/u.test(part)) return false;
  const whole = actual.rest;
  for (let i = whole.indexOf(part); i !== -1; i = whole.indexOf(part, i + 1)) {
    const end = i + part.length;
    const startsCleanly = !(isDigit(whole[i - 1]) && isDigit(part[0]));
    const endsCleanly = !(isDigit(whole[end]) && isDigit(part[part.length - 1]));
    if (startsCleanly && endsCleanly) return true;
  }
  return false;
}
