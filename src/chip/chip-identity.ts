// The identity fields of a chip's MRZ (DG1) in the forms the rest of mimoto compares: names as the
// MRZ spells them (ICAO 9303 Part 3 §4.6: the primary and secondary identifiers, '<' between
// names read as a space), dates as YYYY-MM-DD. The MRZ gives two-digit years: a birth year is the
// latest not in the future, an expiry year within the century from 2000 (a passport is valid for
// at most ten years, so no current document expired before 2000).
import type { ChipMrz } from './lds.ts';

export interface ChipIdentity {
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  expiryDate?: string;
  documentNumber?: string;
}

function mrzDate(yymmdd: string | null, century: (yy: number) => number): string | undefined {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return undefined;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const year = century(yy) + yy;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

const names = (value: string | null) => value?.replace(/</g, ' ').replace(/\s+/g, ' ').trim() || undefined;

export function chipIdentity(mrz: ChipMrz, now: Date): ChipIdentity {
  const thisYear = now.getUTCFullYear() % 100;
  const birthDate = mrzDate(mrz.birthDate, (yy) => (yy > thisYear ? 1900 : 2000));
  const expiryDate = mrzDate(mrz.expiryDate, () => 2000);
  const lastName = names(mrz.lastName);
  const firstName = names(mrz.firstName);
  const documentNumber = mrz.documentNumber?.replace(/</g, '') || undefined;
  return {
    ...(lastName ? { lastName } : {}),
    ...(firstName ? { firstName } : {}),
    ...(birthDate ? { birthDate } : {}),
    ...(expiryDate ? { expiryDate } : {}),
    ...(documentNumber ? { documentNumber } : {}),
  };
}
