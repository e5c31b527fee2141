// Japanese text handling for identity data: the public surface other capabilities use
// (the OCR check, the decision's preRegisteredInfoMatch / userInputMatch, the hosted flow's kana
// fields, the synthetic document generator).

export {
  compareIdentityFields,
  type IdentityField,
  type IdentityFieldComparison,
  type IdentityFields,
} from './compare-identity-fields.ts';
export { parseKanjiNumber } from './kanji-numerals.ts';
export { foldKanjiVariants, KANJI_VARIANTS } from './kanji-variants.ts';
export { matchesOcrAddress } from './match-ocr-address.ts';
export {
  municipalitiesOf,
  namesKnownMunicipality,
  prefectureOfMunicipality,
  restoreMunicipality,
  restorePrefecture,
} from './municipalities.ts';
export {
  isPartialAddressMatch,
  normalizeAddress,
  PREFECTURES,
  prefectureShortName,
  splitPrefecture,
} from './normalize-address.ts';
export {
  hiraganaToKatakana,
  isFullWidthKatakana,
  isSameJapaneseText,
  normalizeJapaneseText,
  toFullWidthKatakana,
} from './normalize-japanese.ts';
export {
  type FormatEraDateOptions,
  type FoundDate,
  findJapaneseDates,
  formatJapaneseEraDate,
  formatPassportDate,
  isCalendarDate,
  JAPANESE_ERAS,
  type JapaneseEra,
  type ParseDateOptions,
  parseJapaneseDate,
  toJapaneseEra,
} from './parse-japanese-date.ts';
export { isKnownGivenName, isKnownName, isKnownSurname, splitByKnownNames } from './person-names.ts';
export { PREFECTURES_LATIN, prefectureInLatin } from './prefectures-latin.ts';
