// Builds the §6.2 payload of one decision event and serialises it once (interface §6.4: the bytes
// are stored with the event and sent byte-identical on every attempt). Every payload is checked
// against the published schema before it leaves this module, so the schema and what we send cannot
// drift apart.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  type AutomaticWebhookPayload,
  type DecisionMetadata,
  type DecisionReasonCode,
  type DecisionStatus,
  EXPIRED_EVENT,
  type ExpiredWebhookPayload,
  type ReprocessNotice,
  type ReviewDecision,
  type ReviewWebhookPayload,
  type WebhookEvent,
  type WebhookPayload,
  WebhookPayloadSchema,
  type WebhookResults,
} from './webhook-payload.schema.ts';

/** An automatic decision taken by the pipeline (§6.2 rule 1: no review field). */
export interface AutomaticDecisionEventInput {
  verificationId: string;
  tenantId: string;
  decision: { status: DecisionStatus; reason: DecisionReasonCode; metadata?: DecisionMetadata };
  results: WebhookResults;
  processedAt: Date | string;
  /** Set when a reprocess gave this decision and the status before it differed or was the same. */
  reprocess?: {
    requestedAt: Date | string;
    reason: string;
    previousStatus: ReprocessNotice['previousStatus'];
  };
}

/** An unfinished session's time ran out (opt-in verification.expired). */
export interface ExpiredEventInput {
  kind: 'expired';
  verificationId: string;
  tenantId: string;
  expiresAt: Date | string;
  processedAt: Date | string;
}

/** A reviewer's decision on a pending_review verification (§3.2, §6.2 rules 1–2). */
export interface ReviewOutcomeEventInput {
  verificationId: string;
  tenantId: string;
  review: {
    id: string;
    decision: ReviewDecision;
    reviewedBy: string;
    reviewedAt: Date | string;
    reason: string;
  };
  /** Everything of §6.2 verificationResult but status, which is the reviewer's decision. */
  verificationResult: Omit<ReviewWebhookPayload['verificationResult'], 'status'>;
  /** §6.2: may be an empty object after manual review. */
  results?: WebhookResults;
  /** §6.2 rule 2: may be empty after manual review. */
  decisionMetadata?: DecisionMetadata;
  processedAt: Date | string;
}

export type DecisionEventInput = AutomaticDecisionEventInput | ReviewOutcomeEventInput | ExpiredEventInput;

export class InvalidWebhookPayloadError extends Error {
  readonly code = 'InvalidWebhookPayload';
  constructor(readonly problems: string[]) {
    super(`webhook payload does not match ${WebhookPayloadSchema.$id}: ${problems.join('; ')}`);
    this.name = 'InvalidWebhookPayloadError';
  }
}

const checkPayload = TypeCompiler.Compile(WebhookPayloadSchema);

/** The event kind follows from the status (§6.1). */
export function eventForStatus(status: DecisionStatus): WebhookEvent {
  return `verification.${status}`;
}

/**
 * Returns the payload exactly as a receiver will parse it (field order of §6.2, timestamps as
 * ISO 8601 UTC, undefined fields dropped). Throws InvalidWebhookPayloadError when the result would
 * not match the published schema: a bug to surface, never an event to send.
 */
export function buildWebhookPayload(input: AutomaticDecisionEventInput): AutomaticWebhookPayload;
export function buildWebhookPayload(input: ReviewOutcomeEventInput): ReviewWebhookPayload;
export function buildWebhookPayload(input: ExpiredEventInput): ExpiredWebhookPayload;
export function buildWebhookPayload(input: DecisionEventInput): WebhookPayload;
export function buildWebhookPayload(input: DecisionEventInput): WebhookPayload {
  const draft: WebhookPayload =
    'kind' in input
      ? buildExpired(input)
      : 'review' in input
        ? buildReviewOutcome(input)
        : buildAutomaticDecision(input);
  // A JSON round trip gives the receiver's view: drops undefined, turns NaN into null (then refused).
  const payload: unknown = JSON.parse(JSON.stringify(draft));
  if (!checkPayload.Check(payload)) {
    const problems = [...checkPayload.Errors(payload)]
      .slice(0, 10)
      .map((e) => `${e.path || '/'} ${e.message}`);
    throw new InvalidWebhookPayloadError(problems);
  }
  return payload;
}

/** Serialise once; store these bytes and send them on every attempt (docs/decisions.md "Webhooks"). */
export function serializeWebhookPayload(payload: WebhookPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

function buildAutomaticDecision(input: AutomaticDecisionEventInput): AutomaticWebhookPayload {
  const { status, reason, metadata } = input.decision;
  return {
    event: eventForStatus(status),
    verificationId: input.verificationId,
    tenantId: input.tenantId,
    status,
    decision: { status, reason, metadata: metadata ?? {} },
    results: input.results,
    processedAt: toTimestamp(input.processedAt),
    ...(input.reprocess
      ? { reprocess: { ...input.reprocess, requestedAt: toTimestamp(input.reprocess.requestedAt) } }
      : {}),
  };
}

function buildExpired(input: ExpiredEventInput): ExpiredWebhookPayload {
  return {
    event: EXPIRED_EVENT,
    verificationId: input.verificationId,
    tenantId: input.tenantId,
    status: 'expired',
    expiresAt: toTimestamp(input.expiresAt),
    processedAt: toTimestamp(input.processedAt),
  };
}

function buildReviewOutcome(input: ReviewOutcomeEventInput): ReviewWebhookPayload {
  const status = input.review.decision;
  return {
    event: eventForStatus(status),
    verificationId: input.verificationId,
    tenantId: input.tenantId,
    status,
    // §6.2 rule 2: after review the reason is the reviewer's free text.
    decision: { status, reason: input.review.reason, metadata: input.decisionMetadata ?? {} },
    results: input.results ?? {},
    processedAt: toTimestamp(input.processedAt),
    review: { ...input.review, reviewedAt: toTimestamp(input.review.reviewedAt) },
    verificationResult: { status, ...input.verificationResult },
  };
}

function toTimestamp(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  // An invalid date would make toISOString throw a RangeError that names nothing useful.
  if (Number.isNaN(date.getTime()))
    throw new InvalidWebhookPayloadError([`invalid timestamp ${String(value)}`]);
  return date.toISOString();
}
