// The kinds of event the webhook store records (the names are the domain's WEBHOOK_EVENT_KINDS).
// Each kind says, in one entry: what its input is, the closed payload schema it is checked against,
// how the input becomes the §6.2 payload (field order is the wire order), the key that makes
// recording it twice a no-op, and how the OpenAPI document presents it. The store
// (record-webhook-event.ts), the published schema, the OpenAPI `webhooks` section and its
// components are all derived from this table, so a new kind is a name in the vocabulary, its
// payload schema, an entry here and the code that records it.
import type { TObject } from '@sinclair/typebox';
import type { ReviewReasonCode, WebhookEventKind, WebhookEventName } from '../domain/index.ts';
import { WEBHOOK_EXAMPLES } from './webhook-examples.ts';
import {
  type AutomaticWebhookPayload,
  AutomaticWebhookPayloadSchema,
  type DecisionMetadata,
  type DecisionReasonCode,
  type DecisionStatus,
  EXPIRED_EVENT,
  type ExpiredWebhookPayload,
  ExpiredWebhookPayloadSchema,
  REVIEW_DECISIONS,
  type ReprocessNotice,
  type ReviewDecision,
  type ReviewWebhookPayload,
  ReviewWebhookPayloadSchema,
  WEBHOOK_EVENTS,
  WEBHOOK_PAYLOAD_SCHEMA_ID,
  type WebhookEvent,
  type WebhookResults,
} from './webhook-payload.schema.ts';

/** An automatic decision taken by the pipeline (§6.2 rule 1: no review field). */
export interface AutomaticDecisionEventInput {
  verificationId: string;
  tenantId: string;
  /** The pipeline generation decided: one automatic decision event per generation. */
  generation: number;
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
    reasonCode?: ReviewReasonCode;
  };
  /** Everything of §6.2 verificationResult but status, which is the reviewer's decision. */
  verificationResult: Omit<ReviewWebhookPayload['verificationResult'], 'status'>;
  /** §6.2: may be an empty object after manual review. */
  results?: WebhookResults;
  /** §6.2 rule 2: may be empty after manual review. */
  decisionMetadata?: DecisionMetadata;
  processedAt: Date | string;
}

/** An unfinished session's time ran out (opt-in verification.expired). */
export interface ExpiredEventInput {
  verificationId: string;
  tenantId: string;
  expiresAt: Date | string;
  processedAt: Date | string;
}

/** An example payload of the OpenAPI document, under `key` in its event's `examples`. */
export interface WebhookExample {
  key: string;
  summary: string;
  value: { event: WebhookEventName };
}

export interface WebhookEventKindDefinition<Input, Payload> {
  /** The closed payload schema: every payload of this kind is checked against it before it is stored. */
  schema: TObject;
  /** The `event` values this kind sends. */
  events: readonly WebhookEventName[];
  /**
   * Names the event among the session's events of this kind (1 to 200 characters): recording the
   * same kind and key twice (a retried job) returns the first event and creates nothing.
   */
  idempotencyKey(input: Input): string;
  /** The payload exactly as a receiver parses it, in §6.2 field order. */
  build(input: Input): Payload;
  openApi: {
    /** components.schemas name (the SDK's type name). */
    component: string;
    /** Summary of each event this kind is the first to send (the `webhooks` entry's). */
    summaries: Partial<Record<WebhookEventName, string>>;
    description: string;
    examples: readonly WebhookExample[];
  };
}

export class InvalidWebhookPayloadError extends Error {
  readonly code = 'InvalidWebhookPayload';
  constructor(readonly problems: string[]) {
    super(`webhook payload does not match ${WEBHOOK_PAYLOAD_SCHEMA_ID}: ${problems.join('; ')}`);
    this.name = 'InvalidWebhookPayloadError';
  }
}

/** The event kind follows from the status (§6.1). */
export function eventForStatus(status: DecisionStatus): WebhookEvent {
  return `verification.${status}`;
}

const DECISION_DESCRIPTION =
  "POSTed to the session's callbackUrl. Verify X-Service-Signature over the raw body before parsing. " +
  'Tolerate fields and event kinds you do not know. Carries review when a reviewer decided, and ' +
  'reprocess when a reprocess changed the decision.';

const decision: WebhookEventKindDefinition<AutomaticDecisionEventInput, AutomaticWebhookPayload> = {
  schema: AutomaticWebhookPayloadSchema,
  events: WEBHOOK_EVENTS,
  // The form of the keys stored before kinds existed (migration 0013 keeps those rows).
  idempotencyKey: (input) => `auto:${input.generation}`,
  build(input) {
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
  },
  openApi: {
    component: 'WebhookAutomaticDecision',
    summaries: {
      'verification.approved': 'The verification was approved',
      'verification.rejected': 'The verification was rejected',
      'verification.pending_review': 'A person must review the verification',
    },
    description: DECISION_DESCRIPTION,
    examples: [
      { key: 'automatic', summary: 'Automatic decision', value: WEBHOOK_EXAMPLES.approved },
      {
        key: 'reprocessed',
        summary: 'A reprocess changed an approval',
        value: WEBHOOK_EXAMPLES.reprocessed,
      },
      { key: 'automatic', summary: 'Low OCR confidence', value: WEBHOOK_EXAMPLES.pendingReview },
    ],
  },
};

const review: WebhookEventKindDefinition<ReviewOutcomeEventInput, ReviewWebhookPayload> = {
  schema: ReviewWebhookPayloadSchema,
  events: REVIEW_DECISIONS.map(eventForStatus),
  idempotencyKey: (input) => `review:${input.review.id}`,
  build(input) {
    const status = input.review.decision;
    return {
      event: eventForStatus(status),
      verificationId: input.verificationId,
      tenantId: input.tenantId,
      status,
      // §6.2 rule 2: after review the reason is the reviewer's free text (its code is in
      // metadata.reviewReasonCode and review.reasonCode).
      decision: { status, reason: input.review.reason, metadata: input.decisionMetadata ?? {} },
      results: input.results ?? {},
      processedAt: toTimestamp(input.processedAt),
      review: { ...input.review, reviewedAt: toTimestamp(input.review.reviewedAt) },
      verificationResult: { status, ...input.verificationResult },
    };
  },
  openApi: {
    component: 'WebhookReviewOutcome',
    summaries: {},
    description: DECISION_DESCRIPTION,
    examples: [{ key: 'reviewed', summary: "A reviewer's decision", value: WEBHOOK_EXAMPLES.reviewed }],
  },
};

const expired: WebhookEventKindDefinition<ExpiredEventInput, ExpiredWebhookPayload> = {
  schema: ExpiredWebhookPayloadSchema,
  events: [EXPIRED_EVENT],
  // A session expires once.
  idempotencyKey: () => 'expired',
  build: (input) => ({
    event: EXPIRED_EVENT,
    verificationId: input.verificationId,
    tenantId: input.tenantId,
    status: 'expired',
    expiresAt: toTimestamp(input.expiresAt),
    processedAt: toTimestamp(input.processedAt),
  }),
  openApi: {
    component: 'WebhookExpired',
    summaries: { [EXPIRED_EVENT]: 'The session expired unfinished (opt-in)' },
    description:
      'Sent only to tenants who turned it on (console settings: webhookExpiredEvent); the interface defines three events. Not sent for a session you cancelled.',
    examples: [{ key: 'expired', summary: 'The user did not finish', value: WEBHOOK_EXAMPLES.expired }],
  },
};

/** Every kind the store records, by its vocabulary name (the order of the OpenAPI document). */
export const WEBHOOK_EVENT_KIND_DEFINITIONS = { decision, review, expired } satisfies Record<
  WebhookEventKind,
  WebhookEventKindDefinition<never, unknown>
>;

type Definitions = typeof WEBHOOK_EVENT_KIND_DEFINITIONS;
/** What the code recording an event of kind K passes. */
export type WebhookEventInput<K extends WebhookEventKind> = Parameters<Definitions[K]['build']>[0];
/** The payload an event of kind K sends. */
export type WebhookEventPayload<K extends WebhookEventKind> = ReturnType<Definitions[K]['build']>;
/** Any payload we send. */
export type WebhookPayload = WebhookEventPayload<WebhookEventKind>;

/** The definitions as a list, typed for code that treats every kind alike. */
export function webhookEventKinds(): [WebhookEventKind, WebhookEventKindDefinition<never, unknown>][] {
  return Object.entries(WEBHOOK_EVENT_KIND_DEFINITIONS) as [
    WebhookEventKind,
    WebhookEventKindDefinition<never, unknown>,
  ][];
}

function toTimestamp(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  // An invalid date would make toISOString throw a RangeError that names nothing useful.
  if (Number.isNaN(date.getTime()))
    throw new InvalidWebhookPayloadError([`invalid timestamp ${String(value)}`]);
  return date.toISOString();
}
