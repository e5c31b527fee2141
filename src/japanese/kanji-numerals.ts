// Kanji numerals → numbers, for addresses (一丁目, 二十三番) and dates (平成二年四月一日).

const DIGITS: Readonly<Record<string, number>> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };

/** The characters `parseKanjiNumber` reads, as a regex character class body. */
export const KANJI_NUMERAL_CHARS = '〇零一二三四五六七八九十百千万';

/**
 * Reads a kanji numeral: positional ("二〇二三" → 2023, "一〇" → 10) or with units
 * ("二十三" → 23, "十" → 10, "千九百九十" → 1990, "三万" → 30000). Returns undefined for anything
 * that is not entirely a kanji numeral.
 */
export function parseKanjiNumber(text: string): number | undefined {
  if (text.length === 0) return undefined;
  const chars = [...text];
  if (!chars.every((c) => KANJI_NUMERAL_CHARS.includes(c))) return undefined;
  if (chars.every((c) => c in DIGITS)) {
    return Number(chars.map((c) => DIGITS[c]).join(''));
  }
  let total = 0;
  let section = 0; // value below 万
  let digit: number | undefined;
  for (const c of chars) {
    const d = DIGITS[c];
    const unit = UNITS[c];
    if (d !== undefined) {
      if (digit !== undefined) return undefined; // "二三十": two digits in a row with units is not a number
      digit = d;
    } else if (unit !== undefined) {
      section += (digit ?? 1) * unit;
      digit = undefined;
    } else {
      // 万
      total += (section + (digit ?? 0) || 1) * 10000;
      section = 0;
      digit = undefined;
    }
  }
  return total + section + (digit ?? 0);
}

const RUN = new RegExp(`[${KANJI_NUMERAL_CHARS}]+`, 'gu');

/**
 * Replaces kanji numeral runs with Arabic digits, but only where `isNumericContext(before, after)`
 * says the run is a number (so 四日市 or 八王子 stay as they are).
 */
export function replaceKanjiNumerals(
  text: string,
  isNumericContext: (before: string, after: string) => boolean,
): string {
  return text.replace(RUN, (run, offset: number) => {
    const before = text.slice(0, offset);
    const after = text.slice(offset + run.length);
    if (!isNumericContext(before, after)) return run;
    const value = parseKanjiNumber(run);
    return value === undefined ? run : String(value);
  });
}
