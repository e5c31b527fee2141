// Where each document type prints what, in the layout's own units. The rectified photo is scaled
// from these units, so a field is read from a crop around its printed line instead of searching
// the whole card. The licence and the My Number card are read in their issuers' layouts, from the
// document definitions (src/documents/document-types.ts, which cites where each fact comes from);
// the residence card and the passport where mimoto's own layouts print them (no captured real card
// was available to place their zones: document-types.ts gives the official residence card zones as
// proportions only).
import {
  DOCUMENT_DEFINITIONS,
  DOCUMENT_TYPES,
  type DocumentDefinition,
  type DocumentType,
  type Region,
} from '../../documents/index.ts';

export { DOCUMENT_TYPES, type DocumentType, type Region };

/** Types read in mimoto's own layouts; every other type is read in its issuer's, as defined. */
const OWN_LAYOUTS: readonly string[] = ['residence_card', 'passport'];

/** Whose layout a type is read in. */
export const layoutVariantOf = (definition: DocumentDefinition<string>): LayoutVariant =>
  OWN_LAYOUTS.includes(definition.type) ? 'synthetic' : 'official';

/** Whose layout a type is read in: the issuer's, or mimoto's own (residence card, passport). */
export type LayoutVariant = 'official' | 'synthetic';

export const LAYOUT_VARIANT = Object.fromEntries(
  DOCUMENT_TYPES.map((type) => [type, layoutVariantOf(DOCUMENT_DEFINITIONS[type])]),
) as Record<DocumentType, LayoutVariant>;

export interface Layout {
  width: number;
  height: number;
  /** Pixels per layout unit in the rectified image (printed text ends up ~30–45 px tall). */
  scale: number;
}

export const CARD_LAYOUT: Layout = { width: 856, height: 540, scale: 1.5 };
export const PASSPORT_LAYOUT: Layout = { width: 1000, height: 704, scale: 1.2 };

/** The rectified layout of a document of this size: the passport's data page, else a card. */
export const layoutFor = (definition: DocumentDefinition<string>): Layout =>
  definition.size.width === PASSPORT_LAYOUT.width && definition.size.height === PASSPORT_LAYOUT.height
    ? PASSPORT_LAYOUT
    : CARD_LAYOUT;

export const layoutOf = (type: DocumentType): Layout => layoutFor(DOCUMENT_DEFINITIONS[type]);

/** A printed line: baseline at `y`, glyphs `size` tall, from `x0` to `x1`. */
function line(x0: number, x1: number, baseline: number, size: number): Region {
  return [x0, baseline - size * 1.05 - 6, x1, baseline + size * 0.3 + 6];
}

/** A passport value line: its label sits only a few units above, so the crop stays tight. */
function tightLine(x0: number, x1: number, baseline: number, size: number): Region {
  return [x0, baseline - size * 0.85 - 2, x1, baseline + size * 0.25 + 5];
}

export type FieldName =
  | 'name'
  | 'lastNameLatin'
  | 'firstNameLatin'
  | 'birthDate'
  | 'address'
  | 'documentNumber'
  | 'expiryDate'
  | 'issuer'
  | 'sex'
  | 'mrz1'
  | 'mrz2';

const official = (type: DocumentType) => DOCUMENT_DEFINITIONS[type].front;

/** A zone with `margin` units more below it. */
function grownDown(region: Region | undefined, margin: number): Region | undefined {
  return region && [region[0], region[1], region[2], region[3] + margin];
}

/**
 * Front-side zones where they differ from the definition's official ones (values only, labels
 * left out where they are to the left).
 */
const OWN_FRONT_FIELDS: Partial<Record<string, Partial<Record<FieldName, Region>>>> = {
  drivers_license: {
    ...official('drivers_license'),
    // The issuer is printed on two lines (北海道 over 公安委員会), the second down to the zone's
    // lower edge: read with the margin a reader may add below it.
    issuer: grownDown(official('drivers_license').issuer, DOCUMENT_DEFINITIONS.drivers_license.tolerance),
  },
  residence_card: {
    documentNumber: line(596, 850, 56, 26),
    name: line(82, 850, 106, 30),
    birthDate: line(104, 325, 152, 22),
    sex: line(324, 434, 152, 24),
    address: line(92, 626, 198, 19),
    expiryDate: line(44, 600, 468, 20),
  },
  passport: {
    documentNumber: tightLine(672, 990, 120, 26),
    lastNameLatin: tightLine(322, 800, 190, 26),
    firstNameLatin: tightLine(322, 800, 260, 26),
    birthDate: tightLine(592, 990, 330, 26),
    address: tightLine(442, 990, 400, 26),
    expiryDate: tightLine(632, 990, 470, 26),
    name: line(50, 320, 490, 26),
    mrz1: line(12, 992, 610, 30),
    mrz2: line(12, 992, 662, 30),
  },
};

/** The zones a type's front is read from: mimoto's own where it has them, else the definition's. */
export const frontFieldsOf = (definition: DocumentDefinition<string>): Partial<Record<FieldName, Region>> =>
  OWN_FRONT_FIELDS[definition.type] ?? { ...definition.front };

/** Front-side fields per type. */
export const FRONT_FIELDS = Object.fromEntries(
  DOCUMENT_TYPES.map((type) => [type, frontFieldsOf(DOCUMENT_DEFINITIONS[type])]),
) as Record<DocumentType, Partial<Record<FieldName, Region>>>;

/**
 * Back-side fields: the My Number (with name and birth date again), the residence address block,
 * the licence's 備考 below its 記載事項変更欄 label — each change of address printed on a row of its
 * own (oldest first), read as one block, a row's place being the commission's printer's.
 */
export const BACK_FIELDS: Partial<
  Record<DocumentType, Partial<Record<'myNumber' | 'name' | 'birthDate' | 'address' | 'remarks', Region>>>
> = {
  my_number_card: {
    myNumber: line(170, 845, 86, 44),
    name: line(92, 612, 172, 26),
    birthDate: line(112, 412, 230, 22),
  },
  residence_card: { address: line(236, 820, 146, 18) },
  drivers_license: { remarks: [40, 150, 830, 292] },
};

/**
 * Where mimoto's own residence-card layout prints the portrait, which the corpus draws and the
 * checks read (x0, y0, x1, y1); every other type's box is its definition's.
 */
const RESIDENCE_CARD_PORTRAIT: Region = [630, 170, 816, 410];

/**
 * Where to look for the printed title when telling the types apart, read on a card-shaped
 * rectification: the top strip holds 在留カード / 日本国 旅券 PASSPORT, and the licence's and the
 * My Number card's name lines (氏名, the name; the licence's birth date ending 生).
 */
export const TITLE_STRIP: Region = [20, 8, 840, 80];
/** The twelve digits of the licence number alone (between 第 and 号). */
export const LICENCE_NUMBER_DIGITS: Region = [138, 360, 462, 410];

/** The official licence's 運転免許証, printed vertically beside the photo (five characters). */
export const LICENCE_TITLE_VERTICAL: Region = DOCUMENT_DEFINITIONS.drivers_license.titleRegion.region;

/** The printed portrait's box (null: the document prints none). */
export function portraitBoxFor(type: DocumentType): Region | null {
  return type === 'residence_card' ? RESIDENCE_CARD_PORTRAIT : DOCUMENT_DEFINITIONS[type].portrait;
}

/** Pixel rectangle of a region in a rectified image of the given layout. */
export function toPixels(
  region: Region,
  layout: Layout,
): { left: number; top: number; width: number; height: number } {
  const [x0, y0, x1, y1] = region;
  const s = layout.scale;
  const left = Math.max(0, x0 * s);
  const top = Math.max(0, y0 * s);
  return {
    left,
    top,
    width: Math.min(layout.width * s, x1 * s) - left,
    height: Math.min(layout.height * s, y1 * s) - top,
  };
}
