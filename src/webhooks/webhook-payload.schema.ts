// The webhook payload of interface §6.2 as TypeBox definitions. TypeBox types are JSON Schema, so the
// same objects type the builder (build-webhook-payload.ts), validate every payload before it is
// stored, and are published at GET /schemas/webhook-payload.json (§6.2 rule 5).
//
// These objects are closed (additionalProperties: false): they state exactly what v1 sends, and a
// field added by mistake fails the build of the payload instead of reaching a tenant. Fields the
// interface lists but does not promise are optional (§2.11). What tenants get is the open version of
// the same schema (publishedWebhookPayloadSchema): receivers must tolerate unknown fields and event
// kinds (§6.5 rule 4), so a validator built from it must too.
import { type Static, Type } from '@sinclair/typebox';
import { CheckResultsSchema } from '../checks/index.ts';
import {
  closed,
  DECISION_REASON_CODES,
  DECISION_STATUSES,
  DecisionMetadataSchema,
  EXPIRED_EVENT,
  FieldMatchSchema,
  literalUnion,
  REVIEW_DECISIONS,
  REVIEW_REASON_CODES,
  Timestamp,
  WEBHOOK_EVENTS,
} from '../domain/index.ts';

// `results` is the check registry's (src/checks/check-registry.ts); the rest of the vocabulary these
// payloads are made of is the domain's. Named here too for the webhook code.
export {
  type CheckResults as WebhookResults,
  CheckResultsSchema as WebhookResultsSchema,
} from '../checks/index.ts';
export {
  DECISION_REASON_CODES,
  DECISION_STATUSES,
  type DecisionMetadata,
  DecisionMetadataSchema,
  type DecisionReasonCode,
  type DecisionStatus,
  EXPIRED_EVENT,
  type FaceMatch,
  FaceMatchSchema,
  type FraudSignalAnalysis,
  FraudSignalAnalysisSchema,
  type OcrResult,
  OcrResultSchema,
  REVIEW_DECISIONS,
  type ReviewDecision,
  SignalSchema,
  type SpoofCheck,
  SpoofCheckSchema,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../domain/index.ts';

/** Published `$id` of the schema; the API serves it at this path. */
export const WEBHOOK_PAYLOAD_SCHEMA_ID = '/schemas/webhook-payload.json';

/** Interface §6.2 review object. */
export const ReviewSchema = Type.Object(
  {
    id: Type.String(),
    decision: literalUnion(REVIEW_DECISIONS, "The reviewer's decision"),
    reviewedBy: Type.String({ description: "The reviewer's e-mail address" }),
    reviewedAt: Timestamp,
    reason: Type.String({ description: "The reviewer's free text" }),
    reasonCode: Type.Optional(
      literalUnion(
        REVIEW_REASON_CODES,
        "The reviewer's reason as a code (docs: Reason codes); new_capture_requested: send the person a new session. Absent only on events recorded before reason codes",
      ),
    ),
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
    results: CheckResultsSchema,
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
    results: CheckResultsSchema,
    processedAt: Timestamp,
    review: ReviewSchema,
    verificationResult: VerificationResultSchema,
  },
  { ...closed, title: 'ReviewOutcomePayload' },
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
  const known = members?.map((m) => m.const) ?? [];
  const isList = (codes: readonly string[]) =>
    known.length === codes.length && codes.every((c) => known.includes(c));
  if (isList(DECISION_REASON_CODES) || isList(REVIEW_REASON_CODES)) {
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

export type AutomaticWebhookPayload = Static<typeof AutomaticWebhookPayloadSchema>;
export type ReviewWebhookPayload = Static<typeof ReviewWebhookPayloadSchema>;
export type ExpiredWebhookPayload = Static<typeof ExpiredWebhookPayloadSchema>;
export type ReprocessNotice = Static<typeof ReprocessNoticeSchema>;
