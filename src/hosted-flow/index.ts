// The hosted flow as the app, the session detail, the pipeline and the erasure use it.

export {
  eraseChipReadings,
  loadChipReading,
  offeredMethods,
} from './chip-reader.ts';
export { allowedDocumentTypes, captureOcrBlobKey, DOCUMENT_TYPES, hasBackSide } from './document-types.ts';
export { negotiateLanguage } from './flow-messages.ts';
export type { FlowPersonalData, FlowState } from './flow-state.ts';
export { MAX_UPLOAD_REQUEST_BYTES, registerHostedFlow } from './hosted-flow.routes.ts';
export {
  eraseDocumentReadings,
  findLastChallenge,
  listDocuments,
  listFlowBlobKeys,
} from './hosted-flow-repository.ts';
export { type FlowDetail, readFlowDetail } from './read-flow-detail.ts';
export {
  IMAGE_KINDS,
  type ImageKind,
  listSessionImages,
  readSessionImage,
  type SessionImageName,
  sessionImageUrl,
} from './session-images.routes.ts';
export {
  requiredUserInputFields,
  USER_INPUT_FIELDS,
  type UserInput,
  userInputContext,
} from './user-input.ts';
