// The fraudSignalAnalysis check as the registry declares it (../check-registry.ts).
import { FraudSignalAnalysisSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

// 1.2.0: the identity keys (name, birth date) come from the OCR only when it read with confidence
// (src/pipeline/gather-fraud-facts.ts).
export const FRAUD_SIGNALS_VERSION = '1.2.0';

export const fraudSignalsDefinition = defineCheck({
  id: 'fraudSignalAnalysis',
  version: FRAUD_SIGNALS_VERSION,
  inputs: ['userInput', 'thresholds', 'tenantHistory'],
  // The OCR's reading (identity keys, expiry) and the faces' descriptors (the same face elsewhere).
  waitsFor: ['ocr', 'faceMatch'],
  resultSchema: FraudSignalAnalysisSchema,
  runsIn: 'eventLoop',
});
