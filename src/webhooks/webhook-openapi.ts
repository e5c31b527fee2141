// The OpenAPI document's `webhooks` section and payload schemas: the open versions of what
// build-webhook-payload.ts sends (webhook-payload.schema.ts), one entry per event kind, with the
// headers of interface §6.3 and an example of each payload.
import {
  AutomaticWebhookPayloadSchema,
  EXPIRED_EVENT,
  ExpiredWebhookPayloadSchema,
  opened,
  ReviewWebhookPayloadSchema,
} from './webhook-payload.schema.ts';

type Json = Record<string, unknown>;

const plain = (schema: unknown): Json => {
  const copy = opened(JSON.parse(JSON.stringify(schema))) as Json;
  delete copy.$id;
  delete copy.$schema;
  return copy;
};

/** Payload schemas for components.schemas, named as the SDK's types are. */
export function webhookPayloadComponents(): Record<string, Json> {
  return {
    WebhookAutomaticDecision: plain(AutomaticWebhookPayloadSchema),
    WebhookReviewOutcome: plain(ReviewWebhookPayloadSchema),
    WebhookExpired: plain(ExpiredWebhookPayloadSchema),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const header = (name: string, description: string, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string' },
});

const HEADERS = [
  header(
    'X-Service-Signature',
    'sha256= and the lowercase hex HMAC-SHA256 of the raw body, keyed with your webhook secret (API reference §6.4)',
  ),
  header('X-Service-Event', 'The event kind, as the payload field event'),
  header('X-Service-Delivery', "The event's id, the same on every retry of it: deduplicate on it"),
  header('X-Service-Attempt', '1 for the first try, 2 for the first retry, …'),
];

const processedAt = '2026-11-26T09:30:00.000Z';
const results = {
  ocr: {
    success: true,
    confidence: 0.94,
    payload: { lastName: '山田', firstName: '太郎', birthDate: '1990-01-15', address: '東京都千代田区1-1' },
    status: 'success',
    provider: 'mimoto',
    model: 'ocr-jp',
    detectedDocumentType: 'drivers_license',
    detectedDocumentTypeConfidence: 0.97,
  },
  faceMatch: { similarity: 0.82, isSamePerson: true, status: 'success', reason: 'same_person' },
};

export const WEBHOOK_EXAMPLES = {
  approved: {
    event: 'verification.approved',
    verificationId: 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK',
    tenantId: 'tn_01JQ7Z8Y6X5W4V3T2S1R0QPNMA',
    status: 'approved',
    decision: {
      status: 'approved',
      reason: 'all_checks_passed',
      metadata: {
        faceMatchSimilarity: 0.82,
        livenessConfidence: 0.97,
        documentSpoofRisk: 'low',
        ocrConfidence: 0.94,
      },
    },
    results,
    processedAt,
  },
  reprocessed: {
    event: 'verification.rejected',
    verificationId: 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK',
    tenantId: 'tn_01JQ7Z8Y6X5W4V3T2S1R0QPNMA',
    status: 'rejected',
    decision: {
      status: 'rejected',
      reason: 'face_mismatch',
      metadata: { faceMatchSimilarity: 0.82, threshold: 0.9 },
    },
    results,
    processedAt,
    reprocess: {
      requestedAt: '2026-11-26T09:29:55.000Z',
      reason: 'face threshold raised',
      previousStatus: 'approved',
    },
  },
  pendingReview: {
    event: 'verification.pending_review',
    verificationId: 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK',
    tenantId: 'tn_01JQ7Z8Y6X5W4V3T2S1R0QPNMA',
    status: 'pending_review',
    decision: { status: 'pending_review', reason: 'low_ocr_confidence', metadata: { ocrConfidence: 0.41 } },
    results: { ocr: { ...results.ocr, confidence: 0.41, status: 'low_confidence' } },
    processedAt,
  },
  reviewed: {
    event: 'verification.approved',
    verificationId: 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK',
    tenantId: 'tn_01JQ7Z8Y6X5W4V3T2S1R0QPNMA',
    status: 'approved',
    decision: {
      status: 'approved',
      reason: 'Checked the document by hand; the photo matches.',
      metadata: {},
    },
    results: {},
    processedAt,
    review: {
      id: 'rv_01JQ7Z8Y6X5W4V3T2S1R0QPNMB',
      decision: 'approved',
      reviewedBy: 'reviewer@tenant.example',
      reviewedAt: processedAt,
      reason: 'Checked the document by hand; the photo matches.',
    },
    verificationResult: {
      status: 'approved',
      livenessConfidence: 0.97,
      faceMatchConfidence: 0.82,
      documentAuthenticity: 'low',
      userInputMatch: true,
      preRegisteredInfoMatch: { lastName: true, firstName: true, birthDate: true },
    },
  },
  expired: {
    event: EXPIRED_EVENT,
    verificationId: 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK',
    tenantId: 'tn_01JQ7Z8Y6X5W4V3T2S1R0QPNMA',
    status: 'expired',
    expiresAt: '2026-11-26T09:15:00.000Z',
    processedAt,
  },
} as const;

const example = (summary: string, value: unknown) => ({ summary, value });

function webhook(summary: string, description: string, schema: Json, examples: Record<string, unknown>) {
  return {
    post: {
      summary,
      description,
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema, examples } } },
      responses: {
        '200': {
          description:
            'Any 2xx within 5 seconds: delivered. Anything else is retried; 410 stops the retries.',
        },
      },
    },
  };
}

/** The `webhooks` object of the OpenAPI 3.1 document. */
export function webhookOperations(): Json {
  const decision = { anyOf: [ref('WebhookAutomaticDecision'), ref('WebhookReviewOutcome')] };
  const common =
    "POSTed to the session's callbackUrl. Verify X-Service-Signature over the raw body before parsing. " +
    'Tolerate fields and event kinds you do not know. Carries review when a reviewer decided, and ' +
    'reprocess when a reprocess changed the decision.';
  return {
    'verification.approved': webhook('The verification was approved', common, decision, {
      automatic: example('Automatic decision', WEBHOOK_EXAMPLES.approved),
      reviewed: example("A reviewer's decision", WEBHOOK_EXAMPLES.reviewed),
    }),
    'verification.rejected': webhook('The verification was rejected', common, decision, {
      reprocessed: example('A reprocess changed an approval', WEBHOOK_EXAMPLES.reprocessed),
    }),
    'verification.pending_review': webhook(
      'A person must review the verification',
      common,
      ref('WebhookAutomaticDecision'),
      { automatic: example('Low OCR confidence', WEBHOOK_EXAMPLES.pendingReview) },
    ),
    [EXPIRED_EVENT]: webhook(
      'The session expired unfinished (opt-in)',
      'Sent only to tenants who turned it on (console settings: webhookExpiredEvent); the interface defines three events. Not sent for a session you cancelled.',
      ref('WebhookExpired'),
      { expired: example('The user did not finish', WEBHOOK_EXAMPLES.expired) },
    ),
  };
}
