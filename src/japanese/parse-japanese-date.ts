// Dates as printed on Japanese identity documents → YYYY-MM-DD (interface §2.2 and §2.6:
// birthDate "Format YYYY-MM-DD"; Japanese eras converted).
//
// Read: 平成2年4月1日 (and 平成元年…, kanji numerals 平成二年四月一日, spaces anywhere),
// H2.4.1 / S63.12.31 / R5.1.1 (also with / or -), 1990年4月1日, 1990/04/01, 1990.4.1, 1990-04-01,
// 19900401 (alone), and passport style 01 APR 1990 / 01APR90 / 01 APR/AVR 1990.
// Only real calendar dates inside their era are accepted: 平成31年5月1日 (Reiwa had begun),
// 令和元年4月30日 (not yet Reiwa) and 2月30日 are rejected.

import { replaceKanjiNumerals } from './kanji-numerals.ts';

export interface JapaneseEra {
  name: '明治' | '大正' | '昭和' | '平成' | '令和';
  /** The Latin initial used in abbreviated dates (H2.4.1). */
  letter: 'M' | 'T' | 'S' | 'H' | 'R';
  /** First day of the era, Gregorian. */
  start: string;
}

/**
 * Era start dates (Gregorian). Each era ends the day before the next begins: 昭和64年1月7日 is the
 * last day of Shōwa and 平成元年1月8日 the first of Heisei. Meiji dates before 明治6年 (1873) were
 * printed in the lunisolar calendar; they are read as if Gregorian (no living person has one).
 */
export const JAPANESE_ERAS: readonly JapaneseEra[] = [
  { name: '明治', letter: 'M', start: '1868-10-23' },
  { name: '大正', letter: 'T', start: '1912-07-30' },
  { name: '昭和', letter: 'S', start: '1926-12-25' },
  { name: '平成', letter: 'H', start: '1989-01-08' },
  { name: '令和', letter: 'R', start: '2019-05-01' },
];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

export interface ParseDateOptions {
  /**
   * How a two-digit year (01APR90) is completed. 'past' (default, for birth dates): the latest
   * such date not after `referenceDate`. 'nearest' (for expiry dates): the century that puts it
   * closest to `referenceDate`.
   */
  twoDigitYear?: 'past' | 'nearest';
  /** Default: now. */
  referenceDate?: Date;
}

export interface FoundDate {
  /** YYYY-MM-DD */
  date: string;
  /** The matched text, after NFKC. */
  text: string;
  /** Where it was found in the NFKC form of the input. */
  index: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const iso = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** True for a real Gregorian calendar date (no 2月30日, 29 Feb only in leap years). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function eraByNameOrLetter(token: string): { era: JapaneseEra; next: JapaneseEra | undefined } | undefined {
  const upper = token.toUpperCase();
  const i = JAPANESE_ERAS.findIndex((e) => e.name === token || e.letter === upper);
  const era = JAPANESE_ERAS[i];
  return era ? { era, next: JAPANESE_ERAS[i + 1] } : undefined;
}

function eraDate(eraToken: string, eraYear: number, month: number, day: number): string | undefined {
  const found = eraByNameOrLetter(eraToken);
  if (!found || eraYear < 1) return undefined;
  const year = Number(found.era.start.slice(0, 4)) + eraYear - 1;
  if (!isCalendarDate(year, month, day)) return undefined;
  const date = iso(year, month, day);
  // ISO strings of the same width compare like dates.
  if (date < found.era.start) return undefined;
  if (found.next && date >= found.next.start) return undefined;
  return date;
}

function gregorianDate(year: number, month: number, day: number): string | undefined {
  if (year < 1868 || year > 2199) return undefined;
  return isCalendarDate(year, month, day) ? iso(year, month, day) : undefined;
}

function completeTwoDigitYear(yy: number, month: number, day: number, options: ParseDateOptions): number {
  const reference = options.referenceDate ?? new Date();
  const refIso = reference.toISOString().slice(0, 10);
  const refYear = reference.getUTCFullYear();
  const century = Math.floor(refYear / 100) * 100;
  if (options.twoDigitYear === 'nearest') {
    const candidates = [century - 100 + yy, century + yy, century + 100 + yy];
    return candidates.reduce((best, y) => (Math.abs(y - refYear) < Math.abs(best - refYear) ? y : best));
  }
  const thisCentury = century + yy;
  return iso(thisCentury, month, day) <= refIso ? thisCentury : thisCentury - 100;
}

// After NFKC and kanji-numeral conversion. Separators between parts: 年/月, ".", "/", "-", with
// optional spaces (documents pad single digits with a space: 平成 2年 4月 1日).
const SEP = String.raw`\s*[./\-]\s*`;
const ERA_KANJI = String.raw`(明治|大正|昭和|平成|令和)\s*(\d{1,2}|元)\s*(?:年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日|[./\-]\s*(\d{1,2})${SEP}(\d{1,2}))`;
const ERA_LETTER = String.raw`(?<![A-Za-z])([MTSHRmtshr])\s*\.?\s*(\d{1,2})(?:\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日|${SEP}(\d{1,2})${SEP}(\d{1,2}))(?!\d)`;
const GREGORIAN = String.raw`(?<!\d)(\d{4})(?:\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日|${SEP}(\d{1,2})${SEP}(\d{1,2})(?!\d))`;
const PASSPORT = String.raw`(?<!\d)(\d{1,2})\s*(${MONTHS.join('|')})(?:\s*/\s*[A-Z]{3,4})?\s*(\d{4}|\d{2})(?!\d)`;
const DATE_PATTERN = new RegExp(`${ERA_KANJI}|${ERA_LETTER}|${GREGORIAN}|${PASSPORT}`, 'giu');

function prepare(text: string): string {
  const s = text.normalize('NFKC');
  // 平成二年四月一日 → 平成2年4月1日; only numerals right before 年/月/日 are numbers here.
  return replaceKanjiNumerals(s, (_before, after) => /^\s*[年月日]/u.test(after));
}

function matchToDate(m: RegExpExecArray, options: ParseDateOptions): string | undefined {
  const n = (i: number) => Number(m[i]);
  if (m[1] !== undefined) {
    const year = m[2] === '元' ? 1 : n(2);
    return m[3] !== undefined ? eraDate(m[1], year, n(3), n(4)) : eraDate(m[1], year, n(5), n(6));
  }
  if (m[7] !== undefined) {
    return m[9] !== undefined ? eraDate(m[7], n(8), n(9), n(10)) : eraDate(m[7], n(8), n(11), n(12));
  }
  if (m[13] !== undefined) {
    return m[14] !== undefined ? gregorianDate(n(13), n(14), n(15)) : gregorianDate(n(13), n(16), n(17));
  }
  if (m[18] !== undefined && m[19] !== undefined && m[20] !== undefined) {
    const month = MONTHS.indexOf(m[19].toUpperCase() as (typeof MONTHS)[number]) + 1;
    const day = n(18);
    let year = n(20);
    if (m[20].length === 2) {
      if (!isCalendarDate(2000, month, day)) return undefined; // 2000 is a leap year: checks 29 FEB loosely
      year = completeTwoDigitYear(year, month, day, options);
    }
    return gregorianDate(year, month, day);
  }
  return undefined;
}

/**
 * Every date in the text that reads as a real date, in order (an OCR line may hold an issue
 * date and an expiry date). Candidates that look like dates but are not real ones are skipped.
 */
export function findJapaneseDates(text: string, options: ParseDateOptions = {}): FoundDate[] {
  const s = prepare(text);
  const found: FoundDate[] = [];
  for (const m of s.matchAll(DATE_PATTERN)) {
    const date = matchToDate(m, options);
    if (date) found.push({ date, text: m[0], index: m.index });
  }
  return found;
}

/**
 * The first date written in the text, as YYYY-MM-DD, or undefined when there is none or the first
 * date-like text is not a real date (平成31年5月1日, 2月30日): an impossible date on a document is
 * a finding, not something to skip past. A bare 8-digit string is read as YYYYMMDD.
 */
export function parseJapaneseDate(text: string, options: ParseDateOptions = {}): string | undefined {
  const s = prepare(text);
  const compact = /^\s*(\d{4})(\d{2})(\d{2})\s*$/u.exec(s);
  if (compact) return gregorianDate(Number(compact[1]), Number(compact[2]), Number(compact[3]));
  DATE_PATTERN.lastIndex = 0;
  const m = DATE_PATTERN.exec(s);
  DATE_PATTERN.lastIndex = 0;
  return m ? matchToDate(m, options) : undefined;
}

function toParts(date: string | Date): { year: number; month: number; day: number } {
  if (date instanceof Date) {
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(date);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  }
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** The era and era year of a Gregorian date (undefined before Meiji). */
export function toJapaneseEra(date: string | Date): { era: JapaneseEra; year: number } | undefined {
  const { year, month, day } = toParts(date);
  const d = iso(year, month, day);
  for (let i = JAPANESE_ERAS.length - 1; i >= 0; i--) {
    const era = JAPANESE_ERAS[i] as JapaneseEra;
    if (d >= era.start) return { era, year: year - Number(era.start.slice(0, 4)) + 1 };
  }
  return undefined;
}

export interface FormatEraDateOptions {
  /** 'kanji' (default): 平成2年4月1日. 'letter': H2.4.1. */
  style?: 'kanji' | 'letter';
  /** Two-digit year, month and day (平成02年04月01日, H02.04.01), as some documents print them. */
  padded?: boolean;
  /** Write year 1 as 元年 in the kanji style (default true). */
  gannen?: boolean;
}

/** A Gregorian date written the way Japanese documents print it (for the document generator). */
export function formatJapaneseEraDate(date: string | Date, options: FormatEraDateOptions = {}): string {
  const { month, day } = toParts(date);
  const era = toJapaneseEra(date);
  if (!era) throw new RangeError(`no Japanese era before ${JAPANESE_ERAS[0]?.start}`);
  const p = (n: number) => (options.padded ? pad(n) : String(n));
  if (options.style === 'letter') return `${era.era.letter}${p(era.year)}.${p(month)}.${p(day)}`;
  const year = era.year === 1 && options.gannen !== false ? '元' : p(era.year);
  return `${era.era.name}${year}年${p(month)}月${p(day)}日`;
}

/** Passport style (ICAO 9303 visual zone): 01 APR 1990. */
export function formatPassportDate(date: string | Date): string {
  const { year, month, day } = toParts(date);
  return `${pad(day)} ${MONTHS[month - 1]} ${pad(year, 4)}`;
}
