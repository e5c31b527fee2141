// The ocr check (docs/ocr.md; result shape: interface §2.6). Pipeline:
// 1. find the document in the photo and flatten it (find-document.ts);
// 2. tell the document type from its printed title (or a passport's MRZ);
// 3. read each field from where our layouts print it (document-regions.ts), one Tesseract
//    single-line pass per field, then correct it by its known shape (correct-fields.ts);
// 4. passports: read the MRZ, repair it by check digits and cross-check the printed fields;
//    licences and My Number cards: the printed address must lie in the issuer's area
//    (issuing-authority.ts); My Number and residence cards: the back against the front;
// 5. per-field and overall confidence; below OCR_CONFIDENCE_THRESHOLD the status is
//    low_confidence, so a poor capture goes to review instead of passing wrong values on.
import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import sharp from 'sharp';
import type { OcrResultSchema } from '../../domain/index.ts';
import { editDistance } from '../../platform/text/edit-distance.ts';

type OcrResult = Static<typeof OcrResultSchema>;

import { MY_NUMBER_CARD } from '../../documents/index.ts';
import { type Check, PROVIDER } from '../check.ts';
import {
  cleanAddress,
  isPlausibleAddress,
  isPlausibleBirthDate,
  isPlausibleExpiryDate,
  isPlausibleKanjiName,
  isPlausibleLatinName,
  isValidMyNumber,
  readDigits,
  readPassportNumber,
  readPrintedDate,
  readPrintedSex,
  readResidenceCardNumber,
  residenceCardNumberLength,
  splitNameLine,
  startsWithPrefecture,
  toDigit,
} from './correct-fields.ts';
import { ocrDefinition } from './definition.ts';
import {
  BACK_FIELDS,
  CARD_LAYOUT,
  DOCUMENT_TYPES,
  type DocumentType,
  type FieldName,
  FRONT_FIELDS,
  LAYOUT_VARIANT,
  type Layout,
  type LayoutVariant,
  LICENCE_NUMBER_DIGITS,
  LICENCE_TITLE_VERTICAL,
  layoutOf,
  PASSPORT_LAYOUT,
  type Region,
  TITLE_STRIP,
  toPixels,
} from './document-regions.ts';
import {
  cropPng,
  type DocumentGeometry,
  type DocumentOutline,
  decodePhoto,
  type GreyImage,
  geometryInThisThread,
} from './find-document.ts';
import { addressOutsideArea, issuerArea } from './issuing-authority.ts';
import { findMrz, type MrzFound } from './locate-mrz.ts';
import { isCredibleMrz, isForeignMrz, mrzOnlyResult } from './mrz-result.ts';
import {
  getOcrEngineFor,
  MODEL_DESCRIPTION,
  type OcrEngine,
  type OcrLanguage,
  type OcrRecognition,
  PAGE_SEGMENTATION,
} from './ocr-engine.ts';
import { type MrzReading, type MrzVerdictFacts, mrzDate, mrzFailureKind, readMrz } from './read-mrz.ts';

// 1.8.0: a capture on which nothing names the type is read as the type the user chose (below the
// threshold), instead of not at all.
// 1.8.1: an MRZ with a filler where a check digit must stand is a misread (mrzFailureKind), not a
// failed check digit: no check_digit_failure, no low_confidence verdict on it.
// 1.8.2: the My Number is read again at 0.5× too when no reading passes its check digit.
// 1.8.3: a key value only the local threshold read is confirmed by the global one at half size.
// 1.8.4: an address with no number before 丁目 is not read as one (read again, else left out).
// 2.0.0: cards read in the issuer's layout (src/documents) by what they print, the whole photo read
// when no outline is found; the MRZ found anywhere and read as TD1, TD2, TD3 or a visa.
// 2.0.1: the licence's issuer read as the two lines it is printed on (北海道 / 公安委員会).
// 2.0.2: in an MRZ under 6.5 px a character, the letters no check digit covers are compared with the
// zone's own glyphs (mrz-glyphs.ts); the outline the finder returned is in the extras
// (documentOutline), for the document check.
// The number itself is declared with the check in the registry (definition.ts).
export const OCR_CHECK_VERSION = ocrDefinition.version;

/**
 * Overall confidence below which the result is low_confidence (calibrated on the synthetic
 * corpus, docs/ocr.md: wrong values mostly fall below it, clean and typical captures above).
 */
export const OCR_CONFIDENCE_THRESHOLD = 0.8;

export interface OcrCheckInput {
  front: Buffer;
  back?: Buffer;
  /** The type the user chose (interface §1 documentType). */
  expectedDocumentType: string;
}

export interface OcrField {
  value?: string;
  /** 0–1: Tesseract's confidence for the line times how well the value fits its shape. */
  confidence: number;
  /** The text as read, before correction. */
  raw: string;
  /** Read unsure, the line was read again at other scales: whether two readings agreed on the value. */
  confirmed?: boolean;
  /** Only the local-threshold reading fitted (readRegion's last resort): capped below the threshold. */
  lastResort?: boolean;
}

/** What the decision and fraud checks need beyond §2.6 (kept internally, not sent in webhooks). */
export interface OcrExtras {
  documentTypeMismatch: boolean;
  fields: Partial<
    Record<'name' | 'birthDate' | 'address' | 'documentNumber' | 'expiryDate' | 'myNumber', OcrField>
  >;
  documentNumber?: string;
  expiryDate?: string;
  /** The expiry date can decide alone: the capture passed the threshold, a valid MRZ gives it, or it read alike twice. */
  expiryDateReliable?: boolean;
  myNumber?: string;
  myNumberCheckDigitValid?: boolean;
  latinName?: { lastName: string; firstName: string };
  /** The sex printed (My Number and residence cards) or in the MRZ (passports), when read. */
  sex?: 'M' | 'F';
  /** matchesPrintedFields: number, birth and expiry dates agree with the print (all check-digit protected). */
  mrz?: MrzReading & { matchesPrintedFields: boolean; namesMatchPrinted?: boolean };
  /** Values the back prints again (the My Number card's name and birth date), read from the back. */
  back?: Partial<Record<'name' | 'birthDate', OcrField>>;
  /** Fields the back prints otherwise than the front, both read with confidence (backDisagreements). */
  backDisagrees?: ('name' | 'birthDate')[];
  /** The area a licence's or My Number card's issuer names (a prefecture, a municipality); no value when not read as one. */
  issuer?: OcrField;
  /** That area, when the printed address, read with confidence, lies outside it (issuing-authority.ts). */
  addressOutsideIssuer?: string;
  /** Whose layout the front is read in: the issuer's, or mimoto's own (residence card, passport). */
  layout?: LayoutVariant;
  /** Where the document was found in the front photo (corners, px) and how much of it it covers. */
  frontOutline?: { corners: [number, number][]; coverage: number };
  /**
   * The outline the document finder returned on the front, before any fallback above (null: none
   * found): the document check measures the same photo and takes it instead of finding it again.
   */
  documentOutline?: DocumentOutline | null;
  timingsMs: Record<string, number>;
  /** Tesseract passes spent on the document (READ_BUDGET). */
  reads?: number;
}

/**
 * Whether the document's check digits hold (fraud signal check_digit_failure): false when an MRZ
 * read cleanly fails (mrzFailureKind 'check_digit') or a My Number's check digit fails; true when
 * one was verified; null when none was read well enough to say (a misread MRZ, no number read).
 */
export function checkDigitsVerdict(extras: {
  mrz?: MrzVerdictFacts;
  myNumberCheckDigitValid?: boolean;
}): boolean | null {
  const mrz = extras.mrz ? mrzFailureKind(extras.mrz) : null;
  const myNumber = extras.myNumberCheckDigitValid ?? null;
  if (mrz === 'check_digit' || myNumber === false) return false;
  return mrz === 'none' || myNumber === true ? true : null;
}

/**
 * Confidence both readings need before a disagreement counts (front and back; the address and
 * the issuer): below it a value may be a misread. Dates need more: a dropped digit keeps a
 * plausible date (平成11年 read 平成1年 at 0.84 on a genuine card's back), while a name is only
 * compared by whole last names.
 */
const CROSS_CHECK_CONFIDENCE = { name: 0.85, birthDate: 0.9, issuer: 0.85 } as const;

/**
 * The fields whose front and back readings disagree in a way a misread does not explain: both
 * read with confidence, birth dates different, last names without a character in common (a
 * misread changes a glyph or two; a re-typed name is another name). First names are left out: the
 * back's smaller print misreads them more often (悠斗 → 悠半).
 */
export function backDisagreements(
  front: OcrExtras['fields'],
  back: NonNullable<OcrExtras['back']>,
): ('name' | 'birthDate')[] {
  const sure = (name: 'name' | 'birthDate', f: OcrField | undefined): f is OcrField & { value: string } =>
    f?.value !== undefined && f.confidence >= CROSS_CHECK_CONFIDENCE[name];
  const out: ('name' | 'birthDate')[] = [];
  if (sure('name', front.name) && sure('name', back.name)) {
    const lastName = (f: { value: string }) => [...(f.value.split(' ')[0] ?? '')];
    const backLast = new Set(lastName(back.name));
    if (!lastName(front.name).some((c) => backLast.has(c))) out.push('name');
  }
  if (
    sure('birthDate', front.birthDate) &&
    sure('birthDate', back.birthDate) &&
    front.birthDate.value !== back.birthDate.value
  )
    out.push('birthDate');
  return out;
}

export interface OcrCheckResult {
  /** Exactly the interface §2.6 object. */
  result: OcrResult;
  extras: OcrExtras;
}

export interface OcrCheckOptions {
  /** Engine for one language (default: the process-wide engines). */
  engine?: (languages: readonly OcrLanguage[]) => Promise<OcrEngine>;
  /** The clock, for two-digit MRZ years and birth-date plausibility. */
  now?: () => Date;
  /** Where the document is found and rectified (default: in the calling thread). */
  geometry?: DocumentGeometry;
}

/** An engine of one document's reading: `spare` while the document's read budget lasts (readingOnce). */
type BudgetedEngine = OcrEngine & { readonly spare: boolean };
type Engines = { jpn: BudgetedEngine; eng: BudgetedEngine };

/** Fields printed in Latin letters and digits, read with the eng model alone. */
const LATIN_FIELDS: Record<DocumentType, readonly FieldName[]> = {
  drivers_license: [],
  my_number_card: [],
  residence_card: ['name', 'documentNumber'],
  passport: [
    'documentNumber',
    'lastNameLatin',
    'firstNameLatin',
    'birthDate',
    'address',
    'expiryDate',
    'mrz1',
    'mrz2',
  ],
};

type Recognised = {
  text: string;
  confidence: number;
  words: OcrRecognition['words'];
  /** Texts read at the other scales when none fitted the field (readRegion). */
  rereads?: string[];
  /**
   * A fitting reading that was unsure is read again (readRegion `confirm`): here the reading at
   * another scale that gave the same value, or null when no two of three readings agreed.
   */
  confirmation?: Recognised | null;
  /** Only the local-threshold reading fitted the field (readRegion's last resort). */
  lastResort?: boolean;
  /** The document's read budget ran out before every reread was made (`rereads` is incomplete). */
  budgetSpent?: boolean;
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Otsu's threshold over 8-bit values. */
function otsuThreshold(values: Uint8Array): number {
  const histogram = new Array<number>(256).fill(0);
  for (const v of values) histogram[v] = (histogram[v] ?? 0) + 1;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (histogram[i] ?? 0);
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    below += histogram[t] ?? 0;
    if (below === 0 || below === total) continue;
    sumBelow += t * (histogram[t] ?? 0);
    const m0 = sumBelow / below;
    const m1 = (sum - sumBelow) / (total - below);
    const between = below * (total - below) * (m0 - m1) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** The pixels of `box` (clamped to the image, at least one pixel) as a grey image of their own. */
function cutGrey(
  image: GreyImage,
  box: { left: number; top: number; width: number; height: number },
): { data: Uint8Array; width: number; height: number } {
  const left = Math.max(0, Math.round(box.left));
  const top = Math.max(0, Math.round(box.top));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box.height)));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(
      image.data.subarray((top + y) * image.width + left, (top + y) * image.width + left + width),
      y * width,
    );
  return { data, width, height };
}

/**
 * A crop prepared for a line Tesseract read as nothing: the ruled lines around the value whitened
 * (a dark run across most of a row, a box's top or bottom rule; a dark run down most of a column,
 * its sides — glyph strokes are shorter), and blank gaps wider than half a glyph shortened. The
 * official licence boxes its name in rules and spreads it over the box (見　本　　花　子, gaps of
 * one to three glyphs): the jpn model reads such a line as nothing at most scales, and reads it
 * at every scale once the gaps are closed. A gap keeps part of its width beyond half a glyph, so
 * the one between surname and given name stays the widest (splitNameLine).
 */
async function cropWithoutRules(
  image: GreyImage,
  box: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const { data: out, width, height } = cutGrey(image, box);
  const threshold = otsuThreshold(out);
  const sorted = Uint8Array.from(out).sort();
  const paper = sorted[Math.floor(sorted.length * 0.6)] ?? 255;
  const dark = (i: number) => (out[i] ?? 255) <= threshold;
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    if (n > width * 0.5) out.fill(paper, y * width, (y + 1) * width);
  }
  const ink = new Array<number>(width).fill(0);
  for (let x = 0; x < width; x++) {
    let run = 0;
    let longest = 0;
    for (let y = 0; y < height; y++) {
      if (dark(y * width + x)) {
        ink[x] = (ink[x] ?? 0) + 1;
        longest = Math.max(longest, ++run);
      } else run = 0;
    }
    if (longest > height * 0.7) {
      for (let y = 0; y < height; y++) out[y * width + x] = paper;
      ink[x] = 0;
    }
  }
  // The glyphs' height: the rows that hold ink once the rules are gone.
  let first = height;
  let last = -1;
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    if (n >= 2) {
      first = Math.min(first, y);
      last = y;
    }
  }
  const glyph = Math.max(8, last - first + 1);
  const keep: number[] = [];
  let gap: number[] = [];
  const closeGap = () => {
    const allowed = Math.round(
      Math.min(gap.length, glyph * 0.5 + Math.max(0, gap.length - glyph * 0.5) * 0.25),
    );
    keep.push(...gap.slice(0, allowed));
    gap = [];
  };
  for (let x = 0; x < width; x++) {
    if ((ink[x] ?? 0) < 2) gap.push(x);
    else {
      closeGap();
      keep.push(x);
    }
  }
  closeGap();
  const squeezed = new Uint8Array(keep.length * height);
  for (let y = 0; y < height; y++)
    for (let i = 0; i < keep.length; i++)
      squeezed[y * keep.length + i] = out[y * width + (keep[i] ?? 0)] ?? paper;
  return sharp(Buffer.from(squeezed.buffer), {
    raw: { width: Math.max(1, keep.length), height, channels: 1 },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function stretch(png: Buffer, factor: number): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(png).metadata();
  return sharp(png)
    .resize({ width: Math.round(width * factor), height, fit: 'fill' })
    .png()
    .toBuffer();
}

/** One field's crop read, and read again while unsure or unfitting (exported for its tests). */
export async function readRegion(
  engine: OcrEngine & { readonly spare?: boolean },
  image: GreyImage,
  region: Region,
  layout: Layout,
  options: {
    psm?: string;
    whitelist?: string;
    accept?: (text: string) => boolean;
    /**
     * A fitting reading less sure than `below` is read again at 1.4× and, if that gives another
     * value, at 0.75×, and if all three differ, at 1.7×: the value two readings agree on wins
     * (`confirmation`).
     */
    confirm?: { below: number; value: (r: Recognised) => string | undefined };
    /** Scales a reading that does not fit its field is read again at, in order (default 1.4×, 0.75×). */
    rereadAt?: readonly number[];
    /** Widen the crop by this factor first: condensed print (a licence's 有効期限 band) reads better. */
    stretchX?: number;
    /** Erase the ruled lines of the box the value is printed in (the official licence's rows). */
    eraseRules?: boolean;
    /**
     * Last, search for the value around its zone: the zone grown by this many units up and down
     * (half as much sideways) is read as a block, and the first line that fits is the value (a
     * card printed or cut a little off the layout: a camera photo cut at its top edge).
     */
    searchMargin?: number;
  } = {},
): Promise<Recognised> {
  const box = toPixels(region, layout);
  const crop = await cropPng(image, box);
  const png = options.stretchX ? await stretch(crop, options.stretchX) : crop;
  const once = async (input: Buffer, factor: number, binarization?: 'sauvola'): Promise<Recognised> => {
    const r = await engine.recognize(input, {
      psm: (options.psm ?? PAGE_SEGMENTATION.singleLine) as never,
      ...(options.whitelist ? { charWhitelist: options.whitelist } : {}),
      ...(binarization ? { binarization } : {}),
    });
    const words = r.words.map((w) => ({
      ...w,
      bbox: {
        x0: w.bbox.x0 / factor,
        y0: w.bbox.y0 / factor,
        x1: w.bbox.x1 / factor,
        y1: w.bbox.y1 / factor,
      },
    }));
    return { text: r.text.replace(/\n+$/, ''), confidence: r.confidence / 100, words };
  };
  const atScale = async (factor: number) => {
    const { width = 0 } = await sharp(png).metadata();
    const scaled = await sharp(png)
      .resize({ width: Math.max(8, Math.round(width * factor)) })
      .png()
      .toBuffer();
    return once(scaled, factor);
  };
  // Every pass after the first is a fallback, read only while the document's budget lasts.
  const spare = () => engine.spare !== false;
  const first = await once(png, 1);
  if (!options.accept || options.accept(first.text)) {
    const { confirm } = options;
    const value = confirm?.value(first);
    if (!confirm || first.confidence >= confirm.below || value === undefined) return first;
    // tessdata_fast reads 誠 right at one scale and 識, 議 or 計 at the next: the first value a new
    // reading shares with an earlier one wins; 1.7× only when three differ (docs/ocr.md "Confidence").
    const readings = [first];
    if (options.eraseRules && spare()) {
      // A boxed value spread over its box (the licence's 見　本　　花　子) reads with glyphs made up
      // in its gaps (山田一) at every scale: read without its rules and gaps, as a value read as
      // nothing is. Taken when sure; unsure, confirmed by the same crop at 1.4×, else one of the
      // readings a later one may agree with.
      const crop = await cropWithoutRules(image, box);
      const unruledPng = options.stretchX ? await stretch(crop, options.stretchX) : crop;
      const unruled = await once(unruledPng, 1);
      const v = confirm.value(unruled);
      if ((!options.accept || options.accept(unruled.text)) && v !== undefined) {
        // The same value: the first reading, whose word boxes split the name as printed, confirmed.
        if (v === value) return { ...first, confirmation: unruled };
        const taken = { ...unruled, confidence: unruled.confidence * 0.95 };
        if (unruled.confidence >= confirm.below) return taken;
        if (spare()) {
          const { width = 0 } = await sharp(unruledPng).metadata();
          const larger = await sharp(unruledPng)
            .resize({ width: Math.max(8, Math.round(width * 1.4)) })
            .png()
            .toBuffer();
          const again = await once(larger, 1.4);
          if (confirm.value(again) === v) return { ...taken, confirmation: again };
        }
        readings.push(unruled);
      }
    }
    for (const factor of [1.4, 0.75, 1.7]) {
      if (!spare()) break;
      const again = await atScale(factor);
      const v = confirm.value(again);
      const agreeing = v === undefined ? undefined : readings.find((r) => confirm.value(r) === v);
      if (agreeing) return { ...agreeing, confirmation: again };
      readings.push(again);
    }
    return { ...first, confirmation: null };
  }
  // The jpn model now and then drops a digit between kanji (7月 → 月) or misreads a glyph at one
  // scale and not at another: a value that does not fit its field is read again, larger then smaller.
  const rereads: string[] = [];
  if (options.eraseRules && spare()) {
    // A value boxed in ruled lines can read as nothing at all: read again without them.
    const unruled = await cropWithoutRules(image, box);
    const again = await once(options.stretchX ? await stretch(unruled, options.stretchX) : unruled, 1);
    if (options.accept(again.text)) return { ...again, confidence: again.confidence * 0.95 };
    rereads.push(again.text);
  }
  const scales = options.rereadAt ?? [1.4, 0.75];
  for (const factor of scales) {
    if (!spare()) return { ...first, rereads, budgetSpent: true };
    const again = await atScale(factor);
    if (options.accept(again.text)) {
      const accepted = { ...again, confidence: again.confidence * 0.95 };
      // A key value a reread gave unsure is confirmed as a first reading is: another scale that
      // gives the same value (a licence photo's birth date, misread at 1×, read right at 1.4× at
      // 0.6 and again at 0.75×).
      const { confirm } = options;
      const value = confirm?.value(accepted);
      if (!confirm || value === undefined || accepted.confidence >= confirm.below) return accepted;
      for (const other of [...scales.slice(scales.indexOf(factor) + 1), 1.7]) {
        if (!spare()) break;
        const third = await atScale(other);
        if (confirm.value(third) === value) return { ...accepted, confirmation: third };
      }
      return accepted;
    }
    rereads.push(again.text);
  }
  // Under glare or a dark corner one global threshold loses faint glyphs (a blurred name read as
  // nothing at every scale): last, the crop is read with a local threshold. Its text is not one of
  // `rereads`, the same binarisation at other scales, which tell a printed wrong My Number digit
  // (read alike every time) from a misread; the local threshold reads clean digits otherwise.
  if (!spare()) return { ...first, rereads, budgetSpent: true };
  const local = await once(png, 1, 'sauvola');
  if (options.accept(local.text)) {
    // A key value the global threshold gives too, at half size, is confirmed as any unsure reading
    // is: two readings agree (a typical My Number card's name 高橋 誠, read as nothing at 1×, 1.4×
    // and 0.75×). Alone it stays a last resort.
    const reading = { ...local, confidence: local.confidence * 0.95 };
    const value = options.confirm?.value(local);
    const half = value === undefined || !spare() ? undefined : await atScale(0.5);
    if (half && options.confirm?.value(half) === value) return { ...reading, confirmation: half };
    return { ...reading, lastResort: true };
  }
  if (options.searchMargin && spare()) {
    const m = options.searchMargin;
    const [x0, y0, x1, y1] = region;
    const wide = await cropPng(image, toPixels([x0 - m / 2, y0 - m, x1 + m / 2, y1 + m], layout));
    const block = await engine.recognize(wide, { psm: PAGE_SEGMENTATION.singleBlock as never });
    for (const line of block.lines) {
      const text = line.text.replace(/\n+$/, '');
      if (options.accept(text))
        return { text, confidence: (line.confidence / 100) * 0.9, words: line.words, rereads };
    }
  }
  return { ...first, rereads };
}

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

const TITLE_KEYWORDS: Record<Exclude<DocumentType, 'drivers_license'>, string[]> = {
  my_number_card: ['個人番号', '個人番号カード'],
  residence_card: ['在留', '在留カード'],
  passport: ['旅券', 'PASSPORT', '日本国旅券'],
};

interface Classification {
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
 * Text printed vertically (the official licence's 運転免許証 beside the photo), read as one line:
 * the column is cut into its character cells, laid side by side with paper between them (the jpn
 * model reads only horizontal lines; each glyph stands upright in both). Dark runs down most of
 * the column (the photo's edge, a rule) are whitened first, and the cells divide the column's
 * inked extent rather than the zone: a card rectified a little off its outline shifts the title
 * by a third of a glyph, which cut every glyph in two.
 */
async function readVertical(engine: OcrEngine, card: GreyImage, region: Region, cells: number) {
  const box = toPixels(region, CARD_LAYOUT);
  const { data: column, width, height } = cutGrey(card, box);
  const threshold = otsuThreshold(column);
  const sorted = Uint8Array.from(column).sort();
  const paper = sorted[Math.floor(sorted.length * 0.7)] ?? 255;
  const dark = (i: number) => (column[i] ?? 255) <= threshold;
  const erase = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    let run = 0;
    let longest = 0;
    for (let y = 0; y < height; y++) {
      run = dark(y * width + x) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    // A glyph's stroke is at most a cell tall; the photo's edge or a rule runs down most of the column.
    if (longest > (height / cells) * 1.5) erase[x] = 1;
  }
  // The photo's edge is a dark band several pixels wide: its anti-aliased neighbours go too.
  for (let x = 0; x < width; x++)
    if (erase[x] || erase[x - 1] || erase[x + 1])
      for (let y = 0; y < height; y++) column[y * width + x] = paper;
  // The title's own column: the band a glyph wide (a cell's height) that holds the most ink. What
  // lies beside it — the portrait's light background, a rule's stub, the licence-class table's
  // column — goes to paper: on a card read as the whole frame (a scan the card fills) the zone
  // catches them, and the jpn model read them as marks among the glyphs (| | 1 許証).
  const inkOf = new Array<number>(width).fill(0);
  for (let x = 0; x < width; x++)
    for (let y = 0; y < height; y++) if (dark(y * width + x)) inkOf[x] = (inkOf[x] ?? 0) + 1;
  const band = Math.min(width, Math.round((height / cells) * 1.15));
  let from = 0;
  let most = -1;
  for (let x = 0; x + band <= width; x++) {
    let sum = 0;
    for (let i = x; i < x + band; i++) sum += inkOf[i] ?? 0;
    if (sum > most) {
      most = sum;
      from = x;
    }
  }
  for (let x = 0; x < width; x++)
    if (x < from - 2 || x >= from + band + 2) for (let y = 0; y < height; y++) column[y * width + x] = paper;
  // The glyphs: runs of inked rows (a gap of a few rows inside a glyph does not split it). When
  // there are as many as cells, each is a cell; otherwise the inked extent is divided evenly.
  const inked = Array.from({ length: height }, (_, y) => {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    return n >= 2;
  });
  const runs: { from: number; to: number }[] = [];
  for (let y = 0; y < height; y++) {
    if (!inked[y]) continue;
    const previous = runs[runs.length - 1];
    if (previous && y - previous.to <= 3) previous.to = y + 1;
    else runs.push({ from: y, to: y + 1 });
  }
  const glyphs = runs.filter((r) => r.to - r.from >= height / cells / 4);
  const first = glyphs[0]?.from ?? 0;
  const last = glyphs[glyphs.length - 1]?.to ?? height;
  const extent = last - first > height * 0.5 ? { from: first, to: last } : { from: 0, to: height };
  const even = (extent.to - extent.from) / cells;
  const boxes =
    glyphs.length === cells
      ? glyphs.map((g) => ({ from: Math.max(0, g.from - 3), to: Math.min(height, g.to + 3) }))
      : Array.from({ length: cells }, (_, i) => ({
          from: Math.round(extent.from + i * even),
          to: Math.max(Math.round(extent.from + i * even) + 1, Math.round(extent.from + (i + 1) * even)),
        }));
  const h = Math.max(1, ...boxes.map((box) => box.to - box.from));
  const gap = Math.round(width * 0.4);
  const cleaned = sharp(Buffer.from(column.buffer), { raw: { width, height, channels: 1 } });
  const crops = await Promise.all(
    boxes.map((box) =>
      cleaned
        .clone()
        .extract({ left: 0, top: box.from, width, height: Math.min(height - box.from, box.to - box.from) })
        .png()
        .toBuffer(),
    ),
  );
  const line = await sharp({
    create: {
      width: (width + gap) * cells + width,
      height: h + 20,
      channels: 3,
      background: { r: paper, g: paper, b: paper },
    },
  })
    .composite(crops.map((input, i) => ({ input, left: Math.round(width / 2) + i * (width + gap), top: 10 })))
    .greyscale()
    .png()
    .toBuffer();
  const r = await engine.recognize(line, { psm: PAGE_SEGMENTATION.singleLine as never });
  return { text: r.text.trim(), confidence: r.confidence / 100 };
}

/**
 * A printed passport number one OCR slip from the check-digit-valid MRZ number (a character read
 * twice, Z read as 7) is a misread of the same number, not a second one; letters and digits that
 * look alike count as one (a clean genuine TZ9268522 read 129268522).
 */
export function isMisreadOfNumber(printed: string, mrzNumber: string): boolean {
  const asDigits = (t: string) => [...t.replace(/[^0-9A-Za-z]/g, '').toUpperCase()].map(toDigit).join('');
  return editDistance(asDigits(printed), asDigits(mrzNumber), 1) <= 1;
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
async function quickOfficialLicence(
  ocr: Engines,
  card: GreyImage,
): Promise<{ licence?: Classification; vertical: { text: string; confidence: number } }> {
  const vertical = await readVertical(ocr.jpn, card, LICENCE_TITLE_VERTICAL, 5);
  const licence = officialLicenceFrom(vertical, true);
  return licence ? { licence, vertical } : { vertical };
}

async function classify(
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
  let best: Classification = { confidence: 0, evidence: strip.text };
  for (const [type, keywords] of Object.entries(TITLE_KEYWORDS)) {
    // The distinctive words count for half (カード is on two titles).
    const [distinctive, full] = keywords as [string, string];
    const score = Math.max(
      (keywordScore(strip.text, distinctive) + keywordScore(strip.text, full)) / 2,
      keywords[2] ? keywordScore(strip.text, keywords[2]) : 0,
    );
    if (score > best.confidence)
      best = { type: type as DocumentType, confidence: score, evidence: strip.text };
  }
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

/**
 * A value only the last-resort reading gave is useful (to compare, to show a reviewer) but comes
 * from a capture too poor to pass on: the field and the whole reading stay below the threshold.
 */
const LAST_RESORT_MAX_CONFIDENCE = 0.7;

/**
 * A field from its line's reading. `fit` is how well the value fits its field's shape; when a
 * second reading gave the same value (readRegion's `confirmation`), the two line confidences
 * combine as independent evidence, 1 − (1 − c₁)(1 − c₂).
 */
function field(value: string | undefined, raw: Recognised, fit: number): OcrField {
  if (!value) return { confidence: 0, raw: raw.text };
  const again = raw.confirmation;
  const line = again ? 1 - (1 - raw.confidence) * (1 - again.confidence) : raw.confidence;
  // A value that fits its field's shape (12 digits with a valid check digit, a real past date...)
  // is mostly right even when Tesseract is unsure of kanji glyphs; one that does not fit is not.
  const confidence = fit * (0.5 + 0.5 * line);
  return {
    value,
    confidence: round2(raw.lastResort ? Math.min(LAST_RESORT_MAX_CONFIDENCE, confidence) : confidence),
    raw: raw.text,
    ...(raw.lastResort ? { lastResort: true } : {}),
    ...(again !== undefined ? { confirmed: again !== null } : {}),
  };
}

const DIGITS = '0123456789 ';

/** The words of a name line without the label 氏名 / NAME before the name, when the crop caught it. */
function withoutNameLabel(words: OcrRecognition['words']): OcrRecognition['words'] {
  const joined = words.slice(0, 2).map((w) => w.text.replace(/\s+/g, ''));
  if (joined[0] === '氏名' || joined[0]?.toUpperCase() === 'NAME') return words.slice(1);
  if (joined[0] === '氏' && joined[1] === '名') return words.slice(2);
  return words;
}

/** The document number printed on the front (a My Number card prints its number on the back). */
function readDocumentNumber(type: DocumentType, text: string): string | undefined {
  if (type === 'drivers_license') return readDigits(text, 12);
  if (type === 'residence_card') return readResidenceCardNumber(text);
  if (type === 'passport') return readPassportNumber(text);
  return undefined;
}

/** An address as read has the shape of one: a prefecture name in capitals on a passport. */
function fitsAddress(type: DocumentType, address: string): boolean {
  return type === 'passport' ? /^[A-Z]{3,12}$/.test(address) : isPlausibleAddress(address);
}

/**
 * A key field read less sure than this is read again (readRegion `confirm`): below
 * ~0.6 the field alone keeps the overall confidence under OCR_CONFIDENCE_THRESHOLD, and a
 * second reading of the same value is what can lift it (docs/ocr.md "Confidence").
 */
const CONFIRM_BELOW = 0.7;

/** What a correct reading of each field looks like, to decide whether to read it again. */
function acceptorsFor(
  type: DocumentType,
  reference: Date,
): Partial<Record<FieldName, (text: string) => boolean>> {
  const latinName = (t: string) => /^[A-Z]{2,} [A-Z][A-Z ]*$/.test(t.trim());
  // As splitNameLine reads the line: marks, digits and a box's rule read as | are not the name.
  const kanjiName = (t: string) =>
    /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]{2,8}$/u.test(
      t.normalize('NFKC').replace(/[\s\p{P}\p{S}\d]/gu, ''),
    );
  return {
    name: type === 'residence_card' ? latinName : kanjiName,
    birthDate: (t) => isPlausibleBirthDate(readPrintedDate(t, reference), reference),
    expiryDate: (t) => isPlausibleExpiryDate(readPrintedDate(t, reference), reference),
    address: (t) => fitsAddress(type, type === 'passport' ? t.trim() : cleanAddress(t)),
    documentNumber: (t) => type === 'my_number_card' || readDocumentNumber(type, t) !== undefined,
    // The licence's issuer is read again when it names no prefecture (its small red print).
    ...(type === 'drivers_license' ? { issuer: (t: string) => issuerArea(type, t) !== undefined } : {}),
  };
}
const MRZ_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

const READ_FIELDS: readonly FieldName[] = [
  'name',
  'lastNameLatin',
  'firstNameLatin',
  'birthDate',
  'address',
  'documentNumber',
  'expiryDate',
  'issuer',
  'sex',
  'mrz1',
  'mrz2',
];

/**
 * Tesseract passes one document may spend (both languages together). A real card reads in 7–16
 * (the title, the top strip, one pass per field, a confirmation or two); every pass beyond the
 * first reading of a field is a fallback — another scale, a local threshold, a wider search, the
 * card turned, another type's evidence — and those stop once the budget is spent, so a capture
 * nothing reads costs a bounded time instead of every fallback of every field. The fallbacks are
 * tried best first (readRegion), so what the budget cuts off is what pays off least.
 */
export const READ_BUDGET = 24;
/** Further passes for a back (the My Number card's: its number at four scales, name, birth date). */
const BACK_READ_BUDGET = 12;

/**
 * The engine with each reading kept for one document: the same crop read the same way is read
 * once (a licence number's zone searched when telling the type, then again as the field; a front
 * value read again at 1× before a disagreement with the back counts). The passes are counted
 * against the document's budget (`spare` while it lasts; `tally` is shared by both languages).
 */
function readingOnce(engine: OcrEngine, tally: { reads: number; budget: number }): BudgetedEngine {
  const readings = new Map<string, Promise<OcrRecognition>>();
  const recognize: OcrEngine['recognize'] = (image, options = {}) => {
    const key = `${options.psm ?? ''}|${options.charWhitelist ?? ''}|${options.binarization ?? ''}|${JSON.stringify(options.rectangle ?? null)}|${createHash('sha1').update(image).digest('hex')}`;
    let reading = readings.get(key);
    if (!reading) {
      tally.reads++;
      reading = engine.recognize(image, options);
      readings.set(key, reading);
      reading.catch(() => readings.delete(key));
    }
    return reading;
  };
  return Object.defineProperties(Object.create(engine) as BudgetedEngine, {
    recognize: { value: recognize },
    spare: { get: () => tally.reads < tally.budget },
  });
}

export function createOcrCheck(options: OcrCheckOptions = {}): Check<OcrCheckInput, OcrCheckResult> {
  const loadEngine = options.engine ?? getOcrEngineFor;
  const now = options.now ?? (() => new Date());
  const geometry = options.geometry ?? geometryInThisThread;
  /** The photo rectified to the layout (the card's or the passport page's). */
  const warpTo = (grey: GreyImage, corners: [number, number][], layout: Layout) =>
    geometry.warp(
      grey,
      corners,
      Math.round(layout.width * layout.scale),
      Math.round(layout.height * layout.scale),
    );
  return {
    id: ocrDefinition.id,
    version: OCR_CHECK_VERSION,
    async run(input) {
      const started = performance.now();
      const timingsMs: Record<string, number> = {};
      const lap = (name: string, since: number) => {
        timingsMs[name] = Math.round(performance.now() - since);
      };
      const tally = { reads: 0, budget: READ_BUDGET };
      const ocr: Engines = {
        jpn: readingOnce(await loadEngine(['jpn']), tally),
        eng: readingOnce(await loadEngine(['eng']), tally),
      };
      const reference = now();
      const model = `${MODEL_DESCRIPTION} (jpn for Japanese fields, eng for Latin fields, mrz then eng for an MRZ found anywhere); mimoto ocr pipeline ${OCR_CHECK_VERSION}`;
      const base = { provider: PROVIDER, model };
      // Set once the outline is looked for, before any result is returned.
      let documentOutline: DocumentOutline | null = null;
      const unsupported = (reason: string, extras: Partial<OcrExtras> = {}): OcrCheckResult => ({
        result: {
          success: false,
          confidence: 0,
          payload: {},
          reason,
          status: 'low_confidence',
          ...base,
          unsupportedDocumentType: 'unknown',
        },
        extras: { documentTypeMismatch: false, fields: {}, documentOutline, timingsMs, ...extras },
      });

      // The MRZ anywhere in the photo (locate-mrz.ts), looked for once, when the card's own layout
      // gives no answer: a flat scan with no outline, a passport of another state, an ID card.
      let mrzSearch: Promise<MrzFound | undefined> | undefined;
      const locatedMrz = () => {
        mrzSearch ??= (async () => {
          const since = performance.now();
          // The MRZ model first (trained on MRZ lines, it tells 8 from B and 0 from O where eng
          // does not), eng again where its check digits fail.
          const mrzModel = readingOnce(await loadEngine(['mrz']), tally);
          const found = await findMrz(mrzModel, input.front, ocr.eng);
          lap('mrz', since);
          return found;
        })();
        return mrzSearch;
      };
      const fromMrz = (found: MrzFound, frontOutline?: OcrExtras['frontOutline']): OcrCheckResult => {
        const read = mrzOnlyResult(found, {
          expectedDocumentType: input.expectedDocumentType,
          reference: now(),
          base,
          timingsMs,
          ...(frontOutline ? { frontOutline } : {}),
        });
        return { ...read, extras: { ...read.extras, documentOutline } };
      };

      // A passport's MRZ is looked for while the outline is (the outline search runs in the
      // geometry thread): it usually decides alone (below).
      // (Its failure, if any, surfaces where it is awaited, not as an unhandled rejection.)
      if (input.expectedDocumentType === 'passport') locatedMrz().catch(() => undefined);
      let t = performance.now();
      const located = await geometry.locate(input.front);
      lap('locate', t);
      documentOutline = located?.outline ?? null;
      // No outline (a flat scan, a close-up or a screenshot: the card fills the frame and no surface
      // shows around it): the whole photo is read as the card, put landscape. It is taken only when
      // its content names a type; otherwise nothing was found.
      const wholeFrame = !located || located.outline.coverage < 0.1;
      const front =
        located && !wholeFrame ? located : { grey: located?.grey ?? (await decodePhoto(input.front)) };
      const { width: w, height: h } = front.grey;
      const corners: [number, number][] =
        'outline' in front
          ? front.outline.corners
          : w >= h
            ? [
                [0, 0],
                [w, 0],
                [w, h],
                [0, h],
              ]
            : [
                [0, h],
                [0, 0],
                [w, 0],
                [w, h],
              ];
      const frontOutline = {
        corners,
        coverage: 'outline' in front ? round2(front.outline.coverage) : 1,
      };

      // A passport the user chose: its MRZ first. Another state's passport (or an ID card or visa)
      // has no Japanese layout to read, so its MRZ is the reading, and the card layouts' passes
      // are not spent on it; a Japanese passport goes on to its printed fields (the zone found is
      // reused there).
      if (input.expectedDocumentType === 'passport') {
        const found = await locatedMrz();
        if (found && isForeignMrz(found.reading))
          return fromMrz(found, wholeFrame ? undefined : frontOutline);
      }

      t = performance.now();
      // The outline is put landscape; whether the document is upside down shows only in its text,
      // so when nothing is recognised the other way up is tried too.
      // The passport page is warped when classify looks for an MRZ, or when the type is passport.
      const pageOnce = (at: [number, number][]) => {
        let page: Promise<GreyImage> | undefined;
        return () => {
          page ??= warpTo(front.grey, at, PASSPORT_LAYOUT);
          return page;
        };
      };
      const turned = [2, 3, 0, 1].map((i) => corners[i] as [number, number]);
      // The outline found may not be the card's (a card cut by the frame's edge on a bright
      // surface): when nothing names a type on it, the whole photo is read as the card once more.
      const whole: [number, number][] | undefined =
        !wholeFrame && frontOutline.coverage < 0.8 && w >= h
          ? [
              [0, 0],
              [w, 0],
              [w, h],
              [0, h],
            ]
          : undefined;
      const tries = [corners, turned, ...(whole ? [whole] : [])];
      const cards = new Map<number, Promise<GreyImage>>();
      const cardAt = (i: number) => {
        let c = cards.get(i);
        if (!c) {
          c = warpTo(front.grey, tries[i] as [number, number][], CARD_LAYOUT);
          cards.set(i, c);
        }
        return c;
      };
      const quick = input.expectedDocumentType === 'drivers_license';
      const verticals = new Map<number, { text: string; confidence: number }>();
      const classifyAt = async (i: number) => {
        const atCard = await cardAt(i);
        const atPage = pageOnce(tries[i] as [number, number][]);
        return {
          at: i,
          card: atCard,
          passportPage: atPage,
          classification: await classify(ocr, atCard, atPage, input.expectedDocumentType, verticals.get(i)),
        };
      };
      let reading: Awaited<ReturnType<typeof classifyAt>> | undefined;
      if (quick)
        for (let i = 0; i < tries.length && !reading; i++) {
          const atCard = await cardAt(i);
          const { licence, vertical } = await quickOfficialLicence(ocr, atCard);
          verticals.set(i, vertical);
          if (licence)
            reading = {
              at: i,
              card: atCard,
              passportPage: pageOnce(tries[i] as [number, number][]),
              classification: licence,
            };
        }
      if (!reading) {
        reading = await classifyAt(0);
        // The card turned, and the whole photo, are fallbacks too: read while the budget lasts.
        if (!reading.classification.type && ocr.jpn.spare) {
          const again = await classifyAt(1);
          if (again.classification.type) reading = again;
        }
        if (!reading.classification.type && whole && ocr.jpn.spare) {
          const again = await classifyAt(2);
          if (again.classification.type) reading = again;
        }
      }
      if (reading.at === 2 && whole) {
        frontOutline.corners = whole;
        frontOutline.coverage = 1;
      }
      const { card, passportPage } = reading;
      let { classification } = reading;
      lap('classify', t);
      if (wholeFrame && !classification.type) {
        const found = await locatedMrz();
        if (found && isCredibleMrz(found.reading)) return fromMrz(found);
        return unsupported('no identity document found in the front image');
      }
      // A passport the user chose whose page the card layouts name otherwise (a foreign passport's
      // print can look like a residence card's to them): its MRZ, where one is found, decides.
      const passportNamedOtherwise =
        input.expectedDocumentType === 'passport' && classification.type !== 'passport';
      if (!classification.type || passportNamedOtherwise) {
        const found = await locatedMrz();
        if (found && isCredibleMrz(found.reading)) return fromMrz(found, frontOutline);
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
          return unsupported(
            `the front image is not a supported identity document (read: ${classification.evidence.slice(0, 120)})`,
            { frontOutline },
          );
        return {
          result: {
            success: false,
            confidence: 0,
            payload: {},
            reason: 'a document was found but its type could not be read (capture too poor)',
            status: 'low_confidence',
            ...base,
          },
          extras: { documentTypeMismatch: false, fields: {}, frontOutline, documentOutline, timingsMs },
        };
      }
      const type = classification.type;
      const documentTypeMismatch =
        (DOCUMENT_TYPES as readonly string[]).includes(input.expectedDocumentType) &&
        input.expectedDocumentType !== type;

      t = performance.now();
      const layout = layoutOf(type);
      const variant = LAYOUT_VARIANT[type];
      const page = type === 'passport' ? await passportPage() : card;
      const regions = FRONT_FIELDS[type];
      const accept = acceptorsFor(type, reference);
      const script = type === 'residence_card' ? 'latin' : 'kanji';
      const readName = (r: Recognised) =>
        type === 'passport'
          ? splitNameLine([{ text: r.words.map((w) => w.text).join(''), x0: 0, x1: 1 }], 'kanji')
          : splitNameLine(
              withoutNameLabel(r.words).map((w) => ({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1 })),
              script,
            );
      // The key fields' values, as two readings are compared (a name as its characters: where the
      // line splits is not what a second reading confirms).
      const keyValue: Partial<Record<FieldName, (r: Recognised) => string | undefined>> = {
        name: (r) => {
          const n = readName(r);
          return n && `${n.lastName}${n.firstName}`;
        },
        birthDate: (r) => readPrintedDate(r.text, reference),
        // Extra characters around a residence card number make the 12 chosen ambiguous: no vote.
        documentNumber: (r) =>
          type === 'residence_card' && residenceCardNumberLength(r.text) !== 12
            ? undefined
            : readDocumentNumber(type, r.text),
      };
      const read = async (
        name: FieldName,
        opts?: {
          psm?: string;
          whitelist?: string;
          confirm?: NonNullable<Parameters<typeof readRegion>[4]>['confirm'];
          stretchX?: number;
          eraseRules?: boolean;
          searchMargin?: number;
          rereadAt?: readonly number[];
        },
      ) => {
        const region = regions[name];
        const engine = LATIN_FIELDS[type].includes(name) ? ocr.eng : ocr.jpn;
        const acceptor = accept[name];
        const value = keyValue[name];
        return region
          ? readRegion(engine, page, region, layout, {
              ...(acceptor ? { accept: acceptor } : {}),
              ...(value ? { confirm: { below: CONFIRM_BELOW, value } } : {}),
              ...opts,
            })
          : undefined;
      };
      // What the checks use: the licence's 交付 date, say, is printed but not read.
      const names = (Object.keys(regions) as FieldName[]).filter((n) => READ_FIELDS.includes(n));
      const readings = new Map<FieldName, Recognised>();
      // The official licence prints its 有効期限 band in condensed glyphs.
      const condensed = (name: FieldName) =>
        variant === 'official' && type === 'drivers_license' && name === 'expiryDate';
      await Promise.all(
        names.map(async (name) => {
          const isMrz = name === 'mrz1' || name === 'mrz2';
          const r = await read(name, {
            ...(isMrz ? { whitelist: MRZ_CHARS } : {}),
            ...(condensed(name) ? { stretchX: 1.3 } : {}),
            ...(variant === 'official' ? { eraseRules: true, searchMargin: 40 } : {}),
            // The licence prints its issuer on two lines under the portrait (北海道 / 公安委員会),
            // in small red type: read as a block, then with its gaps closed (cropWithoutRules),
            // and no further (an issuer is a cue of the document check, no field the reading needs).
            ...(name === 'issuer' && type === 'drivers_license'
              ? { psm: PAGE_SEGMENTATION.singleBlock, rereadAt: [], searchMargin: 0 }
              : {}),
          });
          if (r) readings.set(name, r);
        }),
      );
      lap('fields', t);
      const get = (name: FieldName): Recognised =>
        readings.get(name) ?? { text: '', confidence: 0, words: [] };

      // Names.
      const nameRead = get('name');
      const name = readName(nameRead);
      const nameFits = name && (script === 'latin' ? isPlausibleLatinName(name) : isPlausibleKanjiName(name));
      const fields: OcrExtras['fields'] = {};
      fields.name = field(
        name ? `${name.lastName} ${name.firstName}` : undefined,
        nameRead,
        nameFits ? 1 : 0.5,
      );

      // Birth date (passports: the MRZ, check-digit validated, confirms or replaces the print).
      const birthRead = get('birthDate');
      const printedBirth = readPrintedDate(birthRead.text, reference);
      fields.birthDate = field(
        printedBirth,
        birthRead,
        isPlausibleBirthDate(printedBirth, reference) ? 1 : 0.3,
      );

      // Address.
      const addressRead = get('address');
      const address = cleanAddress(addressRead.text);
      const addressFits = fitsAddress(type, address);
      // A prefecture the list does not hold (a specimen's 見本県, a misread one) fits less well.
      const addressFit = !addressFits ? 0.6 : type === 'passport' || startsWithPrefecture(address) ? 1 : 0.9;
      fields.address = field(address || undefined, addressRead, addressFit);

      // Expiry date.
      const expiryRead = get('expiryDate');
      const expiryDate = readPrintedDate(expiryRead.text, reference);
      const expiry = isPlausibleExpiryDate(expiryDate, reference) ? expiryDate : undefined;
      fields.expiryDate = field(expiry, expiryRead, expiry ? 1 : 0.3);

      // Document number.
      const numberRead = get('documentNumber');
      let documentNumber = readDocumentNumber(type, numberRead.text);
      const unconfirmed = numberRead.confidence < CONFIRM_BELOW && !numberRead.confirmation;
      if (type === 'drivers_license' && (!documentNumber || unconfirmed)) {
        // The jpn model drops a digit now and then, or reads clean digits unsure and differently
        // at every scale (50195526271 1, S019SS26220 1); the digits alone, read by eng, are the
        // fallback: they confirm an unsure jpn reading, or replace it when eng reads them surely.
        // Read past the budget too: one pass, and the one that pays off most for a key field (on
        // poor synthetic licences the jpn rereads at other scales read 11 digits where it reads 12).
        const digits = await readRegion(ocr.eng, page, LICENCE_NUMBER_DIGITS, layout, {
          whitelist: DIGITS,
        });
        const read = readDigits(digits.text, 12);
        if (!documentNumber) {
          documentNumber = read;
          if (read) numberRead.confidence = Math.min(numberRead.confidence, digits.confidence) * 0.95;
        } else if (read === documentNumber) numberRead.confirmation = digits;
        else if (read && digits.confidence >= CONFIRM_BELOW) {
          documentNumber = read;
          numberRead.confidence = digits.confidence * 0.9;
        }
      }
      // Extra characters around a residence card number make the 12 chosen ambiguous.
      const numberFit =
        type === 'residence_card' && residenceCardNumberLength(numberRead.text) !== 12 ? 0.6 : 1;
      if (type !== 'my_number_card')
        fields.documentNumber = field(documentNumber, numberRead, documentNumber ? numberFit : 0.3);

      const extras: OcrExtras = {
        documentTypeMismatch,
        fields,
        frontOutline,
        documentOutline,
        layout: variant,
        timingsMs,
      };
      const sex = readPrintedSex(get('sex').text);
      if (sex) extras.sex = sex;

      // The issuer names the area the printed address lies in (issuing-authority.ts).
      const issuerRead = readings.get('issuer');
      if (issuerRead) {
        const area = issuerArea(type, issuerRead.text);
        extras.issuer = field(area, issuerRead, 1);
        const address = fields.address;
        const sure = (f: OcrField) => f.confidence >= CROSS_CHECK_CONFIDENCE.issuer;
        if (
          area &&
          address.value &&
          sure(address) &&
          sure(extras.issuer) &&
          addressOutsideArea(type, address.value, area)
        )
          extras.addressOutsideIssuer = area;
      }

      // Passport MRZ.
      if (type === 'passport') {
        // The layout's lines; when their check digits fail, the zone located and read on its own
        // (another state's passport prints it elsewhere) if its check digits hold.
        const atLayout = readMrz(get('mrz1').text, get('mrz2').text);
        const located = atLayout?.valid ? undefined : (await locatedMrz())?.reading;
        const mrz = located?.valid || !atLayout ? (located ?? atLayout) : atLayout;
        if (mrz) {
          const mrzBirth = mrz.birthDate ? mrzDate(mrz.birthDate, 'birth', reference) : undefined;
          const mrzExpiry = mrz.expiryDate ? mrzDate(mrz.expiryDate, 'expiry', reference) : undefined;
          // A field's own check digit can pass by chance on a misaligned line; the composite
          // check digit (over number, birth and expiry dates) must pass too.
          const compositeOk = !mrz.invalidFields.includes('compositeCheckDigit');
          const numberOk = compositeOk && !mrz.invalidFields.includes('documentNumber') && mrz.documentNumber;
          const birthOk = compositeOk && !mrz.invalidFields.includes('birthDate') && mrzBirth;
          const expiryOk = compositeOk && !mrz.invalidFields.includes('expirationDate') && mrzExpiry;
          const printedNumberAgrees =
            !documentNumber ||
            !numberOk ||
            documentNumber === mrz.documentNumber ||
            isMisreadOfNumber(numberRead.text, numberOk);
          const matchesPrintedFields =
            printedNumberAgrees &&
            (!printedBirth || !birthOk || printedBirth === mrzBirth) &&
            // The printed date as read, plausible or not: a page valid twelve years, against a
            // check-digit-valid MRZ, is a re-typed date rather than a misread.
            (!expiryDate || !expiryOk || expiryDate === mrzExpiry);
          extras.mrz = { ...mrz, matchesPrintedFields };
          if (mrz.sex === 'male' || mrz.sex === 'female') extras.sex = mrz.sex === 'male' ? 'M' : 'F';
          // Check digits make the MRZ the more reliable reading; agreement raises confidence.
          if (numberOk && mrz.documentNumber) {
            const agree = documentNumber === mrz.documentNumber;
            documentNumber = mrz.documentNumber;
            fields.documentNumber = {
              value: documentNumber,
              confidence: round2(agree ? Math.max(0.95, fields.documentNumber?.confidence ?? 0) : 0.85),
              raw: numberRead.text,
            };
          } else if (
            fields.documentNumber?.confirmed &&
            mrz.documentNumber &&
            mrz.documentNumber !== documentNumber &&
            !mrz.invalidFields.some((f) => f === 'documentNumber' || f === 'documentNumberCheckDigit')
          ) {
            // Without the composite the MRZ number is not taken, but one whose own check digit
            // holds still speaks against a printed number read otherwise: that reading is not
            // confirmed by being read twice (a blurred TZ2279449 read TZ2279544 at two scales).
            const { confirmation: _, ...once } = numberRead;
            fields.documentNumber = field(documentNumber, once, numberFit);
          }
          if (birthOk && mrzBirth) {
            const agree = printedBirth === mrzBirth;
            fields.birthDate = {
              value: mrzBirth,
              confidence: round2(agree ? Math.max(0.95, fields.birthDate.confidence) : 0.85),
              raw: birthRead.text,
            };
          }
          if (!mrzExpiry && fields.expiryDate.value === undefined) fields.expiryDate.confidence = 0;
          else if (!fields.expiryDate.value && mrzExpiry && !mrz.invalidFields.includes('expirationDate'))
            fields.expiryDate = { value: mrzExpiry, confidence: 0.85, raw: expiryRead.text };
        }
        // The MRZ names carry no check digit and fillers are misread as letters (YUTO<< → YUTQO),
        // so the printed Latin names, in a plain font, are preferred; the MRZ is the fallback.
        const printedLatin = (field: FieldName) =>
          get(field)
            .text.replace(/[^A-Za-z ]/g, '')
            .trim()
            .toUpperCase();
        const last = printedLatin('lastNameLatin');
        const first = printedLatin('firstNameLatin');
        if (/^[A-Z][A-Z ]*$/.test(last) && /^[A-Z][A-Z ]*$/.test(first))
          extras.latinName = { lastName: last, firstName: first };
        else if (extras.mrz?.lastName)
          extras.latinName = { lastName: extras.mrz.lastName, firstName: extras.mrz.firstName ?? '' };
        if (extras.mrz && extras.latinName)
          extras.mrz.namesMatchPrinted =
            extras.mrz.lastName === extras.latinName.lastName &&
            extras.mrz.firstName === extras.latinName.firstName;
      }

      // Back side: the My Number; a residence card's full address.
      const backRegions = BACK_FIELDS[type];
      if (input.back && backRegions) {
        t = performance.now();
        // The back has a budget of its own: a front that spent the document's leaves it its reads.
        tally.budget = Math.max(tally.budget, tally.reads) + BACK_READ_BUDGET;
        const back = await geometry.locate(input.back);
        if (back) {
          const backCard = await warpTo(back.grey, back.outline.corners, CARD_LAYOUT);
          const readBack = (
            engine: OcrEngine,
            region: Region | undefined,
            opts: Parameters<typeof readRegion>[4],
          ) => (region ? readRegion(engine, backCard, region, CARD_LAYOUT, opts) : undefined);
          const [numberBack, nameBack, birthBack, addressBack] = await Promise.all([
            readBack(ocr.eng, backRegions.myNumber, {
              whitelist: DIGITS,
              accept: (t) => isValidMyNumber(readDigits(t, 12) ?? ''),
              // Printed twice as tall as the other lines (about 66 px here), where the model reads
              // digits worse: my_number_card-genuine-9 of the accuracy corpus read …7350 as …7338
              // at 1×, nothing at 1.4×, …7358 at 0.75×, right at 0.5×. A printed wrong digit read
              // at 0.5× too still reads alike (24 of the corpus's 25 bad_check_digit My Number cards;
              // the 25th, a poor capture, reads nothing at 1× already).
              rereadAt: [1.4, 0.75, 0.5],
            }),
            readBack(ocr.jpn, backRegions.name, { accept: accept.name }),
            readBack(ocr.jpn, backRegions.birthDate, { accept: accept.birthDate }),
            readBack(ocr.jpn, backRegions.address, { accept: (t) => isPlausibleAddress(cleanAddress(t)) }),
          ]);
          if (numberBack) {
            const myNumber = readDigits(numberBack.text, 12);
            const valid = myNumber !== undefined && isValidMyNumber(myNumber);
            fields.myNumber = field(myNumber, numberBack, valid ? 1 : 0.4);
            extras.myNumber = myNumber;
            // Twelve digits not read is no check-digit verdict: nothing was checked. Nor are twelve
            // digits that read otherwise at another scale: a misread (three genuine cards of the
            // accuracy corpus), where a printed wrong digit reads the same at every scale (its 11
            // bad_check_digit My Number cards).
            const stable =
              !numberBack.budgetSpent &&
              (numberBack.rereads ?? []).every((t) => readDigits(t, 12) === myNumber);
            if (myNumber !== undefined && (valid || stable)) extras.myNumberCheckDigitValid = valid;
            documentNumber = myNumber;
            fields.documentNumber = fields.myNumber;
          }
          if (nameBack && birthBack) {
            // The My Number card's back prints the name and birth date again: a front value
            // re-typed after issue disagrees with it, and two reads that agree confirm each other.
            const backName = splitNameLine(
              nameBack.words.map((w) => ({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1 })),
              'kanji',
            );
            const backBirth = readPrintedDate(birthBack.text, reference);
            const frontBirth = fields.birthDate.value;
            if (frontBirth && backBirth && frontBirth !== backBirth) {
              // Before a disagreement counts, the front is read again at other scales: the jpn
              // model merges two like glyphs at one scale now and then (7月11日 read 7月1日, sure
              // of it); two readings that agree with each other and with the back settle it.
              const date = (r: Recognised) => readPrintedDate(r.text, reference);
              const again = await read('birthDate', {
                confirm: { below: Number.POSITIVE_INFINITY, value: date },
              });
              if (again?.confirmation && date(again) === backBirth)
                fields.birthDate = field(backBirth, again, 1);
            }
            extras.back = {
              name: field(
                backName ? `${backName.lastName} ${backName.firstName}` : undefined,
                nameBack,
                backName && isPlausibleKanjiName(backName) ? 1 : 0.5,
              ),
              birthDate: field(backBirth, birthBack, isPlausibleBirthDate(backBirth, reference) ? 1 : 0.3),
            };
            extras.backDisagrees = backDisagreements(fields, extras.back);
            for (const name of ['name', 'birthDate'] as const) {
              const front = fields[name];
              const again = extras.back[name];
              if (front?.value !== undefined && front.value === again?.value)
                front.confidence = Math.max(front.confidence, again.confidence);
            }
          }
          if (addressBack) {
            const backAddress = cleanAddress(addressBack.text);
            // A residence card's back records the address (a move adds an entry there): read as a
            // plausible address it is the one to report, printed whole where the front's line is
            // cut by the portrait. A front re-typed to another address then disagrees with it.
            if (
              isPlausibleAddress(backAddress) ||
              (startsWithPrefecture(backAddress) && backAddress.length >= (fields.address.value?.length ?? 0))
            )
              fields.address = field(backAddress, addressBack, 1);
          }
        }
        lap('back', t);
      }
      extras.documentNumber = documentNumber;
      extras.expiryDate = fields.expiryDate.value;

      // Overall: the weakest of the identifying fields (a wrong name or birth date is what hurts).
      // The My Number card prints its number on the back only: a front alone lacks nothing it holds.
      const numberExpected = type !== 'my_number_card' || input.back !== undefined;
      const key = [
        fields.name,
        fields.birthDate,
        ...(numberExpected ? [fields.documentNumber ?? { confidence: 0 }] : []),
      ];
      const keyMin = Math.min(...key.map((f) => f?.confidence ?? 0));
      // An address that does not even look like one is left out rather than passed on wrong; what
      // is not delivered has no confidence (a poor capture whose address line is illegible, the
      // rest read, had stayed at 0.8: an attack re-typed there went through unread).
      const deliverAddress = fields.address.value !== undefined && fitsAddress(type, fields.address.value);
      const addressConfidence = deliverAddress ? fields.address.confidence : 0;
      const measured =
        Math.min(keyMin, 0.7 + 0.3 * addressConfidence) * 0.9 + 0.1 * classification.confidence;
      // A capture on which a delivered line could only be read with a local threshold is a poor one
      // (an address read so had lifted two poor passports with a bad MRZ check digit to success).
      const lastResort = classification.assumed || Object.values(fields).some((f) => f?.lastResort);
      const confidence = round2(lastResort ? Math.min(LAST_RESORT_MAX_CONFIDENCE, measured) : measured);
      const status = confidence >= OCR_CONFIDENCE_THRESHOLD ? 'success' : 'low_confidence';
      // A check digit failing on a capture too poor to read the printed fields with confidence is
      // no sign of a printed wrong digit: a poor genuine passport whose number and birth date could
      // not be read failed only its composite digit. The capture goes to review as a poor one.
      if (extras.mrz && status === 'low_confidence' && !extras.mrz.valid) extras.mrz.poorCapture = true;
      // A card is rejected as expired on this date alone, and a poor capture misreads dates as
      // plausible ones (2028 as 2025 at one scale, nothing at the others): it is relied on when
      // the capture passed the threshold, a check-digit-valid MRZ gives the same date, or — a
      // poor capture saying "expired" — a reading at another scale gives it again.
      if (extras.expiryDate) {
        extras.expiryDateReliable =
          status === 'success' ||
          (extras.mrz?.valid === true &&
            extras.mrz.expiryDate !== undefined &&
            mrzDate(extras.mrz.expiryDate, 'expiry', reference) === extras.expiryDate);
        if (!extras.expiryDateReliable && extras.expiryDate < reference.toISOString().slice(0, 10)) {
          const date = (r: Recognised) => readPrintedDate(r.text, reference);
          const again = await read('expiryDate', {
            confirm: { below: Number.POSITIVE_INFINITY, value: date },
          });
          extras.expiryDateReliable = again?.confirmation != null && date(again) === extras.expiryDate;
        }
      }
      const missing = (
        [
          ['name', fields.name.value],
          ['birthDate', fields.birthDate.value],
          ['documentNumber', numberExpected ? documentNumber : 'not printed on the front'],
        ] as const
      )
        .filter(([, v]) => !v)
        .map(([n]) => n);
      const reasons: string[] = [];
      if (documentTypeMismatch)
        reasons.push(`document_type_mismatch: expected ${input.expectedDocumentType}, detected ${type}`);
      if (classification.assumed) reasons.push(`type not readable: read as the chosen ${type}`);
      if (missing.length > 0) reasons.push(`could not read: ${missing.join(', ')}`);
      if (status === 'low_confidence')
        reasons.push(`confidence ${confidence} below ${OCR_CONFIDENCE_THRESHOLD}`);
      if (extras.mrz && !extras.mrz.valid)
        reasons.push(`MRZ check failed: ${extras.mrz.invalidFields.join(', ')}`);
      if (extras.myNumberCheckDigitValid === false) reasons.push('My Number check digit failed');
      else if (extras.myNumber !== undefined && extras.myNumberCheckDigitValid === undefined)
        reasons.push('My Number not read cleanly (its digits differ between readings)');
      timingsMs.total = Math.round(performance.now() - started);
      extras.reads = tally.reads;

      const payload: NonNullable<OcrResult['payload']> = {};
      if (name && fields.name.value) {
        payload.lastName = name.lastName;
        payload.firstName = name.firstName;
      }
      if (fields.birthDate.value) payload.birthDate = fields.birthDate.value;
      if (deliverAddress) payload.address = fields.address.value;
      else reasons.push('address unreadable');
      return {
        result: {
          success: missing.length === 0,
          confidence,
          payload,
          reason: reasons.length > 0 ? reasons.join('; ') : 'ok',
          status,
          ...base,
          // An assumed type was not detected: none is reported (the decision's face-photo rule
          // reads its absence as "no document recognised").
          ...(classification.assumed
            ? {}
            : { detectedDocumentType: type, detectedDocumentTypeConfidence: classification.confidence }),
        },
        extras,
      };
    },
  };
}

/** The process-wide ocr check (the shared engine, the real clock). */
export const ocrCheck = createOcrCheck();
