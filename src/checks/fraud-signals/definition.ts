// The fraudSignalAnalysis check as the registry declares it (../check-registry.ts).
import { FraudSignalAnalysisSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

// 1.2.0: the identity keys (name, birth date) come from the OCR only when it read with confidence
// (src/pipeline/gather-fraud-facts.ts).
// 1.3.0: in a session verified by its IC chip, the identity keys, document number and expiry are
// the chip's (its MRZ, signed), read from icChip instead of the OCR.
export const FRAUD_SIGNALS_VERSION = '1.3.0';

export const fraudSignalsDefinition = defineCheck({
  id: 'fraudSignalAnalysis',
  version: FRAUD_SIGNALS_VERSION,
  inputs: ['userInput', 'thresholds', 'tenantHistory'],
  // The OCR's reading (identity keys, expiry) or the chip's, and the faces' descriptors (the same
  // face elsewhere); a session waits only for those of its method (ocr or icChip).
  waitsFor: ['ocr', 'faceMatch', 'icChip'],
  resultSchema: FraudSignalAnalysisSchema,
  runsIn: 'eventLoop',
  methods: ['image', 'ic_chip'],
});
