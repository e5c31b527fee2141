// The authority that issues a card is the one where its holder lives: a driving licence comes from
// the public safety commission of the holder's prefecture (福岡県公安委員会), a My Number card from
// the mayor of the holder's municipality (相模原市長). A later move is endorsed elsewhere (the
// licence's back, the My Number card's margin) and the printed address stays, so on a genuine card
// the printed address lies in the issuer's area. One elsewhere is a value re-typed after issue.
import { PREFECTURES, splitPrefecture } from '../../japanese/index.ts';
import type { DocumentType } from './document-regions.ts';

/** A place name's characters: kanji, and the kana some names are written in (さいたま市, ニセコ町, 鎌ケ谷市). */
const PLACE = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]`;
const ISSUING_MAYOR = new RegExp(`^(${PLACE}{1,10}[市区町村])長$`, 'u');
const LEADING_MUNICIPALITY = new RegExp(`^${PLACE}+?[市区町村]`, 'u');

/**
 * The area an issuer line names — a prefecture for a licence, a municipality (with its 市・区・町・
 * 村) for a My Number card — or undefined when the line does not read as exactly that.
 */
export function issuerArea(type: DocumentType, text: string): string | undefined {
  const s = text.replace(/\s+/gu, '');
  if (type === 'drivers_license') {
    const prefecture = /^(.+)公安委員会$/u.exec(s)?.[1];
    return PREFECTURES.find((p) => p === prefecture);
  }
  if (type === 'my_number_card') return ISSUING_MAYOR.exec(s)?.[1];
  return undefined;
}

/**
 * Whether an address as read lies outside an issuer's area in a way a misread does not explain:
 * another prefecture (both read as one of the 47 names), or a municipality sharing no character
 * with the issuer's (a misread changes a glyph or two; 京都市左京区 is the city's, issued by 京都市長).
 */
export function addressOutsideArea(type: DocumentType, address: string, area: string): boolean {
  const { prefecture, rest } = splitPrefecture(address.replace(/\s+/gu, ''));
  if (!prefecture) return false;
  if (type === 'drivers_license') return prefecture !== area;
  if (rest.startsWith(area)) return false;
  const town = LEADING_MUNICIPALITY.exec(rest)?.[0];
  if (!town) return false;
  const name = (s: string) => [...s.slice(0, -1)];
  const issuerChars = new Set(name(area));
  return !name(town).some((c) => issuerChars.has(c));
}
