// The selfieSpoofCheck as other capabilities (the job handlers, the bench) use it.

export { SELFIE_SPOOF_VERSION, selfieSpoofDefinition } from './definition.ts';
export {
  createSelfieSpoofCheck,
  type LivenessOutcome,
  passiveReading,
  SELFIE_SPOOF_MODEL,
  SELFIE_SPOOF_THRESHOLDS,
  type SelfieSpoofFrame,
  type SelfieSpoofInput,
  type SelfieSpoofResult,
  selfieSpoofCheck,
} from './selfie-spoof.check.ts';
