// Calendar dates as Japanese documents print them. Dates are plain 'YYYY-MM-DD' strings in the
// truth; no Date objects with time zones, so output does not depend on the machine's clock or TZ.

export type IsoDate = string;

const ERAS = [
  { name: '令和', start: '2019-05-01', firstYear: 2019 },
  { name: '平成', start: '1989-01-08', firstYear: 1989 },
  { name: '昭和', start: '1926-12-25', firstYear: 1926 },
] as const;

export function parseIsoDate(date: IsoDate): { year: number; month: number; day: number } {
  const [y, m, d] = date.split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) throw new Error(`bad date ${date}`);
  return { year: y, month: m, day: d };
}

export function isoDate(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Add whole years, keeping month and day (29 Feb becomes 28 Feb when needed). */
export function addYears(date: IsoDate, years: number): IsoDate {
  const { year, month, day } = parseIsoDate(date);
  return isoDate(year + years, month, Math.min(day, daysInMonth(year + years, month)));
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const { year, month, day } = parseIsoDate(date);
  const t = new Date(Date.UTC(year, month - 1, day + days));
  return isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Era name and year for a date, e.g. 1990-04-01 → { era: '平成', year: 2 }. */
export function toEra(date: IsoDate): { era: string; year: number } {
  const { year } = parseIsoDate(date);
  for (const era of ERAS) {
    if (date >= era.start) return { era: era.name, year: year - era.firstYear + 1 };
  }
  throw new Error(`date before Shōwa: ${date}`);
}

/** 平成2年4月1日 (元年 for the first year), the form licences and My Number cards print. */
export function formatEraDate(date: IsoDate, options: { padded?: boolean } = {}): string {
  const { month, day } = parseIsoDate(date);
  const { era, year } = toEra(date);
  const pad = (n: number) => (options.padded ? String(n).padStart(2, '0') : String(n));
  return `${era}${year === 1 ? '元' : pad(year)}年${pad(month)}月${pad(day)}日`;
}

/** 1990年04月01日, the Western form residence cards print. */
export function formatWesternDate(date: IsoDate): string {
  const { year, month, day } = parseIsoDate(date);
  return `${year}年${String(month).padStart(2, '0')}月${String(day).padStart(2, '0')}日`;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** 01 APR 1990, the passport form. */
export function formatPassportDate(date: IsoDate): string {
  const { year, month, day } = parseIsoDate(date);
  return `${String(day).padStart(2, '0')} ${MONTHS[month - 1]} ${year}`;
}
