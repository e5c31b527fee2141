// The worker threads that run the heavy checks off the event loop (inference-pool.ts): the
// pipeline's check jobs and the hosted flow's capture and liveness checks both use them, so they
// sit below both.
export {
  closeInferencePool,
  describeDocumentFaceInWorker,
  describeReferenceFaceInWorker,
  documentGeometryInWorker,
  findLargestFaceInWorker,
  measureCardThicknessInWorker,
  runDocumentSpoofInWorker,
  runSelfieSpoofInWorker,
  UnreadableImageError,
  verifyLivenessInWorker,
  warmUpInferencePool,
} from './inference-pool.ts';
export { type AnsweredOcrRun, type OcrAnswers, runOcrWithAnswers } from './ocr-answers.ts';
