// Step 4 of the reading: the front's readings made into fields, each corrected by its known
// shape (correct-fields.ts) and given a confidence; the licence's number read again by its digits
// alone; a licence's or My Number card's birth date against its expiry (documents/card-validity.ts);
// the issuer's area against the printed address (issuing-authority.ts).

import { licenceExpiryFitsBirthDate, myNumberExpiryFitsBirthDate } from '../../documents/index.ts';
import { prefectureInLatin } from '../../japanese/index.ts';
import {
  cleanAddress,
  isPlausibleBirthDate,
  isPlausibleExpiryDate,
  isPlausibleKanjiName,
  isPlausibleLatinName,
  readDigits,
  readExpiryDate,
  readPrintedDate,
  readPrintedSex,
  residenceCardNumberLength,
  startsWithPrefecture,
} from './correct-fields.ts';
import { type FieldName, LICENCE_NUMBER_DIGITS } from './document-regions.ts';
import { addressOutsideArea, issuerArea } from './issuing-authority.ts';
import type { FrontPhoto } from './locate-front.ts';
import { field, type OcrExtras, type OcrField } from './ocr-result.ts';
import type { OcrRun } from './ocr-run.ts';
import { CROSS_CHECK_CONFIDENCE } from './read-back.ts';
import { FIELD_READ_BUDGET, withOwnBudget } from './read-budget.ts';
import {
  CONFIRM_BELOW,
  type FrontPage,
  fieldReadOptions,
  fitsAddress,
  readDocumentNumber,
  readField,
  readName,
} from './read-front-fields.ts';
import { DIGITS, type Recognised, readRegion } from './read-region.ts';

/** The fields every front gives, read or not. */
export type FrontFields = OcrExtras['fields'] &
  Record<'name' | 'birthDate' | 'address' | 'expiryDate', OcrField>;

/** The front's fields, and the readings the later steps compare them with. */
export interface FrontReading {
  readings: Map<FieldName, Recognised>;
  fields: FrontFields;
  extras: OcrExtras & { fields: FrontFields };
  name: ReturnType<typeof readName>;
  /** The number reported; the MRZ or the back may give it instead. */
  documentNumber: string | undefined;
  numberRead: Recognised;
  /** How well the printed number's reading fits its shape. */
  numberFit: number;
  birthRead: Recognised;
  printedBirth: string | undefined;
  expiryRead: Recognised;
  /** The printed expiry date as read, plausible or not. */
  printedExpiry: string | undefined;
}

/** A field's reading, or an empty one when the layout prints no such field. */
export function recognisedOf(readings: Map<FieldName, Recognised>, name: FieldName): Recognised {
  return readings.get(name) ?? { text: '', confidence: 0, words: [] };
}

export async function interpretFrontFields(
  run: OcrRun,
  front: FrontPage,
  readings: Map<FieldName, Recognised>,
  photo: FrontPhoto,
  documentTypeMismatch: boolean,
): Promise<FrontReading> {
  const { reference } = run;
  const { type, definition, page, layout } = front;
  const get = (name: FieldName) => recognisedOf(readings, name);

  // Names.
  const nameRead = get('name');
  const name = readName(definition, nameRead);
  const nameFits =
    name && (definition.nameScript === 'latin' ? isPlausibleLatinName(name) : isPlausibleKanjiName(name));
  const nameField = field(
    name ? `${name.lastName} ${name.firstName}` : undefined,
    nameRead,
    nameFits ? 1 : 0.5,
  );

  // Birth date (passports: the MRZ, check-digit validated, confirms or replaces the print), and
  // the expiry, which on a licence and a My Number card follows from the birthday.
  const dates = await birthAndExpiry(run, front, get('birthDate'), get('expiryDate'));
  const { birthRead, printedBirth, expiryRead, printedExpiry } = dates;
  const datesDisagree = dates.disagree;
  const datesFit = datesDisagree ? 0.6 : 1;
  const birthField = field(
    printedBirth,
    birthRead,
    (isPlausibleBirthDate(printedBirth, reference) ? 1 : 0.3) * datesFit,
  );

  // Address.
  const addressRead = get('address');
  // A passport's domicile is a prefecture's name: read one letter off, it is that name.
  const address =
    type === 'passport'
      ? (prefectureInLatin(addressRead.text) ?? cleanAddress(addressRead.text))
      : cleanAddress(addressRead.text);
  const addressFits = fitsAddress(type, address);
  // A prefecture the list does not hold (a specimen's 見本県, a misread one) fits less well.
  const addressFit = !addressFits ? 0.6 : type === 'passport' || startsWithPrefecture(address) ? 1 : 0.9;
  const addressField = field(address || undefined, addressRead, addressFit);

  // Expiry date.
  const expiry = isPlausibleExpiryDate(printedExpiry, reference) ? printedExpiry : undefined;
  const fields: FrontFields = {
    name: nameField,
    birthDate: birthField,
    address: addressField,
    expiryDate: field(expiry, expiryRead, (expiry ? 1 : 0.3) * datesFit),
  };

  // Document number.
  const numberRead = get('documentNumber');
  let documentNumber = readDocumentNumber(definition, numberRead.text);
  const unconfirmed = numberRead.confidence < CONFIRM_BELOW && !numberRead.confirmation;
  if (type === 'drivers_license' && (!documentNumber || unconfirmed)) {
    // The jpn model drops a digit now and then, or reads clean digits unsure and differently
    // at every scale (50195526271 1, S019SS26220 1); the digits alone, read by eng, are the
    // fallback: they confirm an unsure jpn reading, or replace it when eng reads them surely.
    // Read past the budget too: one pass, and the one that pays off most for a key field (on
    // poor synthetic licences the jpn rereads at other scales read 11 digits where it reads 12).
    const digits = await readRegion(run.ocr.eng, page, LICENCE_NUMBER_DIGITS, layout, {
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
  const numberFit = type === 'residence_card' && residenceCardNumberLength(numberRead.text) !== 12 ? 0.6 : 1;
  // A type that prints no number on its front (the My Number card's is on the back) reports none.
  if (definition.number)
    fields.documentNumber = field(documentNumber, numberRead, documentNumber ? numberFit : 0.3);

  const extras: FrontReading['extras'] = {
    documentTypeMismatch,
    fields,
    frontOutline: photo.frontOutline,
    documentOutline: run.documentOutline,
    layout: front.variant,
    timingsMs: run.timingsMs,
    ...(datesDisagree ? { licenceDatesDisagree: true as const } : {}),
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
  return {
    readings,
    fields,
    extras,
    name,
    documentNumber,
    numberRead,
    numberFit,
    birthRead,
    printedBirth,
    expiryRead,
    printedExpiry,
  };
}

/** How a type's expiry follows from the holder's birthday (documents/card-validity.ts). */
const EXPIRY_FROM_BIRTHDAY: Partial<
  Record<string, { fits: (birth: string, expiry: string) => boolean; alwaysSo: boolean }>
> = {
  drivers_license: { fits: licenceExpiryFitsBirthDate, alwaysSo: true },
  // A foreign resident's card runs to the end of the period of stay: a disagreement proves nothing.
  my_number_card: { fits: myNumberExpiryFitsBirthDate, alwaysSo: false },
};

/**
 * The birth date and expiry as read; where the type ties the expiry to a birthday and the two
 * disagree, one is misread: each is read again (its other scales), preferring a reading that
 * agrees with the other. If none does, `disagree` on a type where the rule always holds.
 */
async function birthAndExpiry(run: OcrRun, front: FrontPage, birthRead: Recognised, expiryRead: Recognised) {
  const { reference } = run;
  const birth = readPrintedDate(birthRead.text, reference);
  const expiry = readExpiryDate(expiryRead.text, reference);
  const asRead = { birthRead, printedBirth: birth, expiryRead, printedExpiry: expiry, disagree: false };
  const rule = EXPIRY_FROM_BIRTHDAY[front.type];
  if (!rule || !birth || !expiry || rule.fits(birth, expiry)) return asRead;
  const agreeing = async (name: 'birthDate' | 'expiryDate', agrees: (date: string) => boolean) => {
    const parse = name === 'birthDate' ? readPrintedDate : readExpiryDate;
    const again = await readField(run, front, name, {
      engines: withOwnBudget(run.cached, FIELD_READ_BUDGET),
      ...fieldReadOptions(front, name),
      prefer: (text: string) => {
        const date = parse(text, reference);
        return date !== undefined && agrees(date);
      },
    });
    const date = again && parse(again.text, reference);
    return again && date && agrees(date) ? { read: again, date } : undefined;
  };
  const birthAgain = await agreeing('birthDate', (date) => rule.fits(date, expiry));
  if (birthAgain) return { ...asRead, birthRead: birthAgain.read, printedBirth: birthAgain.date };
  const expiryAgain = await agreeing('expiryDate', (date) => rule.fits(birth, date));
  if (expiryAgain) return { ...asRead, expiryRead: expiryAgain.read, printedExpiry: expiryAgain.date };
  return { ...asRead, disagree: rule.alwaysSo };
}
