// The OCR result when the MRZ is all there is to go on: a passport page scanned flat (no card
// outline to warp to a layout), a passport of another state (no Japanese field layout), an
// identity card or visa with an MRZ. The MRZ gives the name, birth date, document number and
// expiry date; its check digits say how far to trust them (interface §2.6 fields only).
import { MIN_MRZ_PITCH_PX, type MrzFound } from './locate-mrz.ts';
import { OCR_CONFIDENCE_THRESHOLD, type OcrCheckResult, type OcrExtras } from './ocr-result.ts';
import { isKnownState, type MrzReading, mrzDate, stateCodesOf } from './read-mrz.ts';

/** The document type an MRZ names (ICAO 9303 document code), or what is reported as unsupported. */
export function documentTypeOfMrz(found: MrzFound): { type: 'passport' } | { unsupported: string } {
  const code = found.reading.documentCode ?? '';
  // Part 4 §4.2.2.1: P for passports (a second letter at the state's discretion); Part 5/6: A, C, I
  // for identity cards; Part 7: V for visas.
  if (found.reading.format === 'TD3' && code.startsWith('P')) return { type: 'passport' };
  if (code.startsWith('V')) return { unsupported: 'visa' };
  return { unsupported: 'foreign_id_card' };
}

/**
 * A Japanese passport's zone: its issuing state or nationality reads JPN, one character off
 * included, whatever layout it was read as (a misread Japanese passport, even one whose line
 * length was misjudged, still has its printed page to read). Anything else
 * with an MRZ — another state's passport, an ID card, a visa — is read from its MRZ alone.
 */
export function isJapaneseMrz(reading: MrzReading): boolean {
  const near = (code: string | undefined) =>
    !!code && code.length === 3 && [...code].filter((c, i) => c === 'JPN'[i]).length >= 2;
  return near(reading.issuingState) || near(reading.nationality);
}

/**
 * Why a reading whose check digits hold is still not sure, or undefined when it is. A zone under
 * `MIN_MRZ_PITCH_PX` a character: its look-alikes blur into each other, and check digits then
 * hold by chance (one in ten per field) on a field read wrong.
 */
export function mrzDoubt(found: MrzFound): string | undefined {
  const r = found.reading;
  if (!r.valid) return undefined;
  const count = r.format === 'TD1' ? 30 : r.format === 'TD2' || r.format === 'MRVB' ? 36 : 44;
  const pitch = found.band.length / count;
  if (pitch < MIN_MRZ_PITCH_PX)
    return `the zone is too small to tell look-alike characters apart (${pitch.toFixed(1)} px a character)`;
  const known = stateCodesOf(r).some(isKnownState);
  if (!known) return "neither state code in the zone is a state's (misread)";
  return undefined;
}

/**
 * A zone that is surely another state's document, to be read from its MRZ alone: not a Japanese
 * passport's, and credible as a zone at all — its check digits hold, or a state code in it is a
 * state's (long lines of other print, a licence's, can pass for a misread zone).
 */
export function isForeignMrz(reading: MrzReading): boolean {
  return !isJapaneseMrz(reading) && isCredibleMrz(reading);
}

/** A zone at all: its check digits hold, or a state code in it is a state's. */
export function isCredibleMrz(reading: MrzReading): boolean {
  return reading.valid || stateCodesOf(reading).some(isKnownState);
}

export interface MrzOnlyFields {
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  expiryDate?: string;
  documentNumber?: string;
  sex?: 'M' | 'F';
  /** 0–1: high only when every check digit holds. */
  confidence: number;
}

/**
 * The fields an MRZ gives. Names carry no check digit, so a reading whose check digits hold stands
 * at 0.9 (above the OCR threshold: number and dates are confirmed), one whose checks fail at 0.5.
 */
export function fieldsOfMrz(found: MrzFound, reference: Date): MrzOnlyFields {
  const r = found.reading;
  const dateOk = (field: string) => !r.invalidFields.includes(field);
  const birth = r.birthDate && dateOk('birthDate') ? mrzDate(r.birthDate, 'birth', reference) : undefined;
  const expiry =
    r.expiryDate && dateOk('expirationDate')
      ? mrzDate(r.expiryDate, 'expiry', reference, r.documentCode)
      : undefined;
  return {
    ...(r.lastName ? { lastName: r.lastName } : {}),
    ...(r.firstName ? { firstName: r.firstName } : {}),
    ...(birth ? { birthDate: birth } : {}),
    ...(expiry ? { expiryDate: expiry } : {}),
    ...(r.documentNumber && dateOk('documentNumber') ? { documentNumber: r.documentNumber } : {}),
    ...(r.sex === 'male' ? { sex: 'M' as const } : r.sex === 'female' ? { sex: 'F' as const } : {}),
    confidence: r.valid && !mrzDoubt(found) ? 0.9 : r.valid ? 0.6 : 0.5,
  };
}

/**
 * The whole OCR result from the MRZ alone. A passport (any issuing state) is detected as
 * `passport`; whether the tenant takes it was settled when the user chose the type (the hosted
 * flow offers the tenant's allowed types), so another chosen type is a `document_type_mismatch`.
 * An identity card or visa is no supported type: `unsupportedDocumentType` names it, so the
 * decision's `unsupported_document_type` applies.
 */
export function mrzOnlyResult(
  found: MrzFound,
  context: {
    expectedDocumentType: string;
    reference: Date;
    base: { provider: string; model: string };
    timingsMs: Record<string, number>;
    frontOutline?: OcrExtras['frontOutline'];
  },
): OcrCheckResult {
  const kind = documentTypeOfMrz(found);
  const f = fieldsOfMrz(found, context.reference);
  const doubt = mrzDoubt(found);
  const sure = found.reading.valid && !doubt;
  // A doubtful reading is a poor capture's: its check digits say nothing about the document.
  const mrz = { ...found.reading, matchesPrintedFields: true, ...(doubt ? { poorCapture: true } : {}) };
  // Printed in its issuer's layout (ICAO 9303), none of mimoto's synthetic ones: the document
  // check judges its values by the MRZ check digits, not by where a synthetic layout prints them.
  const outline = {
    layout: 'official' as const,
    ...(context.frontOutline ? { frontOutline: context.frontOutline } : {}),
  };
  const mrzLines = `MRZ ${found.reading.format} ${found.reading.valid ? 'check digits valid' : `check failed: ${found.reading.invalidFields.join(', ')}`}`;
  if ('unsupported' in kind)
    return {
      result: {
        success: false,
        confidence: 0,
        payload: {},
        reason: `the front image is not a supported identity document (${kind.unsupported}, ${mrzLines})`,
        status: 'low_confidence',
        ...context.base,
        unsupportedDocumentType: kind.unsupported,
      },
      // No fields are delivered, but what the document check judges is kept: an ID card or visa
      // is as open to a screen replay or an altered expiry as a passport.
      extras: {
        documentTypeMismatch: false,
        fields: {},
        mrz,
        timingsMs: context.timingsMs,
        ...(f.expiryDate ? { expiryDate: f.expiryDate, expiryDateReliable: sure } : {}),
        ...(f.sex ? { sex: f.sex } : {}),
        ...outline,
      },
    };
  const mismatch = context.expectedDocumentType !== 'passport';
  const field = (value: string | undefined) =>
    value
      ? { value, confidence: f.confidence, raw: found.reading.lines.join('\n') }
      : { confidence: 0, raw: '' };
  const name = f.lastName ? `${f.lastName} ${f.firstName ?? ''}`.trim() : undefined;
  const missing = [
    ['name', name],
    ['birthDate', f.birthDate],
    ['documentNumber', f.documentNumber],
  ].filter(([, v]) => !v);
  // No printed field was read beside the MRZ, so no address: the confidence stays the MRZ's.
  const confidence = missing.length === 0 ? f.confidence : Math.min(f.confidence, 0.5);
  const status = confidence >= OCR_CONFIDENCE_THRESHOLD ? 'success' : 'low_confidence';
  const reasons = [
    ...(mismatch
      ? [`document_type_mismatch: expected ${context.expectedDocumentType}, detected passport`]
      : []),
    ...(missing.length > 0 ? [`could not read: ${missing.map(([n]) => n).join(', ')}`] : []),
    ...(found.reading.valid ? [] : [`MRZ check failed: ${found.reading.invalidFields.join(', ')}`]),
    ...(doubt ? [`MRZ not sure: ${doubt}`] : []),
    'address unreadable (read from the MRZ alone)',
  ];
  return {
    result: {
      success: missing.length === 0,
      confidence,
      payload: {
        ...(f.lastName ? { lastName: f.lastName, firstName: f.firstName ?? '' } : {}),
        ...(f.birthDate ? { birthDate: f.birthDate } : {}),
      },
      reason: reasons.join('; '),
      status,
      ...context.base,
      detectedDocumentType: 'passport',
      detectedDocumentTypeConfidence: sure ? 0.9 : 0.6,
    },
    extras: {
      documentTypeMismatch: mismatch,
      fields: {
        name: field(name),
        birthDate: field(f.birthDate),
        documentNumber: field(f.documentNumber),
        expiryDate: field(f.expiryDate),
      },
      ...(f.documentNumber ? { documentNumber: f.documentNumber } : {}),
      ...(f.expiryDate ? { expiryDate: f.expiryDate, expiryDateReliable: sure } : {}),
      ...(f.sex ? { sex: f.sex } : {}),
      latinName: { lastName: f.lastName ?? '', firstName: f.firstName ?? '' },
      mrz,
      timingsMs: context.timingsMs,
      ...outline,
    },
  };
}
