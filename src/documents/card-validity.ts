// When a licence and a My Number card expire, from their holder's birthday: two printed fields of
// the card that check each other, whoever reads them.
//
// The driving licence: 道路交通法 第92条の2 第1項 — the licence is valid "until the day
// on which one month has passed since" the holder's birthday in its last year (since the 2002
// amendment: a birthday of 5月5日 gives 6月5日まで有効). Its 備考 五: for a holder born on 2月29日,
// the birthday in a year that is not a leap year is 2月28日. A birthday whose day the next month
// lacks (1月31日) expires on that month's last day (2月28日, 29日 in a leap year).
//
// The My Number card (番号法 施行規則, 個人番号カードの有効期間): valid until the holder's tenth birthday after
// issue (fifth when under 18 at issue) — but for a foreign resident until the end of the period of
// stay, so on that card a disagreement is no proof of a misread.
const pad = (n: number) => String(n).padStart(2, '0');
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The expiry (YYYY-MM-DD) of a licence whose holder was born on `birthDate` (YYYY-MM-DD), for the
 * birthday in `birthdayYear` (the year of the last birthday of its validity).
 */
export function licenceExpiryFor(birthDate: string, birthdayYear: number): string {
  const month = Number(birthDate.slice(5, 7));
  let day = Number(birthDate.slice(8, 10));
  if (month === 2 && day === 29 && !isLeap(birthdayYear)) day = 28;
  const year = month === 12 ? birthdayYear + 1 : birthdayYear;
  const expiryMonth = month === 12 ? 1 : month + 1;
  return `${year}-${pad(expiryMonth)}-${pad(Math.min(day, daysIn(year, expiryMonth)))}`;
}

/** Whether a licence's printed expiry is the one its printed birth date gives (both YYYY-MM-DD). */
export function licenceExpiryFitsBirthDate(birthDate: string, expiryDate: string): boolean {
  const year = Number(expiryDate.slice(0, 4));
  // A January expiry belongs to the December birthday of the year before.
  const birthdayYear = expiryDate.slice(5, 7) === '01' && birthDate.slice(5, 7) === '12' ? year - 1 : year;
  return licenceExpiryFor(birthDate, birthdayYear) === expiryDate;
}

/**
 * Whether a My Number card's printed expiry falls on a birthday of its holder (both YYYY-MM-DD),
 * as every Japanese national's card does; 2月29日 is 2月28日 in a year that is not a leap year.
 */
export function myNumberExpiryFitsBirthDate(birthDate: string, expiryDate: string): boolean {
  const year = Number(expiryDate.slice(0, 4));
  const birthday = birthDate.slice(5) === '02-29' && !isLeap(year) ? '02-28' : birthDate.slice(5);
  return expiryDate.slice(5) === birthday;
}
