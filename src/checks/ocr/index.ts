// What other capabilities use of the OCR check: the check itself (createOcrCheck: the pipeline gives
// it a geometry run in a worker thread), and finding the document in a photo (the face check crops
// the printed portrait with it).

export { ocrDefinition } from './definition.ts';
export { DOCUMENT_TYPES, type DocumentType, layoutOf } from './document-regions.ts';
export {
  type DocumentGeometry,
  type DocumentOutline,
  decodePhoto,
  findDocumentOutline,
  type GreyImage,
  type LocatedDocument,
} from './find-document.ts';
export { createOcrCheck, OCR_CHECK_VERSION, ocrCheck } from './ocr.check.ts';
export { getOcrEngineFor, terminateOcrEngine } from './ocr-engine.ts';
export {
  checkDigitsVerdict,
  OCR_CONFIDENCE_THRESHOLD,
  type OcrCheckInput,
  type OcrCheckResult,
  type OcrExtras,
} from './ocr-result.ts';
export { mrzFailureKind } from './read-mrz.ts';
