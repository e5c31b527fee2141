// A passport's machine-readable zone (ICAO 9303 TD3, two lines of 44): the OCR'd lines are
// forced into the character class each position must hold, check digits then pick among the
// remaining look-alike readings (O/0, I/1, B/8, S/5...), and `mrz` parses and validates the result.
import { parse } from 'mrz';
import { toDigit, toLetter } from './correct-fields.ts';

export interface MrzReading {
  lines: [string, string];
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
}

const LENGTH = 44;

function tidy(line: string, keepLength = false): string {
  let s = line
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[«‹([{]/g, '<')
    .replace(/[^A-Z0-9<]/g, '');
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
export type MrzVerdictFacts = Pick<MrzReading, 'valid' | 'invalidFields' | 'poorCapture'> & {
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
  const line2 = mrz.lines?.[1];
  if (line2 && LINE2_CHECK_DIGITS.some((i) => line2[i] === '<')) return 'misread';
  const isDigit = (f: string) => f.endsWith('CheckDigit');
  const formatBroken = mrz.invalidFields.some((f) => !isDigit(f));
  const fieldDigits = mrz.invalidFields.filter((f) => isDigit(f) && f !== 'compositeCheckDigit');
  return formatBroken || fieldDigits.length > 1 ? 'misread' : 'check_digit';
}

/** YYMMDD → YYYY-MM-DD: birth dates in the past, expiry dates in the nearest century. */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', referenceDate: Date): string | undefined {
  if (!/^\d{6}$/.test(yymmdd)) return undefined;
  const yy = Number(yymmdd.slice(0, 2));
  const mmdd = `${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const refYear = referenceDate.getUTCFullYear();
  const century = Math.floor(refYear / 100) * 100;
  let year = century + yy;
  if (kind === 'birth') {
    if (`${year}-${mmdd}` > referenceDate.toISOString().slice(0, 10)) year -= 100;
  } else if (year < refYear - 50) year += 100;
  const iso = `${year}-${mmdd}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}
