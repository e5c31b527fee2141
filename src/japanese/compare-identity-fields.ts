// Field-by-field comparison of identity data, for verification.preRegisteredInfoMatch
// (interface §2.7: "its properties are booleans per compared field (lastName, firstName,
// birthDate)") and userInputMatch (per-field booleans after Japanese normalisation).

import { matchesOcrAddress } from './match-ocr-address.ts';
import { normalizeJapaneseText } from './normalize-japanese.ts';
import { parseJapaneseDate } from './parse-japanese-date.ts';

export interface IdentityFields {
  lastName?: string | undefined;
  firstName?: string | undefined;
  /** YYYY-MM-DD, or any form `parseJapaneseDate` reads (an OCR line, 平成2年4月1日…). */
  birthDate?: string | undefined;
  address?: string | undefined;
}

export type IdentityField = keyof IdentityFields;
const FIELDS: readonly IdentityField[] = ['lastName', 'firstName', 'birthDate', 'address'];

export type IdentityFieldComparison = { [K in IdentityField]?: boolean } & {
  /** The compared fields that did not match, in the order lastName, firstName, birthDate, address. */
  mismatchedFields: IdentityField[];
};

const isPresent = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

function isFieldMatch(field: IdentityField, expected: string, actual: string): boolean {
  switch (field) {
    case 'lastName':
    case 'firstName': {
      const e = normalizeJapaneseText(expected);
      return e.length > 0 && e === normalizeJapaneseText(actual);
    }
    case 'birthDate': {
      const e = parseJapaneseDate(expected);
      return e !== undefined && e === parseJapaneseDate(actual);
    }
    case 'address':
      // interface §2.2: "A partial address is acceptable for matching"; a misread character or
      // two in the document's address is not a different address (match-ocr-address.ts).
      return matchesOcrAddress(expected, actual);
  }
}

/**
 * Compares every field present (non-blank) in `expected` with the same field of `actual` (the
 * document as OCR read it): names exactly after `normalizeJapaneseText`, the birth date as a date,
 * the address as a partial match. A field missing from `actual` does not match, unless
 * `unreadIsUnknown` (what the user typed is not contradicted by a value the OCR could not read):
 * then it is left out, as fields absent from `expected` are (there was nothing to compare).
 */
export function compareIdentityFields(
  expected: IdentityFields,
  actual: IdentityFields,
  options: { unreadIsUnknown?: boolean } = {},
): IdentityFieldComparison {
  const result: IdentityFieldComparison = { mismatchedFields: [] };
  for (const field of FIELDS) {
    const e = expected[field];
    if (!isPresent(e)) continue;
    const a = actual[field];
    if (options.unreadIsUnknown && !isPresent(a)) continue;
    const isMatch = isPresent(a) && isFieldMatch(field, e, a);
    result[field] = isMatch;
    if (!isMatch) result.mismatchedFields.push(field);
  }
  return result;
}
