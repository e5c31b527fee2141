// Numbers printed on the documents, in their real formats (docs/corpus.md "Documents").
import type { Random } from './random.ts';

/**
 * My Number check digit (総務省令第八十五号 第五条): with Pn the n-th of the first eleven digits
 * counted from the lowest, Qn = n + 1 for n ≤ 6 and n − 5 for n ≥ 7; r = Σ Pn·Qn mod 11;
 * the check digit is 0 when r ≤ 1, else 11 − r. From the left the weights are 6,5,4,3,2,7,6,5,4,3,2.
 */
export function myNumberCheckDigit(first11: string): number {
  if (!/^\d{11}$/.test(first11)) throw new Error('My Number body must be 11 digits');
  let sum = 0;
  for (let n = 1; n <= 11; n++) {
    const p = Number(first11[11 - n]);
    const q = n <= 6 ? n + 1 : n - 5;
    sum += p * q;
  }
  const r = sum % 11;
  return r <= 1 ? 0 : 11 - r;
}

export function isValidMyNumber(number: string): boolean {
  return /^\d{12}$/.test(number) && myNumberCheckDigit(number.slice(0, 11)) === Number(number[11]);
}

export function generateMyNumber(random: Random): string {
  const body = `${random.int(1, 9)}${random.digits(10)}`;
  return `${body}${myNumberCheckDigit(body)}`;
}

/** A My Number whose last digit is deliberately wrong (attack bad_check_digit). */
export function breakMyNumberCheckDigit(number: string, random: Random): string {
  const right = Number(number[11]);
  const wrong = (right + random.int(1, 9)) % 10;
  return `${number.slice(0, 11)}${wrong}`;
}

/**
 * Driving licence number, 12 digits: 2-digit issuing commission code, 2-digit year of first
 * licence, 6-digit serial, 1 digit, 1-digit reissue count. The eleventh digit is a check digit on
 * real licences but its formula is not published, so it is random here.
 */
export function generateLicenceNumber(random: Random, firstLicensedYear: number): string {
  const commission = random.pick(['30', '31', '32', '40', '45', '50', '51', '62', '63', '67']);
  return `${commission}${String(firstLicensedYear % 100).padStart(2, '0')}${random.digits(7)}${random.int(0, 1)}`;
}

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** Residence card number: two letters, eight digits, two letters (AB12345678CD). */
export function generateResidenceCardNumber(random: Random): string {
  const letter = () => LETTERS[random.int(0, LETTERS.length - 1)] ?? 'A';
  return `${letter()}${letter()}${random.digits(8)}${letter()}${letter()}`;
}

/** Japanese passport number: two letters and seven digits (TK1234567). */
export function generatePassportNumber(random: Random): string {
  return `${random.pick(['TK', 'TR', 'TS', 'MZ', 'TZ', 'TH'])}${random.digits(7)}`;
}
