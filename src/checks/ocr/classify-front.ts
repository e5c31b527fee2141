// Step 2 of the reading: the document type, told on the card as found, then turned, then on the
// whole photo; and what the reading goes on with — that type, the type the user chose, the MRZ
// alone, or no document.

import { fromMrz, unreadableType, unsupported } from './assemble-result.ts';
import { type Classification, classify, quickOfficialLicence } from './classify-document.ts';
import { CARD_LAYOUT, DOCUMENT_TYPES, type DocumentType, PASSPORT_LAYOUT } from './document-regions.ts';
import type { GreyImage } from './find-document.ts';
import type { FrontPhoto } from './locate-front.ts';
import { isCredibleMrz } from './mrz-result.ts';
import type { OcrCheckResult } from './ocr-result.ts';
import { lap, locatedMrz, type OcrRun, warpTo } from './ocr-run.ts';

/** The card the type was told on. */
export interface ClassifiedFront {
  /** Which of the ways the card was tried (the outline, turned, the whole photo). */
  at: number;
  card: GreyImage;
  /** The passport page rectified from the same corners, warped when first asked for. */
  passportPage: () => Promise<GreyImage>;
  classification: Classification;
}

/** The ways the card is tried, each rectified once. */
interface CardTries {
  grey: GreyImage;
  corners: [number, number][][];
  cards: Map<number, Promise<GreyImage>>;
  /** The vertical title as quickOfficialLicence read it on each card. */
  verticals: Map<number, { text: string; confidence: number }>;
}

/** The passport page warped when classify looks for an MRZ, or when the type is passport. */
function pageOnce(run: OcrRun, grey: GreyImage, at: [number, number][]): () => Promise<GreyImage> {
  let page: Promise<GreyImage> | undefined;
  return () => {
    page ??= warpTo(run, grey, at, PASSPORT_LAYOUT);
    return page;
  };
}

function cardAt(run: OcrRun, tries: CardTries, i: number): Promise<GreyImage> {
  let c = tries.cards.get(i);
  if (!c) {
    c = warpTo(run, tries.grey, tries.corners[i] as [number, number][], CARD_LAYOUT);
    tries.cards.set(i, c);
  }
  return c;
}

async function classifyAt(run: OcrRun, tries: CardTries, i: number): Promise<ClassifiedFront> {
  const atCard = await cardAt(run, tries, i);
  const atPage = pageOnce(run, tries.grey, tries.corners[i] as [number, number][]);
  return {
    at: i,
    card: atCard,
    passportPage: atPage,
    classification: await classify(
      run.ocr,
      atCard,
      atPage,
      run.input.expectedDocumentType,
      tries.verticals.get(i),
    ),
  };
}

/**
 * The type told on the card. The outline is put landscape; whether the document is upside down
 * shows only in its text, so when nothing is recognised the other way up is tried too. Widens
 * `front.frontOutline` to the whole photo when that is where the type was told.
 */
export async function classifyFront(run: OcrRun, front: FrontPhoto): Promise<ClassifiedFront> {
  const t = performance.now();
  const { corners, frontOutline } = front;
  const { width: w, height: h } = front.grey;
  const turned = [2, 3, 0, 1].map((i) => corners[i] as [number, number]);
  // The outline found may not be the card's (a card cut by the frame's edge on a bright
  // surface): when nothing names a type on it, the whole photo is read as the card once more.
  const whole: [number, number][] | undefined =
    !front.wholeFrame && frontOutline.coverage < 0.8 && w >= h
      ? [
          [0, 0],
          [w, 0],
          [w, h],
          [0, h],
        ]
      : undefined;
  const tries: CardTries = {
    grey: front.grey,
    corners: [corners, turned, ...(whole ? [whole] : [])],
    cards: new Map(),
    verticals: new Map(),
  };
  const quick = run.input.expectedDocumentType === 'drivers_license';
  let reading: ClassifiedFront | undefined;
  if (quick)
    for (let i = 0; i < tries.corners.length && !reading; i++) {
      const atCard = await cardAt(run, tries, i);
      const { licence, vertical } = await quickOfficialLicence(run.ocr, atCard);
      tries.verticals.set(i, vertical);
      if (licence)
        reading = {
          at: i,
          card: atCard,
          passportPage: pageOnce(run, tries.grey, tries.corners[i] as [number, number][]),
          classification: licence,
        };
    }
  if (!reading) {
    reading = await classifyAt(run, tries, 0);
    // The card turned, and the whole photo, are fallbacks too: read while the budget lasts.
    if (!reading.classification.type && run.ocr.jpn.spare) {
      const again = await classifyAt(run, tries, 1);
      if (again.classification.type) reading = again;
    }
    if (!reading.classification.type && whole && run.ocr.jpn.spare) {
      const again = await classifyAt(run, tries, 2);
      if (again.classification.type) reading = again;
    }
  }
  if (reading.at === 2 && whole) {
    frontOutline.corners = whole;
    frontOutline.coverage = 1;
  }
  lap(run, 'classify', t);
  return reading;
}

/** A classification that names the type the fields are read as. */
export type Typed = Classification & { type: DocumentType };

/**
 * The type the fields are read as, or the reading's result when there is none to read: the MRZ
 * found anywhere, another kind of card, no document, a capture too poor to tell.
 */
export async function settleType(
  run: OcrRun,
  front: FrontPhoto,
  told: Classification,
): Promise<{ classification: Typed } | { result: OcrCheckResult }> {
  const { input } = run;
  let classification = told;
  if (front.wholeFrame && !classification.type) {
    const found = await locatedMrz(run);
    if (found && isCredibleMrz(found.reading)) return { result: fromMrz(run, found) };
    return { result: unsupported(run, 'no identity document found in the front image') };
  }
  // A passport the user chose whose page the card layouts name otherwise (a foreign passport's
  // print can look like a residence card's to them): its MRZ, where one is found, decides.
  const passportNamedOtherwise =
    input.expectedDocumentType === 'passport' && classification.type !== 'passport';
  if (!classification.type || passportNamedOtherwise) {
    const found = await locatedMrz(run);
    if (found && isCredibleMrz(found.reading)) return { result: fromMrz(run, found, front.frontOutline) };
  }
  // Nothing readable names the type (a blurred or glaring capture, whose title and signature
  // went first) and nothing contradicts the user's choice: the fields are read as that type's
  // layout places them. What comes of it is a reading of a poor capture, passed on below the
  // threshold (to compare, to check dates and check digits, to show a reviewer), never as success.
  if (
    !classification.type &&
    !classification.readable &&
    (DOCUMENT_TYPES as readonly string[]).includes(input.expectedDocumentType)
  )
    classification = {
      type: input.expectedDocumentType as DocumentType,
      confidence: 0,
      assumed: true,
      evidence: classification.evidence,
    };
  if (!classification.type) {
    // Text read clearly but none of ours: another kind of card. Nothing readable: a poor
    // capture of what may well be a supported document, so low confidence, not unsupported.
    if (classification.readable)
      return {
        result: unsupported(
          run,
          `the front image is not a supported identity document (read: ${classification.evidence.slice(0, 120)})`,
          { frontOutline: front.frontOutline },
        ),
      };
    return { result: unreadableType(run, front.frontOutline) };
  }
  return { classification: { ...classification, type: classification.type } };
}
