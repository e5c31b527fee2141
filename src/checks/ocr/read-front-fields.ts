// Step 3 of the reading: each field read from where the type's layout prints it, one Tesseract
// single-line pass per field, read again while it does not fit its field or a key value is unsure.
import { type DocumentDefinition, definitionOf } from '../../documents/index.ts';
import { isKnownName, namesKnownMunicipality, PREFECTURES, prefectureInLatin } from '../../japanese/index.ts';
import {
  cleanAddress,
  isPlausibleAddress,
  isPlausibleBirthDate,
  isPlausibleExpiryDate,
  readExpiryDate,
  readNumberOfFormat,
  readPrintedDate,
  residenceCardNumberLength,
  splitNameLine,
} from './correct-fields.ts';
import {
  type DocumentType,
  type FieldName,
  frontFieldsOf,
  type Layout,
  type LayoutVariant,
  layoutFor,
  layoutVariantOf,
  type Region,
} from './document-regions.ts';
import type { GreyImage } from './find-document.ts';
import { issuerArea } from './issuing-authority.ts';
import { type OcrRecognition, PAGE_SEGMENTATION } from './ocr-engine.ts';
import { lap, type OcrRun } from './ocr-run.ts';
import { type Engines, FIELD_READ_BUDGET, withOwnBudget } from './read-budget.ts';
import { MRZ_CHARS, type Recognised, readRegion } from './read-region.ts';

/** The passport's data page: every field but the kanji name is printed in Latin letters and digits. */
const PASSPORT_LATIN_FIELDS: readonly FieldName[] = [
  'documentNumber',
  'lastNameLatin',
  'firstNameLatin',
  'birthDate',
  'address',
  'expiryDate',
  'mrz1',
  'mrz2',
];

/**
 * Fields printed in Latin letters and digits, read with the eng model alone: a name printed in
 * Latin letters, a number with letters in it (a number of digits alone is read among the kanji
 * of its line, 第…号).
 */
export function latinFields(definition: DocumentDefinition<string>): readonly FieldName[] {
  if (definition.type === 'passport') return PASSPORT_LATIN_FIELDS;
  const letteredNumber = definition.number !== undefined && /\[A-Z\]/.test(definition.number.pattern.source);
  return [
    ...(definition.nameScript === 'latin' ? (['name'] as const) : []),
    ...(letteredNumber ? (['documentNumber'] as const) : []),
  ];
}

/** The words of a name line without the label 氏名 / NAME before the name, when the crop caught it. */
function withoutNameLabel(words: OcrRecognition['words']): OcrRecognition['words'] {
  const joined = words.slice(0, 2).map((w) => w.text.replace(/\s+/g, ''));
  if (joined[0] === '氏名' || joined[0]?.toUpperCase() === 'NAME') return words.slice(1);
  if (joined[0] === '氏' && joined[1] === '名') return words.slice(2);
  return words;
}

/**
 * The document number printed on the front, read in the definition's number format (a My Number
 * card prints its number on the back: none).
 */
export function readDocumentNumber(definition: DocumentDefinition<string>, text: string): string | undefined {
  return definition.number && readNumberOfFormat(definition.number, text);
}

/**
 * An address as read has the shape of one: on a passport, the domicile, one of the 47 prefectures
 * in Latin letters (read with one letter off at most: prefectureInLatin).
 */
export function fitsAddress(type: string, address: string): boolean {
  return type === 'passport' ? prefectureInLatin(address) !== undefined : isPlausibleAddress(address);
}

/**
 * A key field read less sure than this is read again (readRegion `confirm`): below
 * ~0.6 the field alone keeps the overall confidence under OCR_CONFIDENCE_THRESHOLD, and a
 * second reading of the same value is what can lift it (docs/ocr.md "Confidence").
 */
export const CONFIRM_BELOW = 0.7;

/** What a correct reading of each field looks like, to decide whether to read it again. */
export function acceptorsFor(
  definition: DocumentDefinition<string>,
  reference: Date,
): Partial<Record<FieldName, (text: string) => boolean>> {
  const { type } = definition;
  const latinName = (t: string) => /^[A-Z]{2,} [A-Z][A-Z ]*$/.test(t.trim());
  // As splitNameLine reads the line: marks, digits and a box's rule read as | are not the name.
  const kanjiName = (t: string) =>
    /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]{2,8}$/u.test(
      t.normalize('NFKC').replace(/[\s\p{P}\p{S}\d]/gu, ''),
    );
  return {
    name: definition.nameScript === 'latin' ? latinName : kanjiName,
    // Read again when it makes the holder over 100 too: a 0 dropped from an era year (昭和40年 read
    // as 昭和4年, 1929) gives a plausible date of a very old holder, and another scale reads the 0.
    // A reading no other scale improves on is kept (a centenarian's card reads as printed).
    birthDate: (t) => {
      const date = readPrintedDate(t, reference);
      return (
        isPlausibleBirthDate(date, reference) && Number(date?.slice(0, 4)) > reference.getUTCFullYear() - 100
      );
    },
    expiryDate: (t) => isPlausibleExpiryDate(readExpiryDate(t, reference), reference),
    address: (t) => fitsAddress(type, type === 'passport' ? t.trim() : cleanAddress(t)),
    documentNumber: (t) => !definition.number || readDocumentNumber(definition, t) !== undefined,
    // The licence's issuer is read again when it names no prefecture (its small red print).
    ...(type === 'drivers_license' ? { issuer: (t: string) => issuerArea(type, t) !== undefined } : {}),
  };
}

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

/** The front as its type's layout is read: the rectified page and what each field looks like. */
export interface FrontPage {
  type: DocumentType;
  definition: DocumentDefinition;
  layout: Layout;
  variant: LayoutVariant;
  page: GreyImage;
  regions: Partial<Record<FieldName, Region>>;
  accept: Partial<Record<FieldName, (text: string) => boolean>>;
  /** What a fitting reading should also be to be taken at once (readRegion `prefer`). */
  prefer: Partial<Record<FieldName, (text: string) => boolean>>;
  /** The key fields' values, as two readings are compared (readRegion `confirm`). */
  keyValue: Partial<Record<FieldName, (r: Recognised) => string | undefined>>;
}

/**
 * The name a line's reading gives, split into last and first names, in the script the definition
 * prints it in (the passport's kanji line is read as one run of characters).
 */
export function readName(definition: DocumentDefinition<string>, r: Recognised) {
  return definition.type === 'passport'
    ? splitNameLine([{ text: r.words.map((w) => w.text).join(''), x0: 0, x1: 1 }], 'kanji')
    : splitNameLine(
        withoutNameLabel(r.words).map((w) => ({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1 })),
        definition.nameScript,
      );
}

export function frontPageFor(run: OcrRun, type: DocumentType, page: GreyImage): FrontPage {
  const { reference } = run;
  const definition = definitionOf(type);
  return {
    type,
    definition,
    layout: layoutFor(definition),
    variant: layoutVariantOf(definition),
    page,
    regions: frontFieldsOf(definition),
    accept: acceptorsFor(definition, reference),
    prefer: {
      // A kanji name the dictionary knows (src/japanese/person-names.ts), surname and given name.
      ...(definition.nameScript === 'latin'
        ? {}
        : { name: (t: string) => isKnownName(t.normalize('NFKC').replace(/[\s\p{P}\p{S}\d]/gu, '')) }),
      // An address that names a municipality of its prefecture (the passport's domicile is a
      // prefecture alone).
      ...(type === 'passport'
        ? {}
        : { address: (t: string) => namesKnownMunicipality(cleanAddress(t), PREFECTURES) }),
    },
    // A name as its characters: where the line splits is not what a second reading confirms.
    keyValue: {
      name: (r) => {
        const n = readName(definition, r);
        return n && `${n.lastName}${n.firstName}`;
      },
      birthDate: (r) => readPrintedDate(r.text, reference),
      // Extra characters around a residence card number make the 12 chosen ambiguous: no vote.
      documentNumber: (r) =>
        type === 'residence_card' && residenceCardNumberLength(r.text) !== 12
          ? undefined
          : readDocumentNumber(definition, r.text),
    },
  };
}

/** One field read where the layout prints it (undefined: the layout prints no such field). */
export async function readField(
  run: OcrRun,
  front: FrontPage,
  name: FieldName,
  opts?: {
    psm?: string;
    whitelist?: string;
    confirm?: NonNullable<Parameters<typeof readRegion>[4]>['confirm'];
    /** What a fitting reading should also be to be taken at once (default: the front's). */
    prefer?: (text: string) => boolean;
    stretchX?: number;
    eraseRules?: boolean;
    searchMargin?: number;
    rereadAt?: readonly number[];
    /** The engines with the budget this reading counts against (default the document's). */
    engines?: Engines;
  },
) {
  const region = front.regions[name];
  const engines = opts?.engines ?? run.ocr;
  const engine = latinFields(front.definition).includes(name) ? engines.eng : engines.jpn;
  const acceptor = front.accept[name];
  const preferred = front.prefer[name];
  const value = front.keyValue[name];
  return region
    ? readRegion(engine, front.page, region, front.layout, {
        ...(acceptor ? { accept: acceptor } : {}),
        ...(preferred ? { prefer: preferred } : {}),
        ...(value ? { confirm: { below: CONFIRM_BELOW, value } } : {}),
        ...opts,
      })
    : undefined;
}

/** How a field of this front is read: the same options for its first reading and any later one. */
export function fieldReadOptions(front: FrontPage, name: FieldName) {
  const { type, variant } = front;
  const isMrz = name === 'mrz1' || name === 'mrz2';
  return {
    ...(isMrz ? { whitelist: MRZ_CHARS } : {}),
    // The official licence prints its 有効期限 band in condensed glyphs.
    ...(variant === 'official' && type === 'drivers_license' && name === 'expiryDate'
      ? { stretchX: 1.3 }
      : {}),
    ...(variant === 'official' ? { eraseRules: true, searchMargin: 40 } : {}),
    // The licence prints its issuer on two lines under the portrait (北海道 / 公安委員会),
    // in small red type: read as a block, then with its gaps closed (cropWithoutRules),
    // and no further (an issuer is a cue of the document check, no field the reading needs).
    ...(name === 'issuer' && type === 'drivers_license'
      ? { psm: PAGE_SEGMENTATION.singleBlock, rereadAt: [], searchMargin: 0 }
      : {}),
  };
}

/**
 * Every field the checks use read, side by side, each within its own budget (read-budget.ts): the
 * licence's 交付 date, say, is printed but not read.
 */
export async function readFrontFields(
  run: OcrRun,
  front: FrontPage,
  budget = FIELD_READ_BUDGET,
): Promise<Map<FieldName, Recognised>> {
  const t = performance.now();
  const names = (Object.keys(front.regions) as FieldName[]).filter((n) => READ_FIELDS.includes(n));
  const readings = new Map<FieldName, Recognised>();
  await Promise.all(
    names.map(async (name) => {
      const r = await readField(run, front, name, {
        engines: withOwnBudget(run.cached, budget),
        ...fieldReadOptions(front, name),
      });
      if (r) readings.set(name, r);
    }),
  );
  lap(run, 'fields', t);
  return readings;
}
