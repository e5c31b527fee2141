// Telling the document type on one rectified card: its printed title, the official licence's
// vertical title, a passport's MRZ band, else a type's own number or phrase where its layout
// prints it.
import { DOCUMENT_DEFINITIONS, type DocumentDefinition, MY_NUMBER_CARD } from '../../documents/index.ts';
import { readDigits, readResidenceCardNumber } from './correct-fields.ts';
import {
  CARD_LAYOUT,
  DOCUMENT_TYPES,
  type DocumentType,
  FRONT_FIELDS,
  LICENCE_TITLE_VERTICAL,
  PASSPORT_LAYOUT,
  type Region,
  TITLE_STRIP,
} from './document-regions.ts';
import type { GreyImage } from './find-document.ts';
import { PAGE_SEGMENTATION } from './ocr-engine.ts';
import { round2 } from './ocr-result.ts';
import type { Engines } from './read-budget.ts';
import { MRZ_CHARS, readRegion } from './read-region.ts';
import { readVertical } from './read-vertical.ts';

/** Longest common subsequence of the keyword within a window of the text, over the keyword length. */
function keywordScore(text: string, keyword: string): number {
  const t = [...text.normalize('NFKC').replace(/\s+/g, '').toUpperCase()];
  const k = [...keyword];
  let best = 0;
  for (let start = 0; start < Math.max(1, t.length - 1); start++) {
    const window = t.slice(start, start + k.length + 2);
    const dp = Array.from({ length: k.length + 1 }, () => new Array<number>(window.length + 1).fill(0));
    for (let i = 1; i <= k.length; i++)
      for (let j = 1; j <= window.length; j++)
        (dp[i] as number[])[j] =
          k[i - 1] === window[j - 1]
            ? ((dp[i - 1] as number[])[j - 1] as number) + 1
            : Math.max((dp[i - 1] as number[])[j] as number, (dp[i] as number[])[j - 1] as number);
    best = Math.max(best, ((dp[k.length] as number[])[window.length] as number) / k.length);
  }
  return best;
}

/** The types whose title is printed across the card, read in the title strip (the licence's is vertical). */
const TITLED_ACROSS: readonly DocumentDefinition[] = Object.values(DOCUMENT_DEFINITIONS).filter(
  (d) => !d.titleRegion.vertical,
);

/**
 * The type whose printed title the title strip's text names best, and how well (0–1): the title
 * and its distinctive part scored together (カード ends two titles), or any other wording alone.
 * The first of equally good types wins.
 */
export function titleMatch<T extends string>(
  text: string,
  definitions: readonly DocumentDefinition<T>[],
): { type?: T; confidence: number } {
  let best: { type?: T; confidence: number } = { confidence: 0 };
  for (const { type, titleWords } of definitions) {
    const [full, distinctive, ...others] = titleWords;
    if (full === undefined) continue;
    const score = Math.max(
      (keywordScore(text, distinctive ?? full) + keywordScore(text, full)) / 2,
      ...others.map((word) => keywordScore(text, word)),
      0,
    );
    if (score > best.confidence) best = { type, confidence: score };
  }
  return best;
}

export interface Classification {
  type?: DocumentType;
  /** The title strip was read with confidence (so an unknown title means another kind of card). */
  readable?: boolean;
  /** Nothing on the card named its type: it is read as the type the user chose (a poor capture). */
  assumed?: boolean;
  confidence: number;
  evidence: string;
}

/** The type's own number or phrase read where its layout prints it, or undefined. */
async function hasSignature(ocr: Engines, card: GreyImage, type: DocumentType): Promise<string | undefined> {
  const regions = FRONT_FIELDS[type];
  if (type === 'drivers_license' && regions.documentNumber) {
    const r = await readRegion(ocr.jpn, card, regions.documentNumber, CARD_LAYOUT, {
      accept: (t: string) => readDigits(t, 12) !== undefined,
      rereadAt: [],
      searchMargin: 40,
    });
    if (readDigits(r.text, 12)) return r.text;
  }
  if (type === 'residence_card' && regions.documentNumber) {
    const r = await readRegion(ocr.eng, card, regions.documentNumber, CARD_LAYOUT);
    if (readResidenceCardNumber(r.text)) return r.text;
  }
  if (type === 'my_number_card' && regions.expiryDate) {
    // The licence prints its 有効期限 with the era year in brackets: 2024年(令和06年)…まで有効.
    const r = await readRegion(ocr.jpn, card, regions.expiryDate, CARD_LAYOUT);
    if (keywordScore(r.text, 'まで有効') >= 0.75 && !r.text.includes('(')) return r.text;
  }
  return undefined; // passports: the MRZ band was already looked for
}

/**
 * The first MRZ line of a Japanese passport: its run of fillers, or its opening P<JPN and a
 * surname — a blurred capture drops the fillers or reads them as letters ("P<IPNSHIMIZU<<AYA",
 * "PIPNTAKAHASH…").
 */
export function looksLikePassportMrz(text: string): boolean {
  const t = text.replace(/\s+/g, '').toUpperCase();
  const fillers = (t.match(/</g) ?? []).length;
  return (fillers >= 10 && t.includes('JPN')) || /^P.?[JI1L]PN[A-Z<]{4,}/.test(t);
}

const licenceScore = (text: string) =>
  Math.max(keywordScore(text, '運転免許証'), keywordScore(text, '免許証') * 0.9);

/**
 * The official licence, when its vertical 運転免許証 (beside the photo) was read as such. `strict`
 * (the quick reading, tried on the card turned too, before anything else): three of its five
 * characters in order, not two of 免許証 (an upside-down synthetic licence's column read 免許).
 */
function officialLicenceFrom(
  vertical: { text: string; confidence: number },
  strict = false,
): Classification | undefined {
  const score = strict ? keywordScore(vertical.text, '運転免許証') : licenceScore(vertical.text);
  return score >= 0.6
    ? {
        type: 'drivers_license',
        confidence: round2(score * (0.6 + 0.4 * vertical.confidence)),
        evidence: vertical.text,
      }
    : undefined;
}

/**
 * The official licence's title alone, read on the card rectified from `at` (readVertical): only
 * the licence prints 運転免許証 there, so when the user chose a licence this small crop is read
 * first, on every way the card may lie, before any full classification (whose top-strip block
 * reading is the costliest).
 */
export async function quickOfficialLicence(
  ocr: Engines,
  card: GreyImage,
): Promise<{ licence?: Classification; vertical: { text: string; confidence: number } }> {
  const vertical = await readVertical(ocr.jpn, card, LICENCE_TITLE_VERTICAL, 5);
  const licence = officialLicenceFrom(vertical, true);
  return licence ? { licence, vertical } : { vertical };
}

export async function classify(
  ocr: Engines,
  card: GreyImage,
  passportPage: () => Promise<GreyImage>,
  expected: string,
  /** The vertical title as quickOfficialLicence read it on this card (not a licence's, then). */
  quickVertical?: { text: string; confidence: number },
): Promise<Classification> {
  let verticalRead: Promise<{ text: string; confidence: number }> | undefined = quickVertical
    ? Promise.resolve(quickVertical)
    : undefined;
  const vertical = () => {
    verticalRead ??= readVertical(ocr.jpn, card, LICENCE_TITLE_VERTICAL, 5);
    return verticalRead;
  };
  const asOfficialLicence = async () => officialLicenceFrom(await vertical());
  if (expected === 'drivers_license' && !quickVertical) {
    const licence = await asOfficialLicence();
    if (licence) return licence;
  }
  const strip = await readRegion(ocr.jpn, card, TITLE_STRIP, CARD_LAYOUT, {
    psm: PAGE_SEGMENTATION.singleBlock,
  });
  const best: Classification = { ...titleMatch(strip.text, TITLED_ACROSS), evidence: strip.text };
  if (best.confidence >= 0.7)
    return { ...best, confidence: round2(best.confidence * (0.6 + 0.4 * strip.confidence)) };
  // The My Number card prints 氏名 and the name on its top line, its title in a box top right.
  const namedOnTop = keywordScore(strip.text, '氏名') >= 1;
  // The licence's top line: 氏名, the name, a birth date ending 生 (the My Number card prints its
  // birth date lower).
  const topLineDate = /\d\s*月\s*\d{1,2}\s*日/u.test(strip.text.normalize('NFKC'));
  let bandText = '';
  // What else names a type, each read only when it is reached: the type the user chose is looked
  // for first (its title, then its number or phrase where its layout prints it), so a card of the
  // chosen type stops before the other types' fallbacks are read.
  const titles: { type: DocumentType; find: () => Promise<Classification | undefined> }[] = [
    { type: 'drivers_license', find: asOfficialLicence },
    {
      // The official My Number card's title box (個人番号 / カード, top right).
      type: 'my_number_card',
      find: async () => {
        if (!namedOnTop) return undefined;
        const box = await readRegion(ocr.jpn, card, MY_NUMBER_CARD.titleRegion.region, CARD_LAYOUT, {
          psm: PAGE_SEGMENTATION.singleBlock,
        });
        const score = keywordScore(box.text, '個人番号');
        return score >= 0.75
          ? {
              type: 'my_number_card',
              confidence: round2(score * (0.6 + 0.4 * box.confidence)),
              evidence: box.text,
            }
          : undefined;
      },
    },
    {
      // Its number where the licence prints it confirms the top line.
      type: 'drivers_license',
      find: async () => {
        if (keywordScore(strip.text, '氏名') < 0.5 || !topLineDate) return undefined;
        const signature = await hasSignature(ocr, card, 'drivers_license');
        return signature ? { type: 'drivers_license', confidence: 0.6, evidence: signature } : undefined;
      },
    },
    {
      type: 'passport',
      find: async () => {
        const band = await readRegion(
          ocr.eng,
          await passportPage(),
          FRONT_FIELDS.passport.mrz1 as Region,
          PASSPORT_LAYOUT,
          { whitelist: MRZ_CHARS },
        );
        bandText = band.text;
        return looksLikePassportMrz(band.text)
          ? { type: 'passport', confidence: 0.7, evidence: band.text }
          : undefined;
      },
    },
  ];
  // No readable title (a blurred capture): a type whose own number or phrase is where its layout
  // prints it.
  const signature = (type: DocumentType) => async (): Promise<Classification | undefined> => {
    const evidence = await hasSignature(ocr, card, type);
    return evidence ? { type, confidence: 0.5, evidence } : undefined;
  };
  const weakTitle = async () =>
    best.confidence >= 0.5 ? { ...best, confidence: round2(best.confidence * 0.8) } : undefined;
  const chosen = (DOCUMENT_TYPES as readonly string[]).includes(expected) ? expected : undefined;
  const steps = [
    ...titles.filter((t) => t.type === chosen).map((t) => t.find),
    ...(chosen ? [signature(chosen as DocumentType)] : []),
    ...titles.filter((t) => t.type !== chosen).map((t) => t.find),
    weakTitle,
    ...DOCUMENT_TYPES.filter((type) => type !== chosen).map(signature),
  ];
  for (const step of steps) {
    // Out of reads (READ_BUDGET): what is left would be read past the budget.
    if (!ocr.jpn.spare) break;
    const found = await step();
    if (found) return found;
  }
  const readable = strip.confidence >= 0.8 && strip.text.replace(/\s+/g, '').length >= 6;
  return {
    readable,
    confidence: 0,
    evidence: `${strip.text} / ${verticalRead ? (await verticalRead).text : ''} / ${bandText}`,
  };
}
