// Numbers printed on the documents, in their real formats (docs/corpus.md "Documents").
import { licenceCheckDigit } from '../documents/index.ts';
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

// The public safety commissions' codes, the licence number's first two digits (北海道 by its five
// areas: 10 札幌 and 11–14 函館, 旭川, 釧路, 北見).
const COMMISSION_CODES: Readonly<Record<string, readonly string[]>> = {
  北海道: ['10', '11', '12', '13', '14'],
  青森県: ['20'],
  岩手県: ['21'],
  宮城県: ['22'],
  秋田県: ['23'],
  山形県: ['24'],
  福島県: ['25'],
  東京都: ['30'],
  茨城県: ['40'],
  栃木県: ['41'],
  群馬県: ['42'],
  埼玉県: ['43'],
  千葉県: ['44'],
  神奈川県: ['45'],
  新潟県: ['46'],
  山梨県: ['47'],
  長野県: ['48'],
  静岡県: ['49'],
  富山県: ['50'],
  石川県: ['51'],
  福井県: ['52'],
  岐阜県: ['53'],
  愛知県: ['54'],
  三重県: ['55'],
  滋賀県: ['60'],
  京都府: ['61'],
  大阪府: ['62'],
  兵庫県: ['63'],
  奈良県: ['64'],
  和歌山県: ['65'],
  鳥取県: ['70'],
  島根県: ['71'],
  岡山県: ['72'],
  広島県: ['73'],
  山口県: ['74'],
  徳島県: ['80'],
  香川県: ['81'],
  愛媛県: ['82'],
  高知県: ['83'],
  福岡県: ['90'],
  佐賀県: ['91'],
  長崎県: ['92'],
  熊本県: ['93'],
  大分県: ['94'],
  宮崎県: ['95'],
  鹿児島県: ['96'],
  沖縄県: ['97'],
};

/**
 * Driving licence number, 12 digits, as the classic corpus draws it (its committed sample and
 * fixtures are made with it): a commission code, the year of the first licence, 7 random digits
 * and a reissue digit: the eleventh is no check digit.
 */
export function generateLicenceNumber(random: Random, firstLicensedYear: number): string {
  const commission = random.pick(['30', '31', '32', '40', '45', '50', '51', '62', '63', '67']);
  return `${commission}${String(firstLicensedYear % 100).padStart(2, '0')}${random.digits(7)}${random.int(0, 1)}`;
}

/**
 * Driving licence number, 12 digits, as issued (the validation corpus): the code of the commission
 * that first licensed the holder (mostly the prefecture they live in, now and then another), the
 * year of that first licence, a 6-digit serial, the check digit (licenceCheckDigit, src/documents)
 * and the reissue count.
 */
export function generateIssuedLicenceNumber(
  random: Random,
  firstLicensedYear: number,
  prefecture?: string,
): string {
  const own = prefecture ? COMMISSION_CODES[prefecture] : undefined;
  const codes = own && random.chance(0.8) ? own : Object.values(COMMISSION_CODES).flat();
  const body = `${random.pick(codes)}${String(firstLicensedYear % 100).padStart(2, '0')}${random.digits(6)}`;
  return `${body}${licenceCheckDigit(body)}${random.chance(0.9) ? 0 : random.int(1, 2)}`;
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
