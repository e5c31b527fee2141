// Public surface of the synthetic corpus generator, for `mimoto simulate`, benchmarks and checks.

export { drawCaptureParameters, QUALITIES, QUALITY_RANGES, type Quality } from './capture-parameters.ts';
export { isValidMyNumber, myNumberCheckDigit } from './document-numbers.ts';
export {
  createDocumentRecord,
  createIdentityFor,
  DOCUMENT_TYPES,
  type DocumentRecord,
  type DocumentType,
  hasBackSide,
} from './document-record.ts';
export type { HeadPose } from './face-model.ts';
export { facePeople, listFacePeople, packagedFacePeople, sexOfPerson } from './faces.ts';
export {
  ATTACK_TYPES,
  type AttackType,
  type CorpusOptions,
  DOCUMENT_ATTACKS,
  FACE_ATTACKS,
  generateCorpus,
  MANIFEST_VERSION,
  type Manifest,
  planCorpus,
  REFERENCE_DATE,
  type Sample,
} from './generate-corpus.ts';
export {
  captureLiveness,
  LIVENESS_STEPS,
  type LivenessStep,
  livenessTimeline,
  POSE_CONVENTION,
  POSES,
  renderHeadPose,
} from './liveness-capture.ts';
export { mrzCheckDigit, passportMrz } from './mrz.ts';
export { photographDocument } from './photograph-document.ts';
export { Random } from './random.ts';
export { renderDocumentSide as renderDocument } from './render-document.ts';
export { readY4mInfo } from './y4m.ts';
