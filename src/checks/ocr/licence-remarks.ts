// The licence back's 備考: a commission that records a change of address prints it on a row there,
// as its 記載要領 sets out — the date of the notice, 新住所, the address (the commission's own
// prefecture often left out), and the receiving commission by its short name (令和5年4月1日 新住所
// 鳥取市東町一丁目271番地 鳥取公委). The front is never reprinted: the last such row is where the
// holder lives now.
import { PREFECTURES, prefectureOfMunicipality, prefectureShortName } from '../../japanese/index.ts';
import { cleanAddress, isPlausibleAddress } from './correct-fields.ts';

const NEW_ADDRESS = /新?住所/u;

/**
 * The receiving commission at the row's end: a prefecture's short name, then 公委, one of the two
 * glyphs perhaps misread or unread (広島公租, 青森公).
 */
const COMMISSIONS = PREFECTURES.map((prefecture) => ({
  prefecture,
  at: new RegExp(`${prefectureShortName(prefecture)}(?:公.?|.委)$`, 'u'),
}));

function commissionAtEnd(row: string): { prefecture?: string; rest: string } {
  const trimmed = row.trimEnd();
  for (const { prefecture, at } of COMMISSIONS) {
    const found = at.exec(trimmed);
    if (found) return { prefecture, rest: trimmed.slice(0, found.index) };
  }
  return { rest: trimmed };
}

/** The address a 備考 row records as the holder's new one, whole (with its prefecture), or undefined. */
export function addressOfRemark(text: string): string | undefined {
  const at = NEW_ADDRESS.exec(text);
  if (!at) return undefined;
  const { prefecture: commission, rest } = commissionAtEnd(text.slice(at.index + at[0].length));
  let address = cleanAddress(rest);
  if (!PREFECTURES.some((p) => address.startsWith(p))) {
    const prefecture = commission ?? prefectureOfMunicipality(address, PREFECTURES);
    // Cleaned again whole: a municipality misread by a glyph is restored once its prefecture is known.
    if (prefecture) address = cleanAddress(prefecture + address);
  }
  return isPlausibleAddress(address) ? address : undefined;
}

/** The address the last change of address in the 備考 block's reading records (rows newest last). */
export function addressOfRemarks(text: string): string | undefined {
  for (const row of text.split('\n').reverse()) {
    const address = addressOfRemark(row);
    if (address) return address;
  }
  return undefined;
}
