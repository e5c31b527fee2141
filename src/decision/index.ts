// The automatic decision as the pipeline, the console and the accuracy report use it.
export {
  type CheckOutcome,
  type CheckOutcomes,
  type ChipDecisionInput,
  type ChipOutcome,
  type Decision,
  type DecisionInput,
  decide,
  type SpoofOutcome,
} from './decide.ts';
export {
  DEFAULT_THRESHOLDS,
  type DecisionThresholds,
  type FraudSensitivity,
  resolveThresholds,
  riskRank,
  type SpoofRisk,
} from './thresholds.ts';
