// Field-aware correction of OCR text (docs/ocr.md): each
// field has a known shape (12 digits, AB12345678CD, an era date...), so characters Tesseract
// confuses (O/0, I/1, S/5, B/8...) are mapped to the class the position must hold, and a value
// that still does not fit its shape is reported as invalid instead of passed on.
import {
  findJapaneseDates,
  PREFECTURES,
  parseJapaneseDate,
  restoreMunicipality,
  restorePrefecture,
  splitByKnownNames,
} from '../../japanese/index.ts';

const restoredPrefecture = (address: string) => restorePrefecture(address, PREFECTURES);

const TO_DIGIT: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  U: '0',
  I: '1',
  l: '1',
  i: '1',
  '|': '1',
  '!': '1',
  ']': '1',
  '[': '1',
  J: '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  B: '8',
  G: '6',
  b: '6',
  T: '7',
  g: '9',
  q: '9',
};
const TO_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '8': 'B',
  '6': 'G',
  '4': 'A',
  '7': 'T',
};

export const toDigit = (c: string): string => (/\d/.test(c) ? c : (TO_DIGIT[c] ?? c));
export const toLetter = (c: string): string => (/[A-Z]/.test(c) ? c : (TO_LETTER[c] ?? c.toUpperCase()));

const ascii = (text: string) => text.normalize('NFKC');

/**
 * The longest run of `length` digit-like characters (spaces inside ignored), mapped to digits.
 * For the licence number (第 123456789012 号) and the My Number (1234 5678 9012).
 */
export function readDigits(text: string, length: number): string | undefined {
  const compact = ascii(text).replace(/\s+/g, '');
  const runs = compact.match(/[0-9OoDQIl|!ZzSsBGbTgq\]]+/g) ?? [];
  const candidates = runs
    .map((run) => [...run].map(toDigit).join(''))
    .filter((run) => run.length >= length)
    .sort((a, b) => Math.abs(a.length - length) - Math.abs(b.length - length));
  const best = candidates[0];
  if (!best) return undefined;
  return best.length === length ? best : undefined;
}

// The My Number check digit is part of the card's definition.
export { isValidMyNumber } from '../../documents/index.ts';

/** Residence card number AB12345678CD: letters, eight digits, letters, by position. */
/** The 12 characters of a residence card number, or extra ones read around it (then ambiguous). */
export function residenceCardNumberLength(text: string): number {
  return ascii(text).replace(/[^0-9A-Za-z|!\]]/g, '').length;
}

export function readResidenceCardNumber(text: string): string | undefined {
  return readNumberOfFormat({ pattern: /^[A-Z]{2}\d{8}[A-Z]{2}$/ }, text);
}

/**
 * The window of `shape.length` characters that fits the shape with the fewest look-alikes
 * corrected, corrected: a stray glyph read before AB12345678CD (SAB12345678CD) makes the first
 * window fit too, but only by turning B into 8 and 8 into B; the window as printed needs none.
 * The first such window on a tie.
 */
function bestWindow(compact: string, shape: string, pattern: RegExp): string | undefined {
  let best: { fixed: string; changes: number } | undefined;
  for (let start = 0; start + shape.length <= compact.length; start++) {
    const chunk = compact.slice(start, start + shape.length);
    const fixed = [...chunk].map((c, i) => (shape[i] === 'L' ? toLetter(c) : toDigit(c))).join('');
    if (!pattern.test(fixed)) continue;
    let changes = 0;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] !== fixed[i]) changes++;
    if (!best || changes < best.changes) best = { fixed, changes };
  }
  return best?.fixed;
}

/**
 * The letters and digits a number's pattern spells, position by position ("LLDDDDDDDDLL"), when
 * the pattern is runs of [A-Z]{n} and \d{n} between ^ and $; undefined for any other pattern.
 */
export function numberShape(pattern: RegExp): string | undefined {
  if (!/^\^((?:\[A-Z\]|\\d)(?:\{\d+\})?)+\$$/.test(pattern.source)) return undefined;
  let shape = '';
  for (const [, kind, count] of pattern.source.matchAll(/(\[A-Z\]|\\d)(?:\{(\d+)\})?/g))
    shape += (kind === '\\d' ? 'D' : 'L').repeat(Number(count ?? 1));
  return shape;
}

/**
 * A number of a declared shape read from a line: a number of digits only as readDigits reads it
 * (the run of digit-like characters that long), one with letters as the first window of that
 * many letters and digits that fits once each position's look-alikes are corrected (O for 0,
 * 8 for B), the fewest corrected of all that fit (bestWindow). A pattern of another form is matched as printed. A declared check rejects the rest.
 */
export function readNumberOfFormat(
  format: { pattern: RegExp; isValid?: (n: string) => boolean },
  text: string,
): string | undefined {
  const shape = numberShape(format.pattern);
  let read: string | undefined;
  if (shape && !shape.includes('L')) read = readDigits(text, shape.length);
  else if (shape) {
    const compact = ascii(text)
      .replace(/[^0-9A-Za-z|!\]]/g, '')
      .toUpperCase();
    read = bestWindow(compact, shape, format.pattern);
  } else {
    const compact = ascii(text).replace(/\s+/g, '');
    read = format.pattern.test(compact) ? compact : undefined;
  }
  return read !== undefined && (format.isValid?.(read) ?? true) ? read : undefined;
}

/** Japanese passport number: two letters and seven digits. */
export function readPassportNumber(text: string): string | undefined {
  return readNumberOfFormat({ pattern: /^[A-Z]{2}\d{7}$/ }, text);
}

const ERA_REPAIRS: [RegExp, string][] = [
  // Era names with one character misread still say which era they are.
  [/(昭.|.和)(?=\s*[0-9０-９元])/u, '昭和'],
  [/(平.|.成)(?=\s*[0-9０-９元])/u, '平成'],
  [/(令.|.和)(?=\s*[0-9０-９元])/u, '令和'],
];

/** 男 or 女 (a residence card adds M. or F.), when the reading holds one and not the other. */
export function readPrintedSex(text: string): 'M' | 'F' | undefined {
  const male = /男|\bM\b/.test(text);
  const female = /女|\bF\b/.test(text);
  if (male === female) return undefined;
  return male ? 'M' : 'F';
}

/**
 * A date as printed on the document (era, Western 年月日, or `14 MAY 1961`), as YYYY-MM-DD.
 * Digits misread as letters are mapped back first; era names with one misread character are
 * restored when the other character and the number after them fit.
 */
export function readPrintedDate(text: string, referenceDate: Date): string | undefined {
  const s = preparePrintedDate(text);
  const direct = parseJapaneseDate(s, { referenceDate });
  if (direct) return direct;
  for (const [pattern, era] of ERA_REPAIRS) {
    if (pattern.test(s)) {
      const repaired = parseJapaneseDate(s.replace(pattern, era), { referenceDate });
      if (repaired) return repaired;
    }
  }
  // Passport style with the month misread: letters only in the month slot.
  const passport = /(\d{1,2})\s*([A-Z0-9]{3})\s*(\d{4})/.exec(s.toUpperCase());
  if (passport) {
    const month = [...(passport[2] ?? '')].map(toLetter).join('');
    return parseJapaneseDate(`${passport[1]} ${month} ${passport[3]}`, { referenceDate });
  }
  return undefined;
}

// What a card prints after its expiry date (まで有効, misread まて有効) and before it (有効期間満了日,
// 有効期限, 満了日, Date of expiry); before an issue or permission date (交付年月日, 許可年月日, Date of issue).
const UNTIL_AFTER = /^\s*(?:ま\s*[でて]|で\s*有|有\s*効)/u;
const EXPIRY_LABEL_BEFORE = /(?:満了|有効期[限間]|expiry|EXPIRY)[^\d]{0,8}$/u;
const ISSUE_LABEL_BEFORE = /(?:交付|許可|発行|issue|ISSUE)[^\d]{0,8}$/u;

/**
 * The expiry date of a line that may hold more than one date: the residence card prints its
 * 交付年月日 and 許可年月日 beside 「このカードは…まで有効です」, the licence 交付 above its 有効期限
 * band. The date the card says it is valid until (…まで有効) wins, then the one after an expiry
 * label; a date after an issue or permission label is never the expiry; else the latest date (a
 * card expires after it is issued). A line with one date reads as readPrintedDate reads it.
 */
export function readExpiryDate(text: string, referenceDate: Date): string | undefined {
  const s = preparePrintedDate(text);
  const found = findJapaneseDates(s, { referenceDate });
  if (found.length <= 1) return readPrintedDate(text, referenceDate);
  const after = (d: (typeof found)[number]) => s.slice(d.index + d.text.length);
  const before = (d: (typeof found)[number]) => s.slice(Math.max(0, d.index - 12), d.index);
  const until = found.find((d) => UNTIL_AFTER.test(after(d)));
  if (until) return until.date;
  const labelled = found.find((d) => EXPIRY_LABEL_BEFORE.test(before(d)));
  if (labelled) return labelled.date;
  const rest = found.filter((d) => !ISSUE_LABEL_BEFORE.test(before(d)));
  return rest
    .map((d) => d.date)
    .sort()
    .at(-1);
}

/** A printed date's text with look-alike digits mapped back and its reading aids removed. */
function preparePrintedDate(text: string): string {
  // 令和09年(2027)10月07日: the Western year in brackets is a reading aid, not part of the date.
  // A licence prints it the other way round, 2024年(令和06年)06月01日: the bracketed era year goes.
  let s = ascii(text)
    .replace(/\(\s*\d{4}\s*\)/g, '')
    .replace(/\(\s*[^()\d\s]{1,3}\s*[0-9OoDQIl|元][0-9OoDQIl|.\s]{0,4}年\s*\)?/g, ' ')
    // …and its 月 and 日, condensed, misread (06朋01H): between a Western year's month and day
    // digits only 月 can stand, after the day only 日.
    .replace(/(\d{4}\s*年\s*\d{1,2})\s*[^\d\s月日年()](?=\s*\d{1,2}\s*[日H])/u, '$1月')
    .replace(/(?<=月\s*\d{1,2})\s*H/u, '日');
  s = s.replace(
    /(?<=[0-9年月日\s(])[OoDQIl|!\]SsBZ](?=[0-9年月日)\s])|(?<=\d)[OoDQIl|!\]SsBZ]|[OoDQIl|!\]SsBZ](?=\d)/g,
    (c) => toDigit(c),
  );
  // Digits of one number read apart (2 0 2 4年, 1 1月): no date prints two numbers side by side.
  return s.replace(/(?<=\d)\s+(?=\d)/g, '');
}

/**
 * An expiry date must lie where a Japanese identity document's can: at most 11 years after the
 * reference date (passports and My Number cards run 10 years) and not decades before it. A reading
 * outside (1934 for 2034) is a misread, not an expired document.
 */
export function isPlausibleExpiryDate(date: string | undefined, referenceDate: Date): boolean {
  if (!date) return false;
  const year = Number(date.slice(0, 4));
  const now = referenceDate.getUTCFullYear();
  return year >= now - 20 && year <= now + 11;
}

/** A birth date must be a real past date within a human lifetime. */
export function isPlausibleBirthDate(date: string | undefined, referenceDate: Date): boolean {
  if (!date) return false;
  const year = Number(date.slice(0, 4));
  return year >= referenceDate.getUTCFullYear() - 120 && date <= referenceDate.toISOString().slice(0, 10);
}

const KANJI_OR_KANA = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+$/u;

/** Surnames of three kanji common enough to be worth knowing when a name has no visible gap. */
const THREE_KANJI_SURNAMES = [
  '長谷川',
  '佐々木',
  '五十嵐',
  '小野寺',
  '久保田',
  '大久保',
  '宇都宮',
  '小笠原',
  '長谷部',
  '寺ノ内',
  '阿久津',
  '大和田',
  '日比野',
  '波多野',
  '小野田',
];

/**
 * Splits a name printed without a separator (the passport's kanji line) into surname and given
 * name: a known three-kanji surname, otherwise the usual two-kanji surname (one when the whole
 * name is two characters).
 */
// Katakana the jpn model returns for the kanji they look like (浩二 → 浩ニ): in a name that is
// otherwise kanji, they are the kanji.
const KATAKANA_AS_KANJI: Record<string, string> = {
  ニ: '二',
  ロ: '口',
  エ: '工',
  カ: '力',
  タ: '夕',
  ト: '卜',
  ハ: '八',
  ー: '一',
};

export function kanjiLookalikes(part: string): string {
  const chars = [...part];
  const hasKanji = chars.some((c) => /\p{Script=Han}/u.test(c));
  const otherKana = chars.some(
    (c) => /\p{Script=Katakana}|\p{Script=Hiragana}/u.test(c) && !KATAKANA_AS_KANJI[c],
  );
  if (!hasKanji || otherKana) return part;
  return chars.map((c) => KATAKANA_AS_KANJI[c] ?? c).join('');
}

export function splitKanjiName(name: string): { lastName: string; firstName: string } {
  const chars = [...kanjiLookalikes(name)];
  if (chars.length <= 1) return { lastName: name, firstName: '' };
  // Where the dictionary knows a part, that part says where the surname ends (勅使河原ひかり,
  // 我如古幸子); a name it knows no part of is cut as most are.
  const known = splitByKnownNames(chars.join(''));
  if (known) return { lastName: known.lastName, firstName: known.firstName };
  let cut = chars.length === 2 ? 1 : 2;
  if (chars.length >= 4 && THREE_KANJI_SURNAMES.includes(chars.slice(0, 3).join(''))) cut = 3;
  return { lastName: chars.slice(0, cut).join(''), firstName: chars.slice(cut).join('') };
}

export interface WordBox {
  text: string;
  x0: number;
  x1: number;
}

/**
 * Surname and given name from a printed name line: the two are separated by a space wider than
 * the gaps between characters, so the widest gap between Tesseract's words is the split.
 */
export function splitNameLine(
  words: readonly WordBox[],
  script: 'kanji' | 'latin',
): { lastName: string; firstName: string } | undefined {
  const clean = words
    .map((w) => ({
      ...w,
      text: ascii(w.text).replace(script === 'latin' ? /[^A-Za-z-]/g : /[\s\p{P}\p{S}\d]/gu, ''),
    }))
    .filter((w) => w.text.length > 0)
    .map((w) => (script === 'latin' ? { ...w, text: w.text.toUpperCase() } : w));
  if (clean.length === 0) return undefined;
  if (clean.length === 1) {
    const only = (clean[0] as WordBox).text;
    return script === 'kanji' ? splitKanjiName(only) : { lastName: only, firstName: '' };
  }
  let split = 1;
  let widest = Number.NEGATIVE_INFINITY;
  const gaps: number[] = [];
  for (let i = 1; i < clean.length; i++) {
    const gap = (clean[i] as WordBox).x0 - (clean[i - 1] as WordBox).x1;
    gaps.push(gap);
    if (gap > widest) {
      widest = gap;
      split = i;
    }
  }
  const join = (ws: WordBox[]) => ws.map((w) => w.text).join(script === 'latin' ? ' ' : '');
  // A licence spreads the name's characters evenly over the line (日 本 花 子): one glyph per word
  // and no gap clearly wider than the others says nothing of where the surname ends.
  const others = gaps.filter((_, i) => i !== split - 1);
  const evenlySpread =
    script === 'kanji' &&
    clean.every((w) => [...w.text].length === 1) &&
    others.length > 0 &&
    widest < 1.2 * Math.max(...others);
  if (evenlySpread) return splitKanjiName(join(clean));
  if (script === 'kanji') {
    const name = { lastName: join(clean.slice(0, split)), firstName: join(clean.slice(split)) };
    return { lastName: kanjiLookalikes(name.lastName), firstName: kanjiLookalikes(name.firstName) };
  }
  // A Latin name is printed surname first (the residence card follows the passport) with single
  // spaces: a gap clearly the widest is the split; where none is, the surname is the first word
  // with the particles that begin a surname (DE LA CRUZ, DOS SANTOS, VAN DIJK). Most residents'
  // surnames are one word (NGUYEN VAN NAM, KIM MIN JUN, SHRESTHA RAM); a long surname without a
  // particle (SILVA SANTOS) is cut after its first word.
  const sorted = [...gaps].sort((a, b) => b - a);
  const clearlyWidest = sorted.length < 2 || widest >= 1.5 * Math.max(1, sorted[1] as number);
  if (!clearlyWidest) {
    split = 1;
    while (split < clean.length - 1 && SURNAME_PARTICLES.has((clean[split - 1] as WordBox).text)) split++;
  }
  return { lastName: join(clean.slice(0, split)), firstName: join(clean.slice(split)) };
}

/** Words that begin a multi-word Latin surname and are never one alone. */
const SURNAME_PARTICLES = new Set([
  'DE',
  'DA',
  'DAS',
  'DO',
  'DOS',
  'DEL',
  'DELA',
  'DELLA',
  'LA',
  'LOS',
  'VAN',
  'VON',
  'DER',
  'DEN',
  'DI',
  'DU',
]);

/** Kanji/kana names of the expected length (each part 1–4 characters). */
export function isPlausibleKanjiName(name: { lastName: string; firstName: string }): boolean {
  const ok = (s: string) => KANJI_OR_KANA.test(s) && [...s].length <= 4;
  return ok(name.lastName) && ok(name.firstName);
}

export function isPlausibleLatinName(name: { lastName: string; firstName: string }): boolean {
  return /^[A-Z][A-Z -]{0,38}$/.test(name.lastName) && /^[A-Z][A-Z -]{0,38}$/.test(name.firstName);
}

/**
 * An address line as read: spaces between Japanese characters dropped (Tesseract puts them
 * between glyphs at random), one space kept before a building name, stray marks at the ends
 * removed, and a mark that looks like 1 read 1 right before 丁目, 番 or 号.
 */
export function cleanAddress(text: string): string {
  let s = ascii(text)
    // An address is one line with at most one space in it (before the building name): what
    // Tesseract reads past a gap three spaces wide is other print beside it.
    .replace(/\s{3,}.*$/u, '')
    // 2－1－2: a dash between numbers read as the long vowel mark or the kanji one (or twice), or
    // as a dot (1451.16: no address prints a decimal).
    .replace(/(?<=\d)\s*(?:[ー一－—–‐\-.・]\s*)+(?=\d)/gu, '-')
    // A 1 read as a look-alike mark where only a number can stand (西新宿+丁目, 3番|号).
    .replace(/(?<![\d+|!\]lI])[+|!\]lI](?=丁目|番|号)/gu, '1')
    .replace(/[|｜]/g, ' ')
    .trim();
  s = s.replace(/(?<=[^\sA-Za-z])\s+(?=[^\sA-Za-z])/gu, (_gap, offset: number) => {
    // Keep the gap after 号 (house number) — the building name follows it on the document.
    const before = s.slice(0, offset);
    return /号$/.test(before) ? ' ' : '';
  });
  // The label 住所 / 住居地, when the crop caught it (no address begins with it).
  const address = restoredPrefecture(
    s
      .replace(/^[^\p{Script=Han}A-Za-z]+/u, '')
      .replace(/^(住所|住居地)[^\p{Script=Han}A-Za-z]*/u, '')
      .replace(/[^\p{L}\p{N}]+$/u, ''),
  );
  const prefecture = PREFECTURES.find((p) => address.startsWith(p));
  return prefecture ? restoreMunicipality(address, prefecture) : address;
}

/**
 * The 政令指定都市: an address in one is printed without its prefecture now and then (the Kanagawa
 * licence specimen prints 横浜市旭区…).
 */
const DESIGNATED_CITIES = [
  '札幌市',
  '仙台市',
  'さいたま市',
  '千葉市',
  '横浜市',
  '川崎市',
  '相模原市',
  '新潟市',
  '静岡市',
  '浜松市',
  '名古屋市',
  '京都市',
  '大阪市',
  '堺市',
  '神戸市',
  '岡山市',
  '広島市',
  '北九州市',
  '福岡市',
  '熊本市',
];

/** True when the address starts with a prefecture or a designated city (all domestic addresses do). */
export function startsWithPrefecture(address: string): boolean {
  return (
    PREFECTURES.some((p) => address.startsWith(p)) || DESIGNATED_CITIES.some((c) => address.startsWith(c))
  );
}

/**
 * Two or three kanji ending 都, 道, 府 or 県, then a municipality: the shape of a prefecture the list
 * does not hold. Specimen cards print 見本県見本市…; a prefecture misread by a glyph keeps the shape.
 */
const PREFECTURE_SHAPED = /^\p{Script=Han}{2,3}[都道府県]\p{Script=Han}{1,5}[市区町村郡]/u;

/**
 * A prefecture (or a name of its shape) first, and no number missing before 丁目, 番 or 号 (丁目番, 番号: the jpn model drops
 * a digit between kanji now and then; on a poor capture it read 魚町1丁目 as 人魚困丁目).
 */
export function isPlausibleAddress(address: string): boolean {
  return (
    (startsWithPrefecture(address) || PREFECTURE_SHAPED.test(address)) &&
    !/(^|[^0-9一二三四五六七八九十])丁目|丁目番|丁目号|番号|^[^0-9]*$/.test(address)
  );
}
