// What the ocr check returns (interface §2.6 and the extras the decision and fraud checks read),
// and how a field's confidence is made from its reading.
import type { Static } from '@sinclair/typebox';
import type { OcrResultSchema } from '../../domain/index.ts';
import type { LayoutVariant } from './document-regions.ts';
import type { DocumentOutline } from './find-document.ts';
import { type MrzReading, type MrzVerdictFacts, mrzFailureKind } from './read-mrz.ts';
import type { Recognised } from './read-region.ts';

export type OcrResult = Static<typeof OcrResultSchema>;

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
  /**
   * A licence whose birth date and expiry, as read, break the rule that it expires one month after
   * a birthday (documents/card-validity.ts), even after each was read again: one is misread.
   */
  licenceDatesDisagree?: true;
  /** A licence's address taken from the last change of address its back's 備考 records (licence-remarks.ts). */
  addressFromRemarks?: true;
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

export interface OcrCheckResult {
  /** Exactly the interface §2.6 object. */
  result: OcrResult;
  extras: OcrExtras;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A value only the last-resort reading gave is useful (to compare, to show a reviewer) but comes
 * from a capture too poor to pass on: the field and the whole reading stay below the threshold.
 */
export const LAST_RESORT_MAX_CONFIDENCE = 0.7;

/**
 * A field from its line's reading. `fit` is how well the value fits its field's shape; when a
 * second reading gave the same value (readRegion's `confirmation`), the two line confidences
 * combine as independent evidence, 1 − (1 − c₁)(1 − c₂).
 */
export function field(value: string | undefined, raw: Recognised, fit: number): OcrField {
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
