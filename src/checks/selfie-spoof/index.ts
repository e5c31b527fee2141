// The selfieSpoofCheck as other capabilities (the job handlers, the bench) use it.
export {
  createSelfieSpoofCheck,
  type LivenessOutcome,
  SELFIE_SPOOF_MODEL,
  SELFIE_SPOOF_THRESHOLDS,
  SELFIE_SPOOF_VERSION,
  type SelfieSpoofFrame,
  type SelfieSpoofInput,
  type SelfieSpoofResult,
  selfieSpoofCheck,
} from './selfie-spoof.check.ts';
