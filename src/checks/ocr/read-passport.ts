// Step 5 of a passport's reading: its MRZ (at the layout's place, else found anywhere), repaired
// by its check digits, against the printed fields; the Latin names printed or from the MRZ.
import { editDistance } from '../../platform/text/edit-distance.ts';
import { toDigit } from './correct-fields.ts';
import type { FieldName } from './document-regions.ts';
import { type FrontReading, recognisedOf } from './interpret-front-fields.ts';
import { field, round2 } from './ocr-result.ts';
import { locatedMrz, type OcrRun } from './ocr-run.ts';
import { mrzDate, readMrz } from './read-mrz.ts';

/**
 * A printed passport number one OCR slip from the check-digit-valid MRZ number (a character read
 * twice, Z read as 7) is a misread of the same number, not a second one; letters and digits that
 * look alike count as one (a clean genuine TZ9268522 read 129268522).
 */
export function isMisreadOfNumber(printed: string, mrzNumber: string): boolean {
  const asDigits = (t: string) => [...t.replace(/[^0-9A-Za-z]/g, '').toUpperCase()].map(toDigit).join('');
  return editDistance(asDigits(printed), asDigits(mrzNumber), 1) <= 1;
}

export async function crossCheckMrz(run: OcrRun, reading: FrontReading): Promise<void> {
  const { reference } = run;
  const { fields, extras, numberRead, numberFit, printedBirth, birthRead, expiryRead } = reading;
  const expiryDate = reading.printedExpiry;
  const get = (name: FieldName) => recognisedOf(reading.readings, name);
  // The layout's lines; when their check digits fail, the zone located and read on its own
  // (another state's passport prints it elsewhere) if its check digits hold.
  const atLayout = readMrz(get('mrz1').text, get('mrz2').text);
  const located = atLayout?.valid ? undefined : (await locatedMrz(run))?.reading;
  const mrz = located?.valid || !atLayout ? (located ?? atLayout) : atLayout;
  if (mrz) {
    const code = mrz.documentCode ?? 'P';
    const mrzBirth = mrz.birthDate ? mrzDate(mrz.birthDate, 'birth', reference, code) : undefined;
    const mrzExpiry = mrz.expiryDate ? mrzDate(mrz.expiryDate, 'expiry', reference, code) : undefined;
    // A field's own check digit can pass by chance on a misaligned line; the composite
    // check digit (over number, birth and expiry dates) must pass too.
    const compositeOk = !mrz.invalidFields.includes('compositeCheckDigit');
    const numberOk = compositeOk && !mrz.invalidFields.includes('documentNumber') && mrz.documentNumber;
    const birthOk = compositeOk && !mrz.invalidFields.includes('birthDate') && mrzBirth;
    const expiryOk = compositeOk && !mrz.invalidFields.includes('expirationDate') && mrzExpiry;
    const printedNumberAgrees =
      !reading.documentNumber ||
      !numberOk ||
      reading.documentNumber === mrz.documentNumber ||
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
      const agree = reading.documentNumber === mrz.documentNumber;
      reading.documentNumber = mrz.documentNumber;
      fields.documentNumber = {
        value: reading.documentNumber,
        confidence: round2(agree ? Math.max(0.95, fields.documentNumber?.confidence ?? 0) : 0.85),
        raw: numberRead.text,
      };
    } else if (
      fields.documentNumber?.confirmed &&
      mrz.documentNumber &&
      mrz.documentNumber !== reading.documentNumber &&
      !mrz.invalidFields.some((f) => f === 'documentNumber' || f === 'documentNumberCheckDigit')
    ) {
      // Without the composite the MRZ number is not taken, but one whose own check digit
      // holds still speaks against a printed number read otherwise: that reading is not
      // confirmed by being read twice (a blurred TZ2279449 read TZ2279544 at two scales).
      const { confirmation: _, ...once } = numberRead;
      fields.documentNumber = field(reading.documentNumber, once, numberFit);
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
