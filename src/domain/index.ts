// The vocabulary (ARCHITECTURE.md "Layers"): the bottom of the capability layer, importing nothing
// of mimoto, read by the checks, decide, sessions, webhooks, review and console.
export {
  type DecisionMetadata,
  DecisionMetadataSchema,
  type FaceMatch,
  FaceMatchSchema,
  FieldMatchSchema,
  type FraudSignalAnalysis,
  FraudSignalAnalysisSchema,
  type OcrResult,
  OcrResultSchema,
  SignalSchema,
  type SpoofCheck,
  SpoofCheckSchema,
} from './check-results.schema.ts';
export { closed, literalUnion, Timestamp } from './schema-parts.ts';
export {
  DECISION_REASON_CODES,
  DECISION_STATUSES,
  DEFAULT_RETENTION_DAYS,
  type DecisionReasonCode,
  type DecisionStatus,
  EXPIRED_EVENT,
  PROVIDER,
  REVIEW_DECISIONS,
  REVIEW_REASON_CODES,
  type ReviewDecision,
  type ReviewReasonCode,
  SESSION_STATUSES,
  type SessionStatus,
  VERIFICATION_STATUSES,
  type VerificationStatus,
  WEBHOOK_EVENT_KINDS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookEventName,
} from './vocabulary.ts';
