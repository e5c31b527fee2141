// A machine-readable zone (ICAO 9303 Part 4–6: TD3 passports 2×44, TD2 cards 2×36, TD1 cards
// 3×30; Part 7: visas MRV-A 2×44 and MRV-B 2×36): the OCR'd lines are forced into the character
// class each position must hold, check digits then pick among the remaining look-alike readings
// (O/0, I/1, B/8, S/5...) — a character is changed only where a check digit confirms it — and
// `mrz` parses the fields.
import { parse, states } from 'mrz';
import { toDigit, toLetter } from './correct-fields.ts';

/** ICAO 9303 layouts this reader knows. */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';

export interface MrzReading {
  lines: string[];
  /** Set when read by `readMrzLines` (the located zone); the layout reading is TD3. */
  format?: MrzFormat;
  /** P… passport, I/A/C… identity card, V… visa (ICAO 9303 document code, first letter). */
  documentCode?: string;
  issuingState?: string;
  /** All check digits valid (mrz's `valid`). */
  valid: boolean;
  /** Field names whose check digit or format failed. */
  invalidFields: string[];
  documentNumber?: string;
  lastName?: string;
  firstName?: string;
  /** YYMMDD as printed. */
  birthDate?: string;
  expiryDate?: string;
  nationality?: string;
  sex?: string;
  /** Set by the OCR check when the rest of the capture was read below its confidence threshold. */
  poorCapture?: boolean;
  /**
   * The issuing state and nationality codes as the OCR read them, when one was taken for the state
   * an OCR-B look-alike away (`nearestStateCodes`): credibility and doubt go by these (a mended
   * code speaks for a misread, not for a zone; long lines of other print must not pass for one).
   */
  stateCodesAsRead?: string[];
}

const LENGTH = 44;

function tidy(line: string, keepLength = false): string {
  let s = line
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[«‹([{]/g, '<')
    .replace(/[^A-Z0-9<?]/g, '');
  if (keepLength) return s;
  if (s.length > LENGTH) s = s.slice(0, LENGTH);
  return s.padEnd(LENGTH, '<');
}

// TD3 line 2 position classes: n = digit, a = letter or <, x = any.
const LINE2_CLASSES = 'xxxxxxxxxnaaannnnnnnannnnnnnxxxxxxxxxxxxxxnn';

function forceClasses(line1: string, line2: string): [string, string] {
  // Line 1: P, a type letter or <, issuing state, names: letters and fillers only.
  const l1 = [...line1].map((c, i) => (i === 0 ? 'P' : c === '<' ? c : toLetter(c))).join('');
  const l2 = [...line2]
    .map((c, i) => {
      const cls = LINE2_CLASSES[i];
      if (cls === 'n') return c === '<' ? c : toDigit(c);
      if (cls === 'a') return c === '<' ? c : toLetter(c);
      return c;
    })
    .join('');
  return [l1, l2];
}

const LOOKALIKES: Record<string, string[]> = {
  O: ['0'],
  '0': ['O', 'D'],
  D: ['0'],
  I: ['1'],
  '1': ['I'],
  B: ['8'],
  '8': ['B'],
  S: ['5'],
  '5': ['S'],
  Z: ['2'],
  '2': ['Z'],
  G: ['6'],
  '6': ['G'],
};

function checkDigit(value: string): number {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * (weights[i % 3] as number);
  }
  return sum % 10;
}

/** Document number (positions 0–8) with its check digit (9): try one look-alike swap if it fails. */
function repairDocumentNumber(line2: string): string {
  const number = line2.slice(0, 9);
  const check = line2[9] ?? '';
  if (String(checkDigit(number)) === check) return line2;
  // Japanese passports: two letters then seven digits.
  const typed = [...number].map((c, i) => (i < 2 ? toLetter(c) : toDigit(c))).join('');
  if (String(checkDigit(typed)) === check) return typed + line2.slice(9);
  for (let i = 0; i < 9; i++) {
    for (const alt of LOOKALIKES[number[i] as string] ?? []) {
      const candidate = number.slice(0, i) + alt + number.slice(i + 1);
      if (String(checkDigit(candidate)) === check) return candidate + line2.slice(9);
    }
  }
  return line2;
}

/**
 * An extra character read before the nationality (TR09606889 for TR9606889) shifts every later
 * field; when the issuing state sits one place late, drop the character whose removal makes the
 * document number's check digit right.
 */
function realign(line2: string): string {
  const at = line2.indexOf('JPN');
  if (at !== 11) return line2;
  for (let i = 0; i < 10; i++) {
    const candidate = line2.slice(0, i) + line2.slice(i + 1);
    if (String(checkDigit(candidate.slice(0, 9))) === candidate[9]) return candidate;
  }
  return line2;
}

/**
 * Japanese passports leave the personal number empty: 14 fillers, check digit 0, then the
 * composite check digit. A filler dropped or added in that run shifts the two digits, so a tail
 * holding nothing but fillers and at most two digits is rebuilt with its last digit as composite.
 */
function normaliseEmptyPersonalNumber(line2: string): string {
  const tail = line2.slice(28);
  const digits = tail.replace(/</g, '');
  if (line2.length < 29 || digits.length === 0 || digits.length > 2 || !/^\d+$/.test(digits)) return line2;
  if (digits.length === 2 && digits[0] !== '0') return line2;
  return `${line2.slice(0, 28)}${'<'.repeat(14)}0${digits[digits.length - 1]}`;
}

/** Reads TD3 lines from two OCR'd strings; undefined when they cannot be a TD3 MRZ at all. */
export function readMrz(rawLine1: string, rawLine2: string): MrzReading | undefined {
  const t1 = tidy(rawLine1);
  const t2 = tidy(normaliseEmptyPersonalNumber(realign(tidy(rawLine2, true))));
  if (!t1.startsWith('P') && t1.slice(0, 5).indexOf('JPN') < 0) return undefined;
  let [l1, l2] = forceClasses(t1, t2);
  l2 = repairDocumentNumber(l2);
  let result: ReturnType<typeof parse>;
  try {
    result = parse([l1, l2], { autocorrect: true });
  } catch {
    return undefined;
  }
  const f = result.fields;
  return {
    lines: [l1, l2],
    documentCode: l1.slice(0, 2).replace(/<+$/, ''),
    valid: result.valid,
    invalidFields: result.details.filter((d) => !d.valid).map((d) => d.field ?? d.label),
    documentNumber: f.documentNumber ?? undefined,
    lastName: f.lastName ?? undefined,
    firstName: f.firstName ?? undefined,
    birthDate: f.birthDate ?? undefined,
    expiryDate: f.expirationDate ?? undefined,
    nationality: f.nationality ?? undefined,
    sex: f.sex ?? undefined,
  };
}

/** What `mrzFailureKind` reads of a reading (the lines are optional: tests pass only the fields). */
export type MrzVerdictFacts = Pick<MrzReading, 'valid' | 'invalidFields' | 'poorCapture' | 'format'> & {
  lines?: readonly string[];
};

/**
 * Where TD3 line 2 must hold a digit that checks others: the document number's, birth date's and
 * expiry date's check digits and the composite (0-based).
 */
const LINE2_CHECK_DIGITS = [9, 19, 27, 43];

/**
 * What a failed MRZ says. `check_digit`: every field has its format and one field's check digit (or
 * only the composite) disagrees — a line read cleanly whose digits do not add up, the sign of an
 * altered value. `misread`: a field broken in format (a letter where a country code or the sex
 * belongs, an impossible date, a filler where a check digit must stand: the end of the line lost
 * under blur reads `…5<<<<`, and a forger changes a digit, not a digit into `<`) or several check
 * digits failing at once — OCR trouble, which the corpus's genuine passports show under poor
 * capture and which says nothing about the document — and any failure on a capture the OCR could
 * not otherwise read with confidence (`poorCapture`).
 */
export function mrzFailureKind(mrz: MrzVerdictFacts): 'none' | 'misread' | 'check_digit' {
  if (mrz.valid) return 'none';
  if (mrz.poorCapture) return 'misread';
  const digitAt: [number, number][] = mrz.format
    ? CHECKS[mrz.format].filter((c) => c.field !== 'personalNumber').map((c) => c.at)
    : LINE2_CHECK_DIGITS.map((i) => [1, i]);
  if (mrz.lines && digitAt.some(([l, i]) => /[<?]/.test(mrz.lines?.[l]?.[i] ?? ''))) return 'misread';
  const isDigit = (f: string) => f.endsWith('CheckDigit');
  const formatBroken = mrz.invalidFields.some((f) => !isDigit(f));
  const fieldDigits = mrz.invalidFields.filter((f) => isDigit(f) && f !== 'compositeCheckDigit');
  return formatBroken || fieldDigits.length > 1 ? 'misread' : 'check_digit';
}

/**
 * The longest a document of each ICAO 9303 document code (its first letter) is issued for, in
 * years: a passport at most 10 (the issuing states' laws: Japan's Passport Act, the EU's and the
 * US's rules, ICAO's recommendation of at most 10), a visa at most 10 (the longest the US, Japan and
 * the Schengen states issue), an identity card of A, C or I at most 30 (Belgium's card for those
 * over 75, the longest any state prints an expiry for). A two-digit expiry year lies in the
 * hundred years that end that long after the reading date.
 */
export const MAX_VALIDITY_YEARS: Readonly<Record<string, number>> = { P: 10, V: 10, A: 30, C: 30, I: 30 };

/** The longest validity of a document code; an unknown code counts as a card (the longest). */
export function maxValidityYears(documentCode: string | undefined): number {
  return MAX_VALIDITY_YEARS[documentCode?.[0] ?? ''] ?? 30;
}

/**
 * YYMMDD → YYYY-MM-DD, the century placed by what the field is: a birth date is on or before the
 * reading date; an expiry no later than the document type's longest validity after it (a passport
 * read in 2026 whose expiry reads `98` expired in 1998, not in 2098). `referenceDate` is the run's
 * clock (the day of the reading); `documentCode` the MRZ's document code (P, V, I…).
 */
export function mrzDate(
  yymmdd: string,
  kind: 'birth' | 'expiry',
  referenceDate: Date,
  documentCode?: string,
): string | undefined {
  if (!/^\d{6}$/.test(yymmdd)) return undefined;
  const yy = Number(yymmdd.slice(0, 2));
  const mmdd = `${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const today = referenceDate.toISOString().slice(0, 10);
  const refYear = referenceDate.getUTCFullYear();
  let year = Math.floor(refYear / 100) * 100 + yy;
  if (kind === 'birth') {
    if (`${year}-${mmdd}` > today) year -= 100;
  } else {
    // The latest day an expiry can be: the reading date plus the longest validity.
    const latest = `${refYear + maxValidityYears(documentCode)}${today.slice(4)}`;
    if (`${year}-${mmdd}` > latest) year -= 100;
    else if (`${year + 100}-${mmdd}` <= latest) year += 100;
  }
  const iso = `${String(year).padStart(4, '0')}-${mmdd}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

// ── Any issuing state, any of the five layouts ─────────────────────────────────────────────────

/**
 * Character class of each position (ICAO 9303 Part 4 §4.2, Part 5 §4.2, Part 6 §4.2, Part 7):
 * a letter or filler `a`, a digit `n`, a digit or filler `N` (an optional field's check digit), any
 * of A–Z 0–9 < `x`, sex `s`.
 */
const CLASSES: Record<MrzFormat, string[]> = {
  TD3: ['a'.repeat(44), `${'x'.repeat(9)}naaa${'n'.repeat(7)}s${'n'.repeat(7)}${'x'.repeat(14)}Nn`],
  MRVA: ['a'.repeat(44), `${'x'.repeat(9)}naaa${'n'.repeat(7)}s${'n'.repeat(7)}${'x'.repeat(16)}`],
  TD2: ['a'.repeat(36), `${'x'.repeat(9)}naaa${'n'.repeat(7)}s${'n'.repeat(7)}${'x'.repeat(7)}n`],
  MRVB: ['a'.repeat(36), `${'x'.repeat(9)}naaa${'n'.repeat(7)}s${'n'.repeat(7)}${'x'.repeat(8)}`],
  TD1: [
    `aaaaa${'x'.repeat(9)}N${'x'.repeat(15)}`,
    `${'n'.repeat(7)}s${'n'.repeat(7)}aaa${'x'.repeat(11)}n`,
    'a'.repeat(30),
  ],
};

/** [line, start, end) ranges a check digit covers, and where the digit stands. */
interface CheckedRange {
  field: string;
  ranges: [number, number, number][];
  at: [number, number];
}

const SHARED_LINE2: CheckedRange[] = [
  { field: 'documentNumber', ranges: [[1, 0, 9]], at: [1, 9] },
  { field: 'birthDate', ranges: [[1, 13, 19]], at: [1, 19] },
  { field: 'expirationDate', ranges: [[1, 21, 27]], at: [1, 27] },
];

const CHECKS: Record<MrzFormat, CheckedRange[]> = {
  TD3: [
    ...SHARED_LINE2,
    { field: 'personalNumber', ranges: [[1, 28, 42]], at: [1, 42] },
    {
      field: 'composite',
      ranges: [
        [1, 0, 10],
        [1, 13, 20],
        [1, 21, 43],
      ],
      at: [1, 43],
    },
  ],
  TD2: [
    ...SHARED_LINE2,
    {
      field: 'composite',
      ranges: [
        [1, 0, 10],
        [1, 13, 20],
        [1, 21, 35],
      ],
      at: [1, 35],
    },
  ],
  MRVA: SHARED_LINE2,
  MRVB: SHARED_LINE2,
  TD1: [
    { field: 'documentNumber', ranges: [[0, 5, 14]], at: [0, 14] },
    { field: 'birthDate', ranges: [[1, 0, 6]], at: [1, 6] },
    { field: 'expirationDate', ranges: [[1, 8, 14]], at: [1, 14] },
    {
      field: 'composite',
      ranges: [
        [0, 5, 30],
        [1, 0, 7],
        [1, 8, 15],
        [1, 18, 29],
      ],
      at: [1, 29],
    },
  ],
};

const LENGTHS: Record<MrzFormat, number> = { TD3: 44, MRVA: 44, TD2: 36, MRVB: 36, TD1: 30 };

/** The OCR-B glyphs Tesseract confuses, both ways (the check digit decides). */
const CONFUSIONS: Record<string, string> = {
  O: '0DQ',
  '0': 'ODQ',
  D: '0O',
  Q: '0O',
  I: '1L',
  '1': 'I',
  L: '1I4<',
  B: '8',
  '8': 'B',
  S: '5',
  '5': 'S',
  // OCR-B's Z is a 7 with a foot bar, which a small print blurs away.
  Z: '27',
  '2': 'Z',
  G: '6',
  '6': 'G',
  T: '7',
  '7': 'TZ',
  A: '4',
  '4': 'A',
  U: 'V0',
  V: 'U',
  K: '<X',
  C: '<',
  X: 'K<',
  '<': 'KCL',
};

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGIT_CHARS = '0123456789';
const ALL = `${LETTERS}${DIGIT_CHARS}<`;

function fits(c: string, cls: string): boolean {
  if (cls === 'n') return /\d/.test(c);
  if (cls === 'N') return /[\d<]/.test(c);
  if (cls === 'a') return /[A-Z<]/.test(c);
  if (cls === 's') return /[MFX<]/.test(c);
  return /[A-Z0-9<]/.test(c);
}

/** The three-letter code (nationality) a line-2 position belongs to, or ''. */
function codeAround(line: string, i: number): string {
  const starts = line.length === 30 ? [15] : [10];
  const start = starts.find((a) => i >= a && i < a + 3);
  return start === undefined ? '' : line.slice(start, start + 3);
}

/** A character put into its position's class; `?` (nothing read there) stays. */
function force(c: string, cls: string, line = '', i = -1): string {
  if (c === '?' || fits(c, cls)) return c;
  // A code printed in digits (a state code some cards print as a number, `132`) stays as printed.
  if (cls === 'a' && /\d/.test(c) && /^\d{3}$/.test(codeAround(line, i))) return c;
  // A letter no digit looks like, where only a digit can stand: nothing was read there.
  if ((cls === 'n' || cls === 'N') && !/\d/.test(toDigit(c))) return '?';
  if (cls === 'n' || cls === 'N') return toDigit(c);
  if (cls === 'a') return toLetter(c);
  if (cls === 's') return SEX_LOOKALIKES[c] ?? c;
  return c;
}

/**
 * The sex field holds F, M, X or a filler and nothing else (Part 4 §4.2.2, Part 5/6): a glyph read
 * there that is none of them is the one of the four it looks like in OCR-B.
 */
const SEX_LOOKALIKES: Record<string, string> = {
  '0': 'M',
  O: 'M',
  N: 'M',
  H: 'M',
  W: 'M',
  E: 'F',
  P: 'F',
  R: 'F',
  K: '<',
  C: '<',
  L: '<',
};

/** OCR-B capitals Tesseract takes for one another on a small or blurred zone (state codes). */
const LETTER_LOOKALIKES: Record<string, string> = {
  M: 'NHW',
  N: 'MHW',
  H: 'NM',
  W: 'MN',
  O: 'DQC',
  D: 'OB',
  Q: 'OG',
  C: 'GO',
  G: 'CQ',
  U: 'VW',
  V: 'UY',
  I: 'LTJ',
  L: 'I',
  T: 'IY',
  J: 'I',
  E: 'FB',
  F: 'EP',
  B: 'ERS',
  P: 'FR',
  R: 'PBK',
  K: 'XR',
  X: 'KY',
  Y: 'VX',
  S: 'ZB',
  Z: 'S',
};

/**
 * A state code no state has (Part 3 §5: the codes are a closed list) that is one OCR-B look-alike
 * away from exactly one state's code is that state's (`MZL` for `NZL`); a code several states'
 * codes are one glyph from, or none, stays as read.
 */
function nearestStateCodes(lines: string[], format: MrzFormat): string[] {
  const at: [number, number][] = [[0, 2], format === 'TD1' ? [1, 15] : [1, 10]];
  const out = [...lines];
  for (const [l, i] of at) {
    const line = out[l] ?? '';
    const code = line.slice(i, i + 3);
    if (code.length !== 3 || isKnownState(code) || !/^[A-Z<]{3}$/.test(code)) continue;
    const near = new Set<string>();
    [...code].forEach((c, j) => {
      for (const alt of LETTER_LOOKALIKES[c] ?? '') {
        const candidate = code.slice(0, j) + alt + code.slice(j + 1);
        if (isKnownState(candidate)) near.add(candidate);
      }
    });
    if (near.size === 1) out[l] = line.slice(0, i) + [...near][0] + line.slice(i + 3);
  }
  return out;
}

function checkOf(lines: string[], check: CheckedRange): { value: string; digit: string } {
  const value = check.ranges.map(([l, a, b]) => (lines[l] ?? '').slice(a, b)).join('');
  return { value, digit: lines[check.at[0]]?.[check.at[1]] ?? '' };
}

function holds(lines: string[], check: CheckedRange): boolean {
  const { value, digit } = checkOf(lines, check);
  if (value.includes('?') || digit === '?') return false;
  // An empty optional field may carry a filler for its check digit (Part 4 §4.2.2.2).
  if (digit === '<') return check.field === 'personalNumber' && /^<*$/.test(value);
  return String(checkDigit(value)) === digit;
}

/** Positions a check covers, the digit's own included. */
function positionsOf(check: CheckedRange): [number, number][] {
  const out: [number, number][] = [];
  for (const [l, a, b] of check.ranges) for (let i = a; i < b; i++) out.push([l, i]);
  out.push(check.at);
  return out;
}

/**
 * Makes one check hold by changing at most `budget` characters to a look-alike in their class
 * (or anything in the class where nothing was read): the change is taken only when one set of
 * fewest changes does it — a check digit confirms a correction, never picks among equals.
 */
function repairCheck(lines: string[], check: CheckedRange, classes: string[], budget: number): string[] {
  if (holds(lines, check)) return lines;
  const positions = positionsOf(check);
  const options = positions.map(([l, i]) => {
    const line = lines[l] ?? '';
    const c = line[i] ?? '?';
    const cls = classes[l]?.[i] ?? 'x';
    // A filler between fillers, or between a filler and the field's end, stays one (as
    // `fillerRuns` has it: no field holds a lone letter inside its run of fillers, and fields are
    // left-aligned, their unused end all fillers).
    const range = check.ranges.find(([rl, a, b]) => rl === l && i >= a && i < b);
    const at = (j: number) => (range && j >= range[1] && j < range[2] ? line[j] : '<');
    const inRun = c === '<' && at(i - 1) === '<' && at(i + 1) === '<';
    const pool = c === '?' ? ALL : inRun ? '' : (CONFUSIONS[c] ?? '');
    return [...new Set([...pool].filter((alt) => alt !== c && fits(alt, cls)))];
  });
  const unknown = positions.filter(([l, i]) => lines[l]?.[i] === '?').length;
  if (unknown > budget) return lines;
  const set = (src: string[], [l, i]: [number, number], c: string) =>
    src.map((line, k) => (k === l ? line.slice(0, i) + c + line.slice(i + 1) : line));
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  // A change that makes the character match both its neighbours' kind (a digit among digits,
  // a letter among letters) is the likelier misreading: it costs less.
  const cost = (p: number, alt: string) => {
    const [l, i] = positions[p] as [number, number];
    const line = lines[l] ?? '';
    const around = [line[i - 1], line[i + 1]].filter((c) => c !== undefined && c !== '<' && c !== '?');
    const same = around.length > 0 && around.every((c) => isDigit(c) === isDigit(alt));
    return same ? 0.6 : 1;
  };
  // Every set of at most `budget` changes that makes the check hold, with its cost.
  const found: { lines: string[]; cost: number }[] = [];
  const unknownAt = positions.map(([l, i]) => lines[l]?.[i] === '?');
  const walk = (from: number, left: number, current: string[], spent: number) => {
    if (found.length > 200) return;
    const rest = unknownAt.slice(from).some(Boolean);
    if (!rest && spent > 0 && holds(current, check)) found.push({ lines: current, cost: spent });
    if (left === 0) return;
    for (let p = from; p < positions.length; p++) {
      for (const alt of options[p] as string[])
        walk(p + 1, left - 1, set(current, positions[p] as [number, number], alt), spent + cost(p, alt));
      // An unknown position must change.
      if (unknownAt[p]) return;
    }
  };
  walk(0, budget, lines, 0);
  if (found.length === 0) return lines;
  found.sort((a, b) => a.cost - b.cost);
  const [first, second] = found;
  if (second && Math.abs(second.cost - (first as { cost: number }).cost) < 1e-9) return lines;
  return (first as { lines: string[] }).lines;
}

/**
 * Look-alike letters inside a run of digits (`S0DD2O68` for `S0002068`) read as the digits the
 * run holds, in one step — taken only if the check digit then holds.
 */
function digitiseRuns(lines: string[], check: CheckedRange): string[] {
  if (holds(lines, check)) return lines;
  // A document number often opens with letters: its first one or two characters may stay.
  for (const keep of [0, 1, 2]) {
    const out = [...lines];
    for (const [l, a, b] of check.ranges) {
      const line = out[l] ?? '';
      const head = line.slice(a, a + keep);
      const field = line
        .slice(a + keep, b)
        .replace(/[ODQIZSBG](?=[ODQIZSBG]*\d)|(?<=\d[ODQIZSBG]*)[ODQIZSBG]/g, (c) => toDigit(c));
      out[l] = line.slice(0, a) + head + field + line.slice(b);
    }
    if (holds(out, check)) return out;
  }
  return lines;
}

/**
 * A look-alike (C, L, K, X) standing among fillers is a filler: `<<CL<L<` is a run of fillers
 * read unevenly (no name or number holds a lone C between fillers in an empty field's run).
 */
function fillerRuns(line: string, from: number): string {
  return (
    line.slice(0, from) +
    line.slice(from).replace(/<[<CLKX]*</g, (run) => {
      const fillers = run.split('').filter((c) => c === '<').length;
      return fillers >= 0.6 * run.length ? '<'.repeat(run.length) : run;
    })
  );
}

/**
 * Part 4 §4.6: the primary identifier (surname) and the secondary ones are parted by `<<`. A
 * names field with no `<<` before its trailing fillers lost one of them to a look-alike: of a
 * lone `<`, the neighbour that looks like a filler (S, K, L, C, E, X, Z) was it, when only one does.
 */
function nameSeparator(line: string, from: number): string {
  const names = line.slice(from).replace(/<+$/, '');
  if (names.includes('<<')) return line;
  const lone = [...names.matchAll(/(?<=[A-Z])<(?=[A-Z])/g)].map((m) => from + (m.index ?? 0));
  const candidates = lone.flatMap((i) => [i - 1, i + 1].filter((j) => /[SKLCEXZ]/.test(line[j] ?? '')));
  if (candidates.length !== 1) return line;
  const j = candidates[0] as number;
  return `${line.slice(0, j)}<${line.slice(j + 1)}`;
}

/** The names field ends in fillers: look-alikes (C, L, K, X, E) among trailing fillers are fillers. */
function trailingFillers(line: string, from: number): string {
  let start = line.length;
  while (start > from && /[<CLKXE]/.test(line[start - 1] as string)) start--;
  // The run starts at a filler (the last name's own last letter stays).
  while (start < line.length && line[start] !== '<') start++;
  const run = line.slice(start);
  const fillers = run.split('').filter((c) => c === '<').length;
  return fillers >= 0.4 * run.length ? line.slice(0, start) + '<'.repeat(run.length) : line;
}

/** A state code (Part 3 §5), fillers dropped: ICAO's list as `mrz` carries it, and Utopia, the specimens' state. */
export const isKnownState = (code: string) => {
  if (!/^[A-Z]{1,3}<*$/.test(code)) return false;
  const bare = code.replace(/<+$/, '');
  return bare === 'UTO' || Object.hasOwn(states, bare);
};

/** The issuing state and nationality codes as printed (three characters, fillers kept). */
export function stateCodesOf(reading: Pick<MrzReading, 'lines' | 'format' | 'stateCodesAsRead'>): string[] {
  if (reading.stateCodesAsRead) return reading.stateCodesAsRead;
  const [l0 = '', l1 = ''] = reading.lines;
  return [l0.slice(2, 5), reading.format === 'TD1' ? l1.slice(15, 18) : l1.slice(10, 13)];
}

/**
 * The issuing state and the holder's nationality are the same code on most documents, so one
 * code misread is restored from the other where the other reads cleanly and they agree on every
 * other position: a code read with a filler before a letter (`<WN`: codes end in fillers, `D<<`,
 * so a glyph was lost there), or a code no state has one glyph off a state's (`EAN` beside `CAN`).
 * Two codes that differ elsewhere, or two states' codes, stay as read.
 */
function mendStateCodes(lines: string[], format: MrzFormat): string[] {
  const at: [number, number][] = [[0, 2], format === 'TD1' ? [1, 15] : [1, 10]];
  const codes = at.map(([l, i]) => lines[l]?.slice(i, i + 3) ?? '');
  const lost = (code: string, i: number) => code[i] === '<' && /[A-Z]/.test(code.slice(i + 1));
  const out = [...lines];
  codes.forEach((code, k) => {
    const other = codes[1 - k] ?? '';
    if (!/^[A-Z]+<*$/.test(other) || other.length !== 3) return;
    const differ = [...code].map((c, i) => c !== other[i]);
    const count = differ.filter(Boolean).length;
    const unknownBesideKnown = count === 1 && !isKnownState(code) && isKnownState(other);
    if (count === 0 || !(unknownBesideKnown || differ.every((d, i) => !d || lost(code, i)))) return;
    const [l, i] = at[k] as [number, number];
    const line = out[l] ?? '';
    out[l] = line.slice(0, i) + other + line.slice(i + 3);
  });
  return out;
}

/** The layout a set of OCR'd lines has, by their count, lengths and document code. */
export function mrzFormatOf(lines: string[]): MrzFormat | undefined {
  if (lines.length === 3) return 'TD1';
  if (lines.length !== 2) return undefined;
  const length = Math.max(...lines.map((l) => l.length));
  const visa = lines[0]?.[0] === 'V';
  if (length >= 40) return visa ? 'MRVA' : 'TD3';
  if (length >= 33) return visa ? 'MRVB' : 'TD2';
  return undefined;
}

/** Fillers run out to the line's end: the names field, after its last name, is all fillers. */
function fitLength(line: string, length: number): string {
  if (line.length === length) return line;
  if (line.length > length) {
    // Extra characters read in a run of fillers (`<K<` for `<<`): drop fillers from the longest run.
    let s = line;
    while (s.length > length) {
      const runs = [...s.matchAll(/<{2,}/g)].sort((a, b) => b[0].length - a[0].length);
      const run = runs[0];
      if (!run || run.index === undefined) return s.slice(0, length);
      s = s.slice(0, run.index) + s.slice(run.index + 1);
    }
    return s;
  }
  return line.padEnd(length, '<');
}

/**
 * Reads MRZ lines (as OCR'd, `?` where nothing was read) of any of the five layouts; undefined
 * when they have none of their shapes. `valid`: every check digit holds.
 */
export function readMrzLines(
  rawLines: string[],
  format = mrzFormatOf(rawLines.map((l) => tidy(l, true))),
  /** Per line, the OCR's own character per position (the lines may take fillers from glyph shapes). */
  readAs?: string[],
): MrzReading | undefined {
  if (!format) return undefined;
  const classes = CLASSES[format];
  const length = LENGTHS[format];
  let lines = rawLines.map((raw, l) => {
    const fitted = fitLength(tidy(raw, true).replace(/[^A-Z0-9<?]/g, ''), length);
    return [...fitted].map((c, i) => force(c, classes[l]?.[i] ?? 'x', fitted, i)).join('');
  });
  if (lines.length !== classes.length) return undefined;
  // Where a filler cannot stand — the document code's first letter, a state code before its
  // last letter (`D<<` ends in fillers, never starts with one) — the OCR's letter is taken.
  const top = lines[0] ?? '';
  const alt = readAs?.[0];
  if (alt && alt.length === top.length) {
    const fixed = [...top].map((c, i) => {
      const letter = /[A-Z]/.test(alt[i] ?? '') ? (alt[i] as string) : undefined;
      if (c !== '<' || !letter) return c;
      if (i === 0) return letter;
      if (i >= 2 && i <= 4 && /[A-Z]/.test(top.slice(i + 1, 5))) return letter;
      return c;
    });
    lines[0] = fixed.join('');
  }
  // The first letter of a TD3 not read: Part 4 prints P there (a passport), the only document of
  // that size.
  if (format === 'TD3' && lines[0]?.[0] === '?') lines[0] = `P${lines[0].slice(1)}`;
  // Nothing read in a name: the glyph Tesseract drops is the filler.
  lines = lines.map((line, l) =>
    [...line].map((c, i) => (c === '?' && classes[l]?.[i] === 'a' && (l > 0 || i > 0) ? '<' : c)).join(''),
  );
  lines = mendStateCodes(lines, format);
  const asRead = stateCodesOf({ lines, format });
  lines = nearestStateCodes(lines, format);
  const mended = stateCodesOf({ lines, format }).some((c, i) => c !== asRead[i]);
  const nameLine = format === 'TD1' ? 2 : 0;
  lines[nameLine] = trailingFillers(lines[nameLine] ?? '', format === 'TD1' ? 0 : 5);
  lines = lines.map((line, l) => fillerRuns(line, l === 0 ? 5 : 0));
  lines[nameLine] = nameSeparator(lines[nameLine] ?? '', format === 'TD1' ? 0 : 5);
  const checks = CHECKS[format];
  // Field checks first (each alone), then the composite over what they fixed.
  const forced = lines;
  const composite = checks.find((c) => c.field === 'composite');
  for (const check of checks) {
    if (check.field === 'composite') continue;
    const unknown = positionsOf(check).filter(([l, i]) => lines[l]?.[i] === '?').length;
    // More than two glyphs not read: a check digit cannot restore them (nor bound the search).
    if (unknown <= 2) lines = repairCheck(digitiseRuns(lines, check), check, classes, Math.max(1, unknown));
  }
  // A field's own digit passes one wrong change in ten: where a composite digit covers the fields,
  // their corrections stand only if it confirms them too.
  if (composite && lines !== forced && !holds(lines, composite) && holds(forced, composite)) lines = forced;
  // The composite also covers fields without a digit of their own (TD1 optional data): it corrects
  // them only when every field's own digit holds — a reading with a failing field is invalid
  // whatever the composite says, and a change it made there would be a guess (one in ten holds).
  const fieldsHold = checks.every((c) => c === composite || holds(lines, c));
  if (composite && fieldsHold && !holds(lines, composite)) {
    const fixed = repairCheck(lines, composite, classes, 1);
    // Taken only when every field check still holds.
    if (checks.every((c) => c === composite || holds(fixed, c))) lines = fixed;
  }
  // A composite that still fails leaves the reading invalid: it is reported as read (in its
  // characters' classes), not with changes no second digit confirmed — a misprinted check digit
  // must not be "corrected" into a made-up document number.
  if (composite && !holds(lines, composite)) lines = forced;
  const failing = checks
    .filter((c) => !holds(lines, c))
    .map((c) => (c.field === 'composite' ? 'compositeCheckDigit' : c.field));
  const code = lines[0]?.slice(0, 2).replace(/<+$/, '') ?? '';
  const reading: MrzReading = {
    lines,
    format,
    valid: failing.length === 0 && !lines.some((l) => l.includes('?')),
    invalidFields: failing,
    documentCode: code,
    ...(mended ? { stateCodesAsRead: asRead } : {}),
  };
  // Field values: `mrz` where it knows the layout (not visas, whose first letter it refuses).
  const names = format === 'TD1' ? lines[2] : lines[0]?.slice(5);
  const [last = '', first = ''] = (names ?? '').split('<<');
  reading.lastName = last.replace(/<+/g, ' ').trim() || undefined;
  reading.firstName = first.replace(/<+/g, ' ').trim() || undefined;
  if (format === 'TD1') {
    reading.issuingState = lines[0]?.slice(2, 5).replace(/</g, '');
    reading.documentNumber = lines[0]?.slice(5, 14).replace(/</g, '');
    reading.birthDate = lines[1]?.slice(0, 6);
    reading.sex = sexOf(lines[1]?.[7]);
    reading.expiryDate = lines[1]?.slice(8, 14);
    reading.nationality = lines[1]?.slice(15, 18).replace(/</g, '');
  } else {
    reading.issuingState = lines[0]?.slice(2, 5).replace(/</g, '');
    reading.documentNumber = lines[1]?.slice(0, 9).replace(/</g, '');
    reading.nationality = lines[1]?.slice(10, 13).replace(/</g, '');
    reading.birthDate = lines[1]?.slice(13, 19);
    reading.sex = sexOf(lines[1]?.[20]);
    reading.expiryDate = lines[1]?.slice(21, 27);
  }
  if (format === 'TD1' || format === 'TD2' || format === 'TD3') {
    try {
      const parsed = parse(lines);
      // The state codes and other format rules `mrz` checks: reported, not a check-digit failure.
      for (const d of parsed.details)
        if (
          !d.valid &&
          d.field &&
          !d.field.endsWith('CheckDigit') &&
          !reading.invalidFields.includes(d.field)
        )
          reading.invalidFields.push(d.field);
      if (parsed.fields.lastName) reading.lastName = parsed.fields.lastName;
      if (parsed.fields.firstName) reading.firstName = parsed.fields.firstName;
      if (parsed.documentNumber) reading.documentNumber = parsed.documentNumber;
    } catch {
      // Lines `mrz` cannot take at all are still reported as read.
    }
  }
  return reading;
}

function sexOf(c: string | undefined): string | undefined {
  return c === 'M' ? 'male' : c === 'F' ? 'female' : c === '<' || c === 'X' ? 'nonspecified' : undefined;
}

/** A merge of several readings of one zone (`mergeMrzReadings`). */
export interface MergedMrzReading {
  reading: MrzReading;
  /**
   * Every position agreed on: each field a check digit covers given alike by every reading in which
   * its check holds, and every other character read alike by a majority of the readings, none read
   * otherwise by more than one.
   */
  agreed: boolean;
}

/**
 * Several OCR passes over one zone (other scales, another engine) merged position by position: a
 * field with its own check digit is taken from the passes in which that check holds (the most of
 * them giving it alike), every other character by majority among the passes that read one there.
 * The merged lines are then read as any lines are (`readMrzLines`: classes, check digits, the
 * composite), so a field two passes hold differently — a check digit passing by chance on one —
 * only stands if the composite confirms it. Readings of another layout than the most common are
 * left out. Undefined when none is given.
 */
export function mergeMrzReadings(readings: readonly MrzReading[]): MergedMrzReading | undefined {
  const formats = readings.map((r) => r.format).filter((f): f is MrzFormat => !!f);
  const format = [...new Set(formats)].sort(
    (a, b) => formats.filter((f) => f === b).length - formats.filter((f) => f === a).length,
  )[0];
  if (!format) return undefined;
  const same = readings.filter((r) => r.format === format);
  if (same.length === 1) return { reading: same[0] as MrzReading, agreed: false };
  const length = LENGTHS[format];
  const lineCount = CLASSES[format].length;
  const merged = Array.from({ length: lineCount }, () => new Array<string>(length).fill('?'));
  const taken = Array.from({ length: lineCount }, () => new Array<boolean>(length).fill(false));
  let agreed = true;
  // Fields with their own check digit (the composite is checked, not voted, after).
  for (const check of CHECKS[format]) {
    if (check.field === 'composite') continue;
    const positions = positionsOf(check);
    const fieldOf = (r: MrzReading) => positions.map(([l, i]) => r.lines[l]?.[i] ?? '?').join('');
    const holding = same.filter((r) => holds(r.lines, check)).map(fieldOf);
    if (holding.length === 0) continue;
    const best = mostCommon(holding);
    if (new Set(holding).size > 1) agreed = false;
    positions.forEach(([l, i], j) => {
      (merged[l] as string[])[i] = best[j] as string;
      (taken[l] as boolean[])[i] = true;
    });
  }
  // Every other character by majority.
  for (let l = 0; l < lineCount; l++)
    for (let i = 0; i < length; i++) {
      if (taken[l]?.[i]) continue;
      const votes = same.map((r) => r.lines[l]?.[i] ?? '?').filter((c) => c !== '?');
      if (votes.length === 0) {
        agreed = false;
        continue;
      }
      const best = mostCommon(votes);
      const support = votes.filter((c) => c === best).length;
      if (support * 2 <= same.length || votes.length - support > 1) agreed = false;
      (merged[l] as string[])[i] = best;
    }
  const reading = readMrzLines(
    merged.map((line) => line.join('')),
    format,
  );
  if (!reading) return undefined;
  return { reading, agreed: agreed && reading.valid };
}

/** The most common of some strings, the first given on a tie. */
function mostCommon(values: readonly string[]): string {
  let best = values[0] as string;
  let count = 0;
  for (const v of values) {
    const n = values.filter((w) => w === v).length;
    if (n > count) {
      best = v;
      count = n;
    }
  }
  return best;
}
