// Old (旧字体) and variant (異体字) kanji forms mapped to the form most people type today.
//
// Why: identity documents print a name or address in the registered form (髙橋, 山﨑, 渡邊),
// while a tenant's database or the user's keyboard usually has the common form (高橋, 山崎,
// 渡辺). Matching (interface §2.2, §2.7 preRegisteredInfoMatch / userInputMatch) must treat them as
// the same. The folding is applied to both sides, so it never has to be reversible.
//
// Only characters NFKC leaves alone are listed: NFKC already maps most CJK compatibility
// ideographs (e.g. U+FA10 塚 → 塚), but not the twelve "unified" ones in that block
// (﨑 U+FA11, 﨔, 﨡, …), nor ordinary old forms like 澤 or 邊, which are separate characters.
//
// Some pairs are, strictly, distinct registered characters (斉 and 斎 are different surnames in
// the family register). They are folded anyway: documents, OCR and keyboards confuse them
// constantly, and a match here is a consistency check, not proof of identity.

/** variant → common form. Keep grouped by common form, one line each. */
export const KANJI_VARIANTS: Readonly<Record<string, string>> = Object.freeze({
  // 高 (はしごだか)
  髙: '高',
  // 崎 (たつさき, やまさき)
  '\uFA11': '崎', // 﨑
  嵜: '崎',
  碕: '崎',
  // 辺
  邊: '辺',
  邉: '辺',
  // 斎 (see the note above on 斉)
  齋: '斎',
  齊: '斎',
  斉: '斎',
  // 沢, 浜, 広, 国, 桜, 蔵, 徳, 恵
  澤: '沢',
  濱: '浜',
  濵: '浜',
  廣: '広',
  國: '国',
  櫻: '桜',
  藏: '蔵',
  德: '徳',
  惠: '恵',
  // 島
  嶋: '島',
  嶌: '島',
  // 富, 真, 実, 栄, 竜, 滝
  冨: '富',
  眞: '真',
  實: '実',
  榮: '栄',
  龍: '竜',
  瀧: '滝',
  // 吉 (つちよし, U+20BB7, outside the BMP)
  '\u{20BB7}': '吉',
  // 条, 万, 与, 弥, 黒, 円, 浅, 関, 県, 区, 渋, 会, 学, 寿, 鉄, 桑, 館, 橋, 野, 村, 礼
  條: '条',
  萬: '万',
  與: '与',
  彌: '弥',
  黑: '黒',
  圓: '円',
  淺: '浅',
  關: '関',
  縣: '県',
  區: '区',
  澁: '渋',
  會: '会',
  學: '学',
  壽: '寿',
  鐵: '鉄',
  桒: '桑',
  舘: '館',
  槗: '橋',
  埜: '野',
  邨: '村',
  禮: '礼',
  // 渕 (淵 is the traditional form)
  淵: '渕',
  // 篭, 灯, 亀
  籠: '篭',
  燈: '灯',
  龜: '亀',
  // 桧/檜, 鴎/鷗, 祢/禰, 蛍/螢, 槙/槇
  檜: '桧',
  鷗: '鴎',
  禰: '祢',
  螢: '蛍',
  槇: '槙',
});

// 埼 (埼玉) is deliberately absent: it is not a form of 崎.
const VARIANT_PATTERN = new RegExp(`[${Object.keys(KANJI_VARIANTS).join('')}]`, 'gu');

/** Replaces every listed variant kanji with its common form (see KANJI_VARIANTS). */
export function foldKanjiVariants(text: string): string {
  return text.replace(VARIANT_PATTERN, (c) => KANJI_VARIANTS[c] ?? c);
}
