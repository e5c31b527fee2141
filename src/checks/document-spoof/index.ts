// The documentSpoofCheck as other capabilities (the job handlers, the bench) use it.

export { documentSpoofDefinition } from './definition.ts';
export {
  createDocumentSpoofCheck,
  DOCUMENT_SPOOF_MODEL,
  DOCUMENT_SPOOF_THRESHOLDS,
  DOCUMENT_SPOOF_VERSION,
  type DocumentSpoofInput,
  type DocumentSpoofMeasurements,
  type DocumentSpoofOcrFacts,
  type DocumentSpoofResult,
  documentSpoofCheck,
  documentSpoofFacts,
  type SpoofCheck,
} from './document-spoof.check.ts';
