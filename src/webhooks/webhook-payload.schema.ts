// The webhook payload of interface §6.2 as TypeBox definitions. TypeBox types are JSON Schema, so the
// same objects type the builder (build-webhook-payload.ts), validate every payload before it is
// stored, and are published at GET /schemas/webhook-payload.json (§6.2 rule 5).
//
// These objects are closed (additionalProperties: false): they state exactly what v1 sends, and a
// field added by mistake fails the build of the payload instead of reaching a tenant. Fields the
// interface lists but does not promise are optional (§2.11). What tenants get is the open version of
// the same schema (publishedWebhookPayloadSchema): receivers must tolerate unknown fields and event
// kinds (§6.5 rule 4), so a validator built from it must too.
import { type Static, type TLiteral, type TUnion, Type } from '@sinclair/typebox';

/** Published `$id` of the schema; the API serves it at this path. */
export const WEBHOOK_PAYLOAD_SCHEMA_ID = '/schemas/webhook-payload.json';

/** Event kinds, interface §6.1. */
export const WEBHOOK_EVENTS = [
  'verification.approved',
  'verification.rejected',
  'verification.pending_review',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Sent only to tenants who turned it on (settings webhookExpiredEvent): §6.1 defines three events. */
export const EXPIRED_EVENT = 'verification.expired';

/** Final verification statuses, interface §3.2 (processing never produces a webhook). */
export const DECISION_STATUSES = ['approved', 'rejected', 'pending_review'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** A reviewer decides only approved or rejected (§3.2; design.md: a reviewer's decision is final). */
export const REVIEW_DECISIONS = ['approved', 'rejected'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Machine reason codes of automatic decisions (design.md "Reason codes"; §6.2 rule 3). */
export const DECISION_REASON_CODES = [
  'all_checks_passed',
  'face_mismatch',
  'face_similarity_near_threshold',
  'low_ocr_confidence',
  'document_spoof_detected',
  'document_spoof_suspected',
  'selfie_spoof_detected',
  'selfie_spoof_suspected',
  'liveness_failed',
  'fraud_detected',
  'fraud_suspected',
  'blacklist_match',
  'pre_registered_info_mismatch',
  'user_input_mismatch',
  'document_type_mismatch',
  'unsupported_document_type',
  'document_expired',
] as const;
export type DecisionReasonCode = (typeof DECISION_REASON_CODES)[number];

const closed = { additionalProperties: false } as const;

/** A string enum as `anyOf` of `const`s, which every JSON Schema validator understands. */
function literalUnion<const T extends readonly string[]>(
  values: T,
  description: string,
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );
}

// A pattern rather than `format: date-time`: TypeBox's Value.Check refuses unregistered formats, and
// a pattern means the same to every JSON Schema validator a tenant may use.
const Timestamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'ISO 8601 timestamp, UTC with a trailing Z (API reference §2)',
});

/** Interface §2.10. */
export const SignalSchema = Type.Object(
  {
    type: Type.Optional(Type.String()),
    severity: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
  },
  { ...closed, title: 'Signal', description: 'API reference §2.10' },
);

/** preRegisteredInfoMatch in webhooks: a boolean per compared field (§2.7, §6.2). */
const FieldMatchSchema = Type.Record(Type.String(), Type.Boolean(), {
  description: 'true/false per compared field (lastName, firstName, birthDate, address)',
});

const BlacklistMatchSchema = Type.Object(
  {
    id: Type.Optional(Type.String()),
    label: Type.Optional(Type.String()),
    matchMode: Type.Optional(Type.String()),
    action: Type.Optional(Type.String()),
    conditionCount: Type.Optional(Type.Number()),
  },
  closed,
);

/** decision.metadata, interface §2.8: every field optional; which appear depends on the decision. */
export const DecisionMetadataSchema = Type.Object(
  {
    faceMatchSimilarity: Type.Optional(Type.Number()),
    livenessConfidence: Type.Optional(Type.Number()),
    documentSpoofRisk: Type.Optional(Type.String()),
    ocrConfidence: Type.Optional(Type.Number()),
    threshold: Type.Optional(Type.Number()),
    blacklistAction: Type.Optional(Type.String()),
    blacklistMatches: Type.Optional(Type.Array(BlacklistMatchSchema)),
    blacklistCheckedAt: Type.Optional(Timestamp),
    detail: Type.Optional(Type.String()),
    confidence: Type.Optional(Type.Number()),
    documentStatus: Type.Optional(Type.String()),
    selfieStatus: Type.Optional(Type.String()),
    score: Type.Optional(Type.Number()),
    similarity: Type.Optional(Type.Number()),
    documentSpoofCheckRisk: Type.Optional(Type.String()),
    expectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentTypeConfidence: Type.Optional(Type.Number()),
    riskScore: Type.Optional(Type.Number()),
    signals: Type.Optional(Type.Array(SignalSchema)),
    fraudScore: Type.Optional(Type.Number()),
    mismatchedFields: Type.Optional(Type.Array(Type.String())),
    userInputMatch: Type.Optional(Type.Boolean()),
    preRegisteredInfoMatch: Type.Optional(FieldMatchSchema),
  },
  { ...closed, title: 'DecisionMetadata', description: 'API reference §2.8' },
);
export type DecisionMetadata = Static<typeof DecisionMetadataSchema>;

/** Interface §2.6, used as results.ocr. */
export const OcrResultSchema = Type.Object(
  {
    success: Type.Optional(Type.Boolean()),
    confidence: Type.Optional(Type.Number()),
    payload: Type.Optional(
      Type.Object(
        {
          lastName: Type.Optional(Type.String()),
          firstName: Type.Optional(Type.String()),
          birthDate: Type.Optional(Type.String()),
          address: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    reason: Type.Optional(Type.String()),
    status: Type.Optional(Type.String({ description: 'values seen: success, low_confidence' })),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    detectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentTypeConfidence: Type.Optional(Type.Number()),
    unsupportedDocumentType: Type.Optional(Type.String()),
  },
  { ...closed, title: 'OcrResult', description: 'API reference §2.6' },
);

/** The spoof check object of interface §2.9 (documentSpoofCheck, selfieSpoofCheck). */
export const SpoofCheckSchema = Type.Object(
  {
    risk: Type.Optional(
      Type.String({ description: 'low, medium or high; unknown when the check gives no verdict' }),
    ),
    score: Type.Optional(Type.Number()),
    confidence: Type.Optional(Type.Number()),
    details: Type.Optional(Type.String()),
    status: Type.Optional(
      Type.String({
        description:
          'success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review)',
      }),
    ),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    isDisplayAttack: Type.Optional(Type.Boolean()),
    isForgedOrTampered: Type.Optional(Type.Boolean()),
  },
  { ...closed, title: 'SpoofCheck', description: 'API reference §2.9' },
);

export const FaceMatchSchema = Type.Object(
  {
    similarity: Type.Optional(Type.Number()),
    isSamePerson: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
  },
  { ...closed, title: 'FaceMatch', description: 'API reference §2.9' },
);

export const FraudSignalAnalysisSchema = Type.Object(
  {
    riskScore: Type.Optional(Type.Number()),
    signals: Type.Optional(Type.Array(SignalSchema)),
  },
  { ...closed, title: 'FraudSignalAnalysis', description: 'API reference §2.9' },
);

/** A subset of interface §2.9; may be empty after manual review (§6.2). */
export const WebhookResultsSchema = Type.Object(
  {
    ocr: Type.Optional(OcrResultSchema),
    documentSpoofCheck: Type.Optional(SpoofCheckSchema),
    selfieSpoofCheck: Type.Optional(SpoofCheckSchema),
    faceMatch: Type.Optional(FaceMatchSchema),
    fraudSignalAnalysis: Type.Optional(FraudSignalAnalysisSchema),
  },
  { ...closed, title: 'Results', description: 'Subset of API reference §2.9; may be {} after manual review' },
);
export type WebhookResults = Static<typeof WebhookResultsSchema>;

/** Interface §6.2 review object. */
export const ReviewSchema = Type.Object(
  {
    id: Type.String(),
    decision: literalUnion(REVIEW_DECISIONS, "The reviewer's decision"),
    reviewedBy: Type.String({ description: "The reviewer's e-mail address" }),
    reviewedAt: Timestamp,
    reason: Type.String(),
  },
  { ...closed, title: 'Review', description: 'API reference §6.2; present only on manual-review outcomes' },
);

/** Interface §6.2 verificationResult, seen on manual-review events. */
export const VerificationResultSchema = Type.Object(
  {
    status: literalUnion(DECISION_STATUSES, 'Verification result status (API reference §3.2)'),
    livenessConfidence: Type.Optional(Type.Number()),
    faceMatchConfidence: Type.Optional(Type.Number()),
    documentAuthenticity: Type.Optional(Type.String()),
    userInputMatch: Type.Optional(Type.Boolean()),
    preRegisteredInfoMatch: Type.Optional(FieldMatchSchema),
  },
  { ...closed, title: 'VerificationResult', description: 'API reference §6.2' },
);

const commonFields = {
  event: literalUnion(WEBHOOK_EVENTS, 'Event kind (API reference §6.1); always verification.<status>'),
  verificationId: Type.String({ minLength: 1, description: 'Equal to the sessionId' }),
  tenantId: Type.String({ minLength: 1 }),
  status: literalUnion(DECISION_STATUSES, 'approved / rejected / pending_review'),
};

/** On a decision a reprocess changed: what asked for it and what the tenant was told before. */
export const ReprocessNoticeSchema = Type.Object(
  {
    requestedAt: Timestamp,
    reason: Type.String({ description: 'The reason given with the reprocess request ("" when none)' }),
    previousStatus: literalUnion(DECISION_STATUSES, 'The status of the decision this one replaces'),
  },
  {
    ...closed,
    title: 'ReprocessNotice',
    description:
      'Present when a reprocess changed the decision: an earlier event of this verificationId said previousStatus',
  },
);

/** An automatic decision: no review; decision.reason is a machine reason code (§6.2 rules 1 and 3). */
export const AutomaticWebhookPayloadSchema = Type.Object(
  {
    ...commonFields,
    decision: Type.Object(
      {
        status: literalUnion(DECISION_STATUSES, 'Equals the top-level status'),
        reason: literalUnion(DECISION_REASON_CODES, 'Machine reason code (API reference §6.2)'),
        metadata: DecisionMetadataSchema,
      },
      closed,
    ),
    results: WebhookResultsSchema,
    processedAt: Timestamp,
    reprocess: Type.Optional(ReprocessNoticeSchema),
  },
  { ...closed, title: 'AutomaticDecisionPayload' },
);

/** verification.expired: the session ended unfinished (opt-in per tenant). */
export const ExpiredWebhookPayloadSchema = Type.Object(
  {
    event: Type.Literal(EXPIRED_EVENT, { description: 'Sent only to tenants who turned it on' }),
    verificationId: commonFields.verificationId,
    tenantId: commonFields.tenantId,
    status: Type.Literal('expired', { description: 'The session status (API reference §3.1)' }),
    expiresAt: Timestamp,
    processedAt: Timestamp,
  },
  { ...closed, title: 'ExpiredPayload', description: 'The user did not finish before expiresAt' },
);

/** A manual-review outcome: review present; decision.reason is free text, metadata may be {} (§6.2 rules 1 and 2). */
export const ReviewWebhookPayloadSchema = Type.Object(
  {
    ...commonFields,
    decision: Type.Object(
      {
        status: literalUnion(REVIEW_DECISIONS, 'Equals the top-level status'),
        reason: Type.String({ description: "Free text: the reviewer's reason" }),
        metadata: DecisionMetadataSchema,
      },
      closed,
    ),
    results: WebhookResultsSchema,
    processedAt: Timestamp,
    review: ReviewSchema,
    verificationResult: VerificationResultSchema,
  },
  { ...closed, title: 'ReviewOutcomePayload' },
);

/** Everything v1 sends, closed: each payload is checked against it before it is stored. */
export const WebhookPayloadSchema = Type.Union(
  [AutomaticWebhookPayloadSchema, ReviewWebhookPayloadSchema, ExpiredWebhookPayloadSchema],
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: WEBHOOK_PAYLOAD_SCHEMA_ID,
    title: 'Webhook payload',
    description:
      'Body of the POST sent to the callbackUrl (API reference §6.2). Signed with X-Service-Signature over the raw bytes (API reference §6.4). ' +
      'Receivers should ignore unknown event kinds and fields (API reference §6.5).',
  },
);

/**
 * A copy of a schema with every object open and the reason codes a plain string: new fields and new
 * reason codes are additions a receiver must tolerate. Event kinds and statuses stay exact, since
 * the payload's shape is chosen by them.
 */
export function opened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(opened);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Record<string, unknown>;
  const members = source.anyOf as Record<string, unknown>[] | undefined;
  const known = members?.map((m) => m.const);
  if (
    known?.length === DECISION_REASON_CODES.length &&
    DECISION_REASON_CODES.every((c) => known.includes(c))
  ) {
    return {
      type: 'string',
      description:
        `${source.description ?? ''} (known values: ${known.join(', ')}; others may be added)`.trim(),
    };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = opened(value);
  }
  return copy;
}

/** JSON Schema's if/then (draft-07), written so that no object literal has a `then` key. */
const conditional = (condition: unknown, consequence: unknown) =>
  Object.fromEntries([
    ['if', condition],
    ['then', consequence],
  ]);

const eventIs = (events: readonly string[]) => ({
  properties: { event: { enum: [...events] } },
  required: ['event'],
});

/**
 * The schema tenants get at WEBHOOK_PAYLOAD_SCHEMA_ID (§6.2 rule 5): the payloads above with unknown
 * fields and values allowed, chosen by event kind, and any other event kind accepted as long as it
 * names the verification (§6.5 rule 4: receivers must not break on additions).
 */
export function publishedWebhookPayloadSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(WebhookPayloadSchema)) as Record<string, unknown>;
  const [automatic, review, expired] = (plain.anyOf as unknown[]).map(opened);
  return {
    $schema: plain.$schema,
    $id: plain.$id,
    title: plain.title,
    description:
      `${plain.description} The payload is chosen by event; an event kind not listed here carries at ` +
      'least event, verificationId and tenantId.',
    type: 'object',
    required: ['event', 'verificationId', 'tenantId'],
    properties: {
      event: {
        type: 'string',
        description: `Event kind (known: ${[...WEBHOOK_EVENTS, EXPIRED_EVENT].join(', ')})`,
      },
      verificationId: { type: 'string', minLength: 1 },
      tenantId: { type: 'string', minLength: 1 },
    },
    allOf: [
      conditional(eventIs(WEBHOOK_EVENTS), { anyOf: [automatic, review] }),
      conditional(eventIs([EXPIRED_EVENT]), expired),
    ],
  };
}

export type AutomaticWebhookPayload = Static<typeof AutomaticWebhookPayloadSchema>;
export type ReviewWebhookPayload = Static<typeof ReviewWebhookPayloadSchema>;
export type ExpiredWebhookPayload = Static<typeof ExpiredWebhookPayloadSchema>;
export type ReprocessNotice = Static<typeof ReprocessNoticeSchema>;
export type WebhookPayload = Static<typeof WebhookPayloadSchema>;

/** Result objects of interface §2.9 as the checks produce them (issue 6 types its results with these). */
export type OcrResult = Static<typeof OcrResultSchema>;
export type SpoofCheck = Static<typeof SpoofCheckSchema>;
export type FaceMatch = Static<typeof FaceMatchSchema>;
export type FraudSignalAnalysis = Static<typeof FraudSignalAnalysisSchema>;
