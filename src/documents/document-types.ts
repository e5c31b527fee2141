// What each supported identity document is, once: its sides, where the issuer prints each field
// (the official layout, as regions relative to the card), the labels printed beside them, the
// number's format and check digit, the MRZ format, where the portrait is and the colour bands.
// The OCR check, the document spoof check and the face check read it; nothing here depends on
// another part of mimoto (the bottom of the capability layer).
//
// Units: a card (ID-1, 85.60 × 53.98 mm, ISO/IEC 7810) is 856 × 540 units, 0.1 mm each; the
// passport data page (ID-3, 125 × 88 mm, ICAO 9303 part 4) is 1000 × 704 units. Regions are
// [x0, y0, x1, y1] from the card's top left as read. They bound the printed value with a margin
// (`tolerance` below is what a reader may add when the card is cut a little off its outline).
//
// Sources of the layout facts:
// - 運転免許証: 道路交通法施行規則 別記様式第十四 (the licence's form: 氏名 and 生年月日 on the top
//   line, 住所, 交付, the 有効期限 band coloured by class, 免許の条件等, 番号 第…号, the classes held,
//   the photo at the right with 運転免許証 printed vertically beside it, the 公安委員会 below it).
//   Positions measured on the national specimen (見本) of the 警察庁 as published (specimen cards of
//   three prefectures, flat scans and a camera photo), to within ±6 units.
// - 個人番号カード: the front of the card as the 総務省 / 地方公共団体情報システム機構 publish it
//   (氏名, 住所 and 性別 at the top, 生年月日 and 有効期限 on one line, the photo at the LEFT, the
//   card's name in a box top right, the electronic certificate's expiry below). Measured on the
//   official specimen illustration, ±8 units. The back prints the 個人番号 (12 digits).
// - 在留カード: 出入国管理及び難民認定法施行規則 別記第二十九号の七様式 and the specimen the 出入国在留管理庁
//   publishes (title and number 番号 AB12345678CD on the top line, 氏名 in Latin letters, 生年月日 性別
//   国籍・地域, 住居地, 在留資格, 在留期間(満了日), the validity line at the bottom, the photo at the
//   right). Positions are from the specimen's proportions, not yet checked on a captured card (±15).
// - 旅券: ICAO Doc 9303 part 4 (TD3): the data page with the portrait in zone V at the left, the MRZ
//   (two lines of 44) in the bottom 23.2 mm. The MRZ itself is read by the MRZ reader.

export const DOCUMENT_TYPES = ['drivers_license', 'my_number_card', 'residence_card', 'passport'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** x0, y0, x1, y1 in the document's units (see above). */
export type Region = [number, number, number, number];

export type DocumentField =
  | 'name'
  | 'birthDate'
  | 'address'
  | 'documentNumber'
  | 'expiryDate'
  | 'issueDate'
  | 'issuer'
  | 'sex';

export interface ColourBand {
  /** The field printed on it. */
  field: DocumentField;
  region: Region;
  /** The colours it comes in (the licence's band shows the holder's class). */
  colours: readonly string[];
}

/**
 * A document's definition. `T` is the type's name: the four supported types use DocumentType; the
 * OCR's generic readers take any definition, so a type is described here before it is enabled.
 */
export interface DocumentDefinition<T extends string = DocumentType> {
  type: T;
  /** Japanese name, as the document prints it. */
  title: string;
  sides: readonly ('front' | 'back')[];
  /** Units of the document (see above). */
  size: { width: number; height: number };
  /**
   * Words printed on the document that name it (any one is evidence of the type): the printed
   * title first, then its distinctive part (two titles end カード), then any other wording. The
   * classifier scores the first two together.
   */
  titleWords: readonly string[];
  /** Where the title is printed, and whether vertically (運転免許証 beside the photo). */
  titleRegion: { region: Region; vertical: boolean };
  /** The script the holder's name is printed in on the front. */
  nameScript: 'kanji' | 'latin';
  /** Front field zones of the official layout. */
  front: Partial<Record<DocumentField, Region>>;
  /** Back field zones (the My Number). */
  back?: Partial<Record<'myNumber' | 'address', Region>>;
  /** Printed labels beside each field (stripped from a reading; found to place a field). */
  labels: Partial<Record<DocumentField | 'myNumber', readonly string[]>>;
  /** The printed portrait, or null when the document has none. */
  portrait: Region | null;
  colourBands: readonly ColourBand[];
  /**
   * The document number printed on the front: its shape (runs of [A-Z]{n} and \d{n} are read
   * position by position, a misread letter for a digit corrected), and the check a valid one passes.
   */
  number?: { pattern: RegExp; describe: string; isValid?: (n: string) => boolean };
  /** The My Number card's 個人番号 (on the back). */
  personalNumber?: { pattern: RegExp; isValid: (n: string) => boolean };
  mrz: 'TD1' | 'TD2' | 'TD3' | null;
  /** Margin (units) a reader may add around a zone. */
  tolerance: number;
}

/** My Number check digit (総務省令第八十五号 第五条): weights 6,5,4,3,2,7,6,5,4,3,2 from the left. */
export function isValidMyNumber(number: string): boolean {
  if (!/^\d{12}$/.test(number)) return false;
  const weights = [6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(number[i]), 0);
  const remainder = sum % 11;
  const check = remainder <= 1 ? 0 : 11 - remainder;
  return Number(number[11]) === check;
}

/**
 * The driving licence number's check digit, its eleventh digit: with d1…d10 the first ten digits,
 * (11 − (5·d1 + 4·d2 + 3·d3 + 2·d4 + 7·d5 + 6·d6 + 5·d7 + 4·d8 + 3·d9 + 2·d10) mod 11) mod 10
 * (a modulus-11 check the police's numbering uses; not published by them, but documented from
 * issued licences: of the real specimens the project measures on, the two with a real number
 * hold it, 450599999940 and 123456789032, and the illustrative 012345678900 does not).
 * The twelfth digit is the number of reissues.
 */
export function licenceCheckDigit(first10: string): number {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(first10[i]), 0);
  return (11 - (sum % 11)) % 10;
}

export function hasValidLicenceCheckDigit(number: string): boolean {
  return /^\d{12}$/.test(number) && licenceCheckDigit(number.slice(0, 10)) === Number(number[10]);
}

const CARD = { width: 856, height: 540 };

export const DRIVERS_LICENSE: DocumentDefinition = {
  type: 'drivers_license',
  title: '運転免許証',
  sides: ['front', 'back'],
  size: CARD,
  titleWords: ['運転免許証', '免許証'],
  titleRegion: { region: [532, 196, 596, 444], vertical: true },
  nameScript: 'kanji',
  front: {
    // The top line: 氏名 (label box to x 93), the name, then the birth date ending 生 from x ~535.
    name: [95, 28, 540, 80],
    birthDate: [528, 28, 848, 80],
    address: [95, 108, 848, 152],
    issueDate: [95, 150, 545, 186],
    expiryDate: [30, 186, 548, 238],
    // 番号 第 012345678900 号: 第 at 97–121, the twelve digits 153–438, 号 471–493.
    documentNumber: [90, 360, 510, 410],
    issuer: [575, 448, 720, 500],
  },
  labels: {
    name: ['氏名'],
    address: ['住所'],
    issueDate: ['交付'],
    documentNumber: ['番号', '第', '号'],
    expiryDate: ['まで有効'],
    birthDate: ['生'],
  },
  portrait: [580, 152, 818, 452],
  colourBands: [{ field: 'expiryDate', region: [30, 188, 548, 236], colours: ['gold', 'blue', 'green'] }],
  // The 12-digit licence number: the commission first licensing (2), that year (2), serial (6),
  // check digit (1, hasValidLicenceCheckDigit), reissues (1). Not part of isValid: an
  // illustrative specimen's number fails it, and a number failing it is still what is printed.
  number: { pattern: /^\d{12}$/, describe: '12 digits' },
  mrz: null,
  tolerance: 12,
};

export const MY_NUMBER_CARD: DocumentDefinition = {
  type: 'my_number_card',
  title: '個人番号カード',
  sides: ['front', 'back'],
  size: CARD,
  titleWords: ['個人番号カード', '個人番号'],
  titleRegion: { region: [722, 12, 848, 124], vertical: false },
  nameScript: 'kanji',
  front: {
    name: [72, 22, 590, 84],
    address: [72, 86, 725, 150],
    sex: [722, 126, 848, 170],
    birthDate: [288, 170, 540, 216],
    expiryDate: [532, 170, 850, 216],
    issuer: [400, 212, 560, 256],
  },
  back: { myNumber: [150, 40, 848, 120] },
  labels: { name: ['氏名'], address: ['住所'], sex: ['性別'], birthDate: ['生'], expiryDate: ['まで有効'] },
  portrait: [30, 184, 244, 456],
  colourBands: [],
  personalNumber: { pattern: /^\d{12}$/, isValid: isValidMyNumber },
  mrz: null,
  tolerance: 12,
};

export const RESIDENCE_CARD: DocumentDefinition = {
  type: 'residence_card',
  title: '在留カード',
  sides: ['front', 'back'],
  size: CARD,
  titleWords: ['在留カード', '在留'],
  titleRegion: { region: [20, 8, 330, 72], vertical: false },
  nameScript: 'latin',
  front: {
    documentNumber: [520, 8, 848, 72],
    name: [70, 70, 848, 122],
    birthDate: [100, 120, 420, 166],
    sex: [380, 120, 560, 166],
    address: [90, 166, 600, 212],
    expiryDate: [40, 440, 610, 500],
  },
  back: { address: [40, 60, 848, 200] },
  labels: {
    documentNumber: ['番号'],
    name: ['氏名', 'NAME'],
    birthDate: ['生年月日', 'DATE OF BIRTH'],
    sex: ['性別', 'SEX'],
    address: ['住居地', 'ADDRESS'],
    expiryDate: ['まで有効'],
  },
  portrait: [600, 140, 830, 410],
  colourBands: [],
  // AB12345678CD: two letters, eight digits, two letters.
  number: { pattern: /^[A-Z]{2}\d{8}[A-Z]{2}$/, describe: 'two letters, eight digits, two letters' },
  mrz: null,
  tolerance: 15,
};

export const PASSPORT: DocumentDefinition = {
  type: 'passport',
  title: '旅券',
  sides: ['front'],
  size: { width: 1000, height: 704 },
  titleWords: ['PASSPORT', '旅券', '日本国旅券'],
  titleRegion: { region: [20, 8, 980, 90], vertical: false },
  // The Latin name lines and the MRZ are read as well; this is the name line in kanji.
  nameScript: 'kanji',
  front: {},
  labels: {},
  // ICAO 9303 part 4, zone V.
  portrait: [40, 110, 290, 430],
  colourBands: [],
  // The Japanese passport number: two letters and seven digits.
  number: { pattern: /^[A-Z]{2}\d{7}$/, describe: 'two letters, seven digits' },
  mrz: 'TD3',
  tolerance: 10,
};

export const DOCUMENT_DEFINITIONS: Readonly<Record<DocumentType, DocumentDefinition>> = {
  drivers_license: DRIVERS_LICENSE,
  my_number_card: MY_NUMBER_CARD,
  residence_card: RESIDENCE_CARD,
  passport: PASSPORT,
};

export const definitionOf = (type: DocumentType): DocumentDefinition => DOCUMENT_DEFINITIONS[type];

/** A region grown by `margin` units on every side, kept on the document. */
export function withTolerance(region: Region, margin: number, size = CARD): Region {
  const [x0, y0, x1, y1] = region;
  return [
    Math.max(0, x0 - margin),
    Math.max(0, y0 - margin),
    Math.min(size.width, x1 + margin),
    Math.min(size.height, y1 + margin),
  ];
}
