// ICAO Doc 9303 part 4: the two 44-character machine readable lines of a TD3 passport.
import { type IsoDate, parseIsoDate } from './japanese-date.ts';

const WEIGHTS = [7, 3, 1];

/** ICAO 9303 check digit: 0-9 as themselves, A-Z as 10-35, '<' as 0, weights 7,3,1 repeating. */
export function mrzCheckDigit(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '<';
    let v = 0;
    if (c >= '0' && c <= '9') v = c.charCodeAt(0) - 48;
    else if (c >= 'A' && c <= 'Z') v = c.charCodeAt(0) - 55;
    else if (c !== '<') throw new Error(`not an MRZ character: ${c}`);
    sum += v * (WEIGHTS[i % 3] ?? 1);
  }
  return sum % 10;
}

function field(text: string, length: number): string {
  const cleaned = text.toUpperCase().replace(/[^A-Z0-9]+/g, '<');
  return cleaned.slice(0, length).padEnd(length, '<');
}

function yymmdd(date: IsoDate): string {
  const { year, month, day } = parseIsoDate(date);
  return `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

export type PassportMrzInput = {
  issuingState: string;
  lastName: string;
  firstName: string;
  passportNumber: string;
  nationality: string;
  birthDate: IsoDate;
  sex: 'M' | 'F';
  expiryDate: IsoDate;
};

/** The two TD3 lines with every check digit right. */
export function passportMrz(input: PassportMrzInput): [string, string] {
  const surname = field(input.lastName, 39).replace(/<+$/, '');
  const given = field(input.firstName, 39).replace(/<+$/, '');
  const names = `${surname}<<${given}`.slice(0, 39).padEnd(39, '<');
  const line1 = `P<${field(input.issuingState, 3)}${names}`;
  const number = field(input.passportNumber, 9);
  const birth = yymmdd(input.birthDate);
  const expiry = yymmdd(input.expiryDate);
  const personal = field('', 14);
  const numberPart = `${number}${mrzCheckDigit(number)}`;
  const birthPart = `${birth}${mrzCheckDigit(birth)}`;
  const expiryPart = `${expiry}${mrzCheckDigit(expiry)}`;
  const personalPart = `${personal}${mrzCheckDigit(personal)}`;
  const composite = mrzCheckDigit(`${numberPart}${birthPart}${expiryPart}${personalPart}`);
  const line2 = `${numberPart}${field(input.nationality, 3)}${birthPart}${input.sex}${expiryPart}${personalPart}${composite}`;
  return [line1, line2];
}

/** Change the passport-number check digit (line 2, position 10) to a wrong value. */
export function breakMrzCheckDigit(lines: [string, string], offset: number): [string, string] {
  const [line1, line2] = lines;
  const right = Number(line2[9]);
  const wrong = (right + 1 + (offset % 9)) % 10;
  return [line1, `${line2.slice(0, 9)}${wrong}${line2.slice(10)}`];
}
