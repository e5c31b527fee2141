// The document types (document-types.ts): the bottom of the capability layer with the domain.

export {
  licenceExpiryFitsBirthDate,
  licenceExpiryFor,
  myNumberExpiryFitsBirthDate,
} from './card-validity.ts';
export {
  DOCUMENT_DEFINITIONS,
  DOCUMENT_TYPES,
  type DocumentDefinition,
  type DocumentField,
  type DocumentType,
  DRIVERS_LICENSE,
  definitionOf,
  hasValidLicenceCheckDigit,
  isValidMyNumber,
  licenceCheckDigit,
  MY_NUMBER_CARD,
  type Region,
} from './document-types.ts';
