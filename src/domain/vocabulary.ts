// The service's vocabulary: the statuses a session and its verification go through, the reason
// codes of its decisions, and the kinds of event a tenant is sent. Every capability speaks it
// (checks, decision, sessions, webhooks, console), so it lives below them all and imports nothing of
// mimoto. The checks themselves (ids, `results`) are declared in the check registry
// (src/checks/check-registry.ts).

/** Session statuses, interface §3.1. */
export const SESSION_STATUSES = [
  'pending',
  'in_progress',
  'liveness_success',
  'completed',
  'expired',
  'failed',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Verification statuses, interface §3.2. */
export const VERIFICATION_STATUSES = ['processing', 'approved', 'rejected', 'pending_review'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Every result records who produced it (interface §2.6 and §2.9: provider, model). */
export const PROVIDER = 'mimoto';

/** Event kinds, interface §6.1. */
export const WEBHOOK_EVENTS = [
  'verification.approved',
  'verification.rejected',
  'verification.pending_review',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Sent only to tenants who turned it on (settings webhookExpiredEvent): §6.1 defines three events. */
export const EXPIRED_EVENT = 'verification.expired';

/** Every `event` value a webhook carries. */
export type WebhookEventName = WebhookEvent | typeof EXPIRED_EVENT;

/**
 * What the webhook event store records, each kind with its own payload schema and idempotency key
 * (src/webhooks/webhook-event-kinds.ts): an automatic decision, a reviewer's outcome, the expiry of
 * an unfinished session. A new kind is a name here and an entry there.
 */
export const WEBHOOK_EVENT_KINDS = ['decision', 'review', 'expired'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** Final verification statuses, interface §3.2 (processing never produces a webhook). */
export const DECISION_STATUSES = ['approved', 'rejected', 'pending_review'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** A reviewer decides only approved or rejected (§3.2; docs/decisions.md: a reviewer's decision is final). */
export const REVIEW_DECISIONS = ['approved', 'rejected'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Machine reason codes of automatic decisions (docs/decisions.md "Reason codes"; §6.2 rule 3). */
export const DECISION_REASON_CODES = [
  'all_checks_passed',
  'face_mismatch',
  'face_similarity_near_threshold',
  'low_ocr_confidence',
  'document_spoof_detected',
  'document_spoof_suspected',
  'selfie_spoof_detected',
  'selfie_spoof_suspected',
  'face_injection_suspected',
  'liveness_failed',
  'fraud_detected',
  'fraud_suspected',
  'blacklist_match',
  'pre_registered_info_mismatch',
  'user_input_mismatch',
  'document_type_mismatch',
  'unsupported_document_type',
  'document_expired',
  // IC-chip verification (src/chip/verify-chip-reading.ts; docs/ic-chip.md "Reason codes"):
  // Passive Authentication's three ways of failing, a chip that cannot answer the session's nonce,
  // no anti-clone answer at all, a data group the decision needs missing, an MRZ whose check digits fail.
  'chip_signature_invalid',
  'chip_chain_untrusted',
  'chip_data_group_hash_mismatch',
  'chip_clone_suspected',
  'chip_anti_clone_unavailable',
  'chip_data_group_missing',
  'chip_mrz_invalid',
] as const;
export type DecisionReasonCode = (typeof DECISION_REASON_CODES)[number];

/**
 * Signs that the live check's face was fed to the browser instead of filmed (src/liveness/
 * injection-signals.ts), named in decision.metadata.injectionSignals of face_injection_suspected.
 */
export const INJECTION_SIGNALS = [
  /** The face's colour did not follow the page's colour sequence (liveness/screen-light.ts). */
  'screen_light_not_reflected',
  /** The camera's name is that of a known virtual-camera driver. */
  'virtual_camera',
  /** The frames are larger than, or of another shape than, what the camera said it films. */
  'camera_settings_mismatch',
] as const;
export type InjectionSignal = (typeof INJECTION_SIGNALS)[number];

/**
 * Why a reviewer decided as they did: the review's `reasonCode` beside its free text, a closed list
 * the tenant's code can switch on (docs/console-api.md "Preset reasons"). The first three approve,
 * `other` goes with either decision, the rest reject; `new_capture_requested` is a rejection that
 * asks the tenant to send the person a new session, since the photos could not be judged.
 */
export const REVIEW_REASON_CODES = [
  'documents_verified_manually',
  'face_confirmed_manually',
  'data_mismatch_explained',
  'new_capture_requested',
  'document_unreadable',
  'document_expired',
  'document_suspicious',
  'face_mismatch',
  'person_not_present',
  'data_mismatch',
  'suspected_fraud',
  'other',
] as const;
export type ReviewReasonCode = (typeof REVIEW_REASON_CODES)[number];

/**
 * How a person may prove who they are in a session (create-session's verificationMethods, the
 * tenant's default): photographs of a document (`image`), or reading the document's IC chip
 * (`ic_chip`, docs/ic-chip.md) — the method the amended 犯罪収益移転防止法施行規則 leaves from 2027-04-01.
 */
export const VERIFICATION_METHODS = ['image', 'ic_chip'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** How long a session's personal data is kept when the tenant has not chosen (tenant settings). */
export const DEFAULT_RETENTION_DAYS = 365;
