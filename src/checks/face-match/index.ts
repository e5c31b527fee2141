// The faceMatch check as other capabilities (the job handlers, the decision, the accuracy report) use it.

export { FACE_MATCH_VERSION, faceMatchDefinition } from './definition.ts';
export {
  cropDocumentPortrait,
  type DocumentPortraitSource,
  describeDocumentFace,
  type PortraitCrop,
} from './document-portrait.ts';
export {
  decideFaceMatch,
  describeFace,
  FACE_MATCH_DEFAULTS,
  type FaceMatchDescriptions,
  FaceMatchImageError,
  type FaceMatchInput,
  type FaceMatchReason,
  type FaceMatchResult,
  type FaceMatchStatus,
  type FacePicture,
  faceMatchCheck,
} from './face-match.check.ts';
export { computeRoc, equalErrorRate, type RocPoint, tarAtFar } from './roc.ts';
export {
  distanceFromSimilarity,
  FACE_SIMILARITY_CALIBRATION,
  faceSimilarity,
  fitSimilarityCalibration,
  type SimilarityCalibration,
  similarityFromDistance,
} from './similarity-calibration.ts';
