// Thresholds of the decision (docs/decisions.md "Pipeline and decision": per tenant, with service defaults).
// A tenant overrides any of them in tenants.settings.thresholds; the values applied are stored with
// every decision, so a decision can be explained and reproduced later.
import { FACE_MATCH_DEFAULTS } from '../checks/face-match/index.ts';
import { OCR_CONFIDENCE_THRESHOLD } from '../checks/ocr/index.ts';

export type SpoofRisk = 'low' | 'medium' | 'high';
export type FraudSensitivity = 'low' | 'normal' | 'high';

export interface DecisionThresholds {
  /** faceMatch.similarity ≥ this is the same person (interface §2.9 isSamePerson). */
  faceSimilarityThreshold: number;
  /** |similarity − threshold| < band goes to review (face_similarity_near_threshold). */
  faceNearThresholdBand: number;
  /** OCR overall confidence below this goes to review (low_ocr_confidence). */
  ocrConfidenceThreshold: number;
  /** Spoof risk at which the decision rejects (…_spoof_detected). */
  spoofRejectRisk: SpoofRisk;
  /** Spoof risk at which the decision sends to review (…_spoof_suspected). */
  spoofReviewRisk: SpoofRisk;
  /** Named sensitivity; sets the two fraud scores below unless they are given. */
  fraudSensitivity: FraudSensitivity;
  /** fraudSignalAnalysis.riskScore ≥ this rejects (fraud_detected). */
  fraudRejectScore: number;
  /** riskScore ≥ this sends to review (fraud_suspected). */
  fraudReviewScore: number;
  /** Youngest age accepted (fraud signal underage). */
  minimumAge: number;
}

const FRAUD_SCORES: Record<FraudSensitivity, { reject: number; review: number }> = {
  low: { reject: 85, review: 50 },
  normal: { reject: 70, review: 30 },
  high: { reject: 50, review: 15 },
};

export const DEFAULT_THRESHOLDS: Readonly<DecisionThresholds> = Object.freeze({
  faceSimilarityThreshold: FACE_MATCH_DEFAULTS.threshold,
  faceNearThresholdBand: FACE_MATCH_DEFAULTS.nearThresholdBand,
  ocrConfidenceThreshold: OCR_CONFIDENCE_THRESHOLD,
  spoofRejectRisk: 'high',
  spoofReviewRisk: 'medium',
  fraudSensitivity: 'normal',
  fraudRejectScore: FRAUD_SCORES.normal.reject,
  fraudReviewScore: FRAUD_SCORES.normal.review,
  minimumAge: 18,
});

const RISKS: readonly SpoofRisk[] = ['low', 'medium', 'high'];
export const riskRank = (risk: string | undefined): number => RISKS.indexOf(risk as SpoofRisk);

const unit = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : undefined);
const score = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 100 ? v : undefined);
const risk = (v: unknown) => (RISKS.includes(v as SpoofRisk) ? (v as SpoofRisk) : undefined);

/**
 * The thresholds for a tenant: `settings.thresholds` fields that are valid override the defaults;
 * anything else (a typo, a value out of range) is ignored rather than failing every decision.
 */
export function resolveThresholds(settings: Record<string, unknown> | null | undefined): DecisionThresholds {
  const raw = (settings?.thresholds ?? {}) as Record<string, unknown>;
  const sensitivity: FraudSensitivity = ['low', 'normal', 'high'].includes(raw.fraudSensitivity as string)
    ? (raw.fraudSensitivity as FraudSensitivity)
    : DEFAULT_THRESHOLDS.fraudSensitivity;
  const age = raw.minimumAge;
  return {
    faceSimilarityThreshold: unit(raw.faceSimilarityThreshold) ?? DEFAULT_THRESHOLDS.faceSimilarityThreshold,
    faceNearThresholdBand: unit(raw.faceNearThresholdBand) ?? DEFAULT_THRESHOLDS.faceNearThresholdBand,
    ocrConfidenceThreshold: unit(raw.ocrConfidenceThreshold) ?? DEFAULT_THRESHOLDS.ocrConfidenceThreshold,
    spoofRejectRisk: risk(raw.spoofRejectRisk) ?? DEFAULT_THRESHOLDS.spoofRejectRisk,
    spoofReviewRisk: risk(raw.spoofReviewRisk) ?? DEFAULT_THRESHOLDS.spoofReviewRisk,
    fraudSensitivity: sensitivity,
    fraudRejectScore: score(raw.fraudRejectScore) ?? FRAUD_SCORES[sensitivity].reject,
    fraudReviewScore: score(raw.fraudReviewScore) ?? FRAUD_SCORES[sensitivity].review,
    minimumAge:
      typeof age === 'number' && Number.isInteger(age) && age >= 0 && age <= 120
        ? age
        : DEFAULT_THRESHOLDS.minimumAge,
  };
}
