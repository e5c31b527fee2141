// Address against an OCR reading of the document (interface §2.2: the address compared as a partial
// match). OCR misreads a character here and there in a long address — ポ for ボ, 答 for 鴨, a
// stray bracket, the end of the line cut off — and an exact partial match turns each of those into
// a "mismatch" that sends a genuine person to review. The numbers are what tell two addresses
// apart, so they must agree; the words around them may be a few characters off.

import { editsToSubstring } from '../platform/text/edit-distance.ts';
import { isPartialAddressMatch, normalizeAddress, splitPrefecture } from './normalize-address.ts';

/** One edit allowed per this many characters of the expected address (30 characters → 2). */
const CHARS_PER_EDIT = 12;

const numbersOf = (s: string) => s.match(/\d+/gu) ?? [];

/**
 * The expected numbers appear, in order and whole, among the read ones; the last read number may
 * be the expected one's beginning when the reading stops right there (a line cut short).
 */
function numbersAgree(expected: string[], read: string[], readEndsInNumber: boolean): boolean {
  if (expected.length === 0) return true;
  for (let start = 0; start < read.length; start++) {
    const ok = expected.every((n, k) => {
      const r = read[start + k];
      if (r === undefined) return false;
      const isLastRead = start + k === read.length - 1;
      return r === n || (isLastRead && readEndsInNumber && k === expected.length - 1 && n.startsWith(r));
    });
    if (ok) return true;
  }
  return false;
}

/**
 * `expected` (typed or pre-registered, possibly partial) matches the OCR'd `read` address when
 * it is a partial match (isPartialAddressMatch), or when, after normalizeAddress, it differs
 * from a part of the reading by at most one character in twelve while every number agrees.
 */
export function matchesOcrAddress(expected: string, read: string): boolean {
  if (isPartialAddressMatch(expected, read)) return true;
  // Stray marks OCR puts between characters (a bracket in 11}号) would hide the 号 from normalising.
  const clean = (s: string) => normalizeAddress(s.replace(/[^\p{L}\p{N}\p{Pd}ー\s]/gu, ''));
  const e = splitPrefecture(clean(expected));
  const r = splitPrefecture(clean(read));
  if (e.prefecture && r.prefecture && e.prefecture !== r.prefecture) return false;
  // Too short to tell apart from another address once a character may differ.
  if ([...e.rest].length < CHARS_PER_EDIT) return false;
  if (editsToSubstring(e.rest, r.rest) > Math.floor([...e.rest].length / CHARS_PER_EDIT)) return false;
  // A reading cut short may end in only the beginning of the expected last number.
  return numbersAgree(numbersOf(e.rest), numbersOf(r.rest), /\d$/u.test(r.rest));
}
