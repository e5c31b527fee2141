// The last step of the reading: the result (interface §2.6) from the fields read — the overall
// confidence, the status, the reasons, the payload — and the results of a reading stopped early.
import type { Typed } from './classify-front.ts';
import { readPrintedDate } from './correct-fields.ts';
import type { FrontReading } from './interpret-front-fields.ts';
import type { MrzFound } from './locate-mrz.ts';
import { mrzOnlyResult } from './mrz-result.ts';
import {
  LAST_RESORT_MAX_CONFIDENCE,
  OCR_CONFIDENCE_THRESHOLD,
  type OcrCheckResult,
  type OcrExtras,
  type OcrResult,
  round2,
} from './ocr-result.ts';
import type { OcrRun } from './ocr-run.ts';
import { type FrontPage, fitsAddress, readField } from './read-front-fields.ts';
import { mrzDate } from './read-mrz.ts';
import type { Recognised } from './read-region.ts';

/** No document of ours read: nothing found, or another kind of card. */
export function unsupported(run: OcrRun, reason: string, extras: Partial<OcrExtras> = {}): OcrCheckResult {
  return {
    result: {
      success: false,
      confidence: 0,
      payload: {},
      reason,
      status: 'low_confidence',
      ...run.base,
      unsupportedDocumentType: 'unknown',
    },
    extras: {
      documentTypeMismatch: false,
      fields: {},
      documentOutline: run.documentOutline,
      timingsMs: run.timingsMs,
      ...extras,
    },
  };
}

/** A document found whose type nothing read tells: a capture too poor, not another document. */
export function unreadableType(run: OcrRun, frontOutline: OcrExtras['frontOutline']): OcrCheckResult {
  return {
    result: {
      success: false,
      confidence: 0,
      payload: {},
      reason: 'a document was found but its type could not be read (capture too poor)',
      status: 'low_confidence',
      ...run.base,
    },
    extras: {
      documentTypeMismatch: false,
      fields: {},
      frontOutline,
      documentOutline: run.documentOutline,
      timingsMs: run.timingsMs,
    },
  };
}

/** The MRZ alone is the reading (another state's passport, an ID card, a visa). */
export function fromMrz(
  run: OcrRun,
  found: MrzFound,
  frontOutline?: OcrExtras['frontOutline'],
): OcrCheckResult {
  const read = mrzOnlyResult(found, {
    expectedDocumentType: run.input.expectedDocumentType,
    reference: run.settings.now(),
    base: run.base,
    timingsMs: run.timingsMs,
    ...(frontOutline ? { frontOutline } : {}),
  });
  return { ...read, extras: { ...read.extras, documentOutline: run.documentOutline } };
}

export async function assembleResult(
  run: OcrRun,
  front: FrontPage,
  reading: FrontReading,
  classification: Typed,
): Promise<OcrCheckResult> {
  const { input, reference, timingsMs } = run;
  const { type } = front;
  const { fields, extras, documentNumber, name } = reading;
  const documentTypeMismatch = extras.documentTypeMismatch;
  extras.documentNumber = documentNumber;
  extras.expiryDate = fields.expiryDate.value;

  // Overall: the weakest of the identifying fields (a wrong name or birth date is what hurts).
  // The My Number card prints its number on the back only: a front alone lacks nothing it holds.
  const numberExpected = front.definition.number !== undefined || input.back !== undefined;
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
  const measured = Math.min(keyMin, 0.7 + 0.3 * addressConfidence) * 0.9 + 0.1 * classification.confidence;
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
        mrzDate(extras.mrz.expiryDate, 'expiry', reference, extras.mrz.documentCode) === extras.expiryDate);
    if (!extras.expiryDateReliable && extras.expiryDate < reference.toISOString().slice(0, 10)) {
      const date = (r: Recognised) => readPrintedDate(r.text, reference);
      const again = await readField(run, front, 'expiryDate', {
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
  if (extras.licenceDatesDisagree)
    reasons.push(
      'birth date and expiry disagree (a licence expires a month after a birthday): one is misread',
    );
  if (status === 'low_confidence') reasons.push(`confidence ${confidence} below ${OCR_CONFIDENCE_THRESHOLD}`);
  if (extras.mrz && !extras.mrz.valid)
    reasons.push(`MRZ check failed: ${extras.mrz.invalidFields.join(', ')}`);
  if (extras.myNumberCheckDigitValid === false) reasons.push('My Number check digit failed');
  else if (extras.myNumber !== undefined && extras.myNumberCheckDigitValid === undefined)
    reasons.push('My Number not read cleanly (its digits differ between readings)');
  timingsMs.total = Math.round(performance.now() - run.started);
  extras.reads = run.made.passes;

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
      ...run.base,
      // An assumed type was not detected: none is reported (the decision's face-photo rule
      // reads its absence as "no document recognised").
      ...(classification.assumed
        ? {}
        : { detectedDocumentType: type, detectedDocumentTypeConfidence: classification.confidence }),
    },
    extras,
  };
}
