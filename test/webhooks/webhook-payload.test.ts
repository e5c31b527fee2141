import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { Ajv } from 'ajv';
import {
  buildWebhookPayload,
  DECISION_REASON_CODES,
  type DecisionReasonCode,
  InvalidWebhookPayloadError,
  publishedWebhookPayloadSchema,
  serializeWebhookPayload,
  WebhookPayloadSchema,
} from '../../src/webhooks/index.ts';
import { WEBHOOK_EXAMPLES } from '../../src/webhooks/webhook-examples.ts';

const processedAt = new Date('2025-03-01T09:30:00.123Z');

const approved = buildWebhookPayload('decision', {
  generation: 1,
  verificationId: 'vs_01JNV8ZK4Q3W5X7Y9A1B2C3D4E',
  tenantId: 'tn_01JNV8ZK4Q3W5X7Y9A1B2C3D4F',
  decision: {
    status: 'approved',
    reason: 'all_checks_passed',
    metadata: {
      faceMatchSimilarity: 0.93,
      livenessConfidence: 0.98,
      documentSpoofRisk: 'low',
      ocrConfidence: 0.91,
    },
  },
  results: {
    ocr: {
      success: true,
      confidence: 0.91,
      payload: { lastName: '山田', firstName: '太郎', birthDate: '1990-01-02', address: '東京都千代田区' },
      status: 'success',
      provider: 'mimoto',
      model: 'tesseract.js-7/jpn',
    },
    documentSpoofCheck: {
      risk: 'low',
      score: 0.05,
      confidence: 0.9,
      status: 'success',
      isDisplayAttack: false,
    },
    faceMatch: { similarity: 0.93, isSamePerson: true, status: 'success' },
  },
  processedAt,
});

const rejected = buildWebhookPayload('decision', {
  generation: 1,
  verificationId: 'vs_R',
  tenantId: 'tn_1',
  decision: {
    status: 'rejected',
    reason: 'face_mismatch',
    metadata: { faceMatchSimilarity: 0.21, threshold: 0.6 },
  },
  results: {
    faceMatch: { similarity: 0.21, isSamePerson: false, status: 'success', reason: 'different person' },
  },
  processedAt,
});

const pendingReview = buildWebhookPayload('decision', {
  generation: 1,
  verificationId: 'vs_P',
  tenantId: 'tn_1',
  decision: { status: 'pending_review', reason: 'low_ocr_confidence', metadata: { ocrConfidence: 0.42 } },
  results: {
    ocr: { success: true, confidence: 0.42, status: 'low_confidence' },
    fraudSignalAnalysis: {
      riskScore: 0.3,
      signals: [{ type: 'device', severity: 'low', message: 'new device', code: 'new_device' }],
    },
  },
  processedAt: '2025-03-01T09:30:00Z',
});

const reviewApproved = buildWebhookPayload('review', {
  verificationId: 'vs_P',
  tenantId: 'tn_1',
  review: {
    id: 'rv_1',
    decision: 'approved',
    reviewedBy: 'reviewer@example.com',
    reviewedAt: new Date('2025-03-01T10:00:00Z'),
    reason: 'Document checked by hand; photo matches.',
  },
  verificationResult: {
    livenessConfidence: 0.97,
    faceMatchConfidence: 0.88,
    documentAuthenticity: 'authentic',
    userInputMatch: true,
    preRegisteredInfoMatch: { lastName: true, firstName: true, birthDate: true },
  },
  processedAt: new Date('2025-03-01T10:00:01Z'),
});

const reviewRejected = buildWebhookPayload('review', {
  verificationId: 'vs_P2',
  tenantId: 'tn_1',
  review: {
    id: 'rv_2',
    decision: 'rejected',
    reviewedBy: 'r@example.com',
    reviewedAt: processedAt,
    reason: '写真が不鮮明',
  },
  verificationResult: {},
  results: {},
  processedAt,
});

const samples = { approved, rejected, pendingReview, reviewApproved, reviewRejected };

for (const [name, payload] of Object.entries(samples)) {
  test(`${name}: the serialised bytes parse to a payload valid against the published schema`, () => {
    const parsed: unknown = JSON.parse(serializeWebhookPayload(payload).toString('utf8'));
    assert.equal(
      Value.Check(WebhookPayloadSchema, parsed),
      true,
      JSON.stringify([...Value.Errors(WebhookPayloadSchema, parsed)]),
    );
    assert.deepEqual(parsed, payload);
  });
}

test('event, status and decision.status agree, and fields come in the order of interface §6.2', () => {
  assert.equal(approved.event, 'verification.approved');
  assert.equal(rejected.event, 'verification.rejected');
  assert.equal(pendingReview.event, 'verification.pending_review');
  for (const payload of Object.values(samples)) {
    assert.equal(payload.decision.status, payload.status);
    assert.equal(payload.event, `verification.${payload.status}`);
  }
  assert.deepEqual(Object.keys(approved), [
    'event',
    'verificationId',
    'tenantId',
    'status',
    'decision',
    'results',
    'processedAt',
  ]);
  assert.deepEqual(Object.keys(reviewApproved), [
    'event',
    'verificationId',
    'tenantId',
    'status',
    'decision',
    'results',
    'processedAt',
    'review',
    'verificationResult',
  ]);
});

test('automatic decisions carry no review; review outcomes carry review, free-text reason, empty results', () => {
  assert.equal('review' in approved, false);
  assert.equal('verificationResult' in approved, false);
  assert.ok('review' in reviewApproved);
  assert.equal(reviewApproved.decision.reason, 'Document checked by hand; photo matches.');
  assert.deepEqual(reviewApproved.decision.metadata, {});
  assert.deepEqual(reviewApproved.results, {});
  assert.equal(reviewApproved.verificationResult.status, 'approved');
  assert.equal(reviewApproved.review.reviewedAt, '2025-03-01T10:00:00.000Z');
  assert.equal(reviewRejected.status, 'rejected');
});

test('timestamps are ISO 8601 UTC strings', () => {
  assert.equal(approved.processedAt, '2025-03-01T09:30:00.123Z');
  assert.equal(pendingReview.processedAt, '2025-03-01T09:30:00.000Z');
});

test('serialisation is deterministic: the same payload gives the same bytes', () => {
  assert.deepEqual(serializeWebhookPayload(approved), serializeWebhookPayload(structuredClone(approved)));
  // UTF-8 on the wire (§6.4 rule 1).
  assert.ok(serializeWebhookPayload(approved).includes(Buffer.from('山田', 'utf8')));
});

test('the schema publishes $id, title and the docs/decisions.md reason codes', () => {
  const schema = JSON.parse(JSON.stringify(WebhookPayloadSchema));
  assert.equal(schema.$id, '/schemas/webhook-payload.json');
  assert.equal(typeof schema.title, 'string');
  const text = JSON.stringify(schema);
  for (const code of DECISION_REASON_CODES) assert.ok(text.includes(`"${code}"`), code);
});

test('the schema refuses what we must never send', () => {
  const bad = [
    { ...approved, event: 'verification.unknown' },
    { ...approved, status: 'processing' },
    { ...approved, decision: { ...approved.decision, reason: 'not_a_code' } },
    { ...approved, extra: 1 },
    { ...approved, processedAt: 'yesterday' },
    { ...reviewApproved, review: { ...reviewApproved.review, decision: 'pending_review' } },
    { ...approved, results: { ocr: { confidence: '0.9' } } },
  ];
  for (const payload of bad)
    assert.equal(Value.Check(WebhookPayloadSchema, payload), false, JSON.stringify(payload));
});

test('the builder throws on input the schema refuses instead of producing an event', () => {
  assert.throws(
    () =>
      buildWebhookPayload('decision', {
        generation: 1,
        verificationId: 'vs_1',
        tenantId: 'tn_1',
        decision: { status: 'approved', reason: 'made_up' as DecisionReasonCode },
        results: {},
        processedAt,
      }),
    InvalidWebhookPayloadError,
  );
  assert.throws(
    () =>
      buildWebhookPayload('decision', {
        generation: 1,
        verificationId: 'vs_1',
        tenantId: 'tn_1',
        decision: {
          status: 'approved',
          reason: 'all_checks_passed',
          metadata: { faceMatchSimilarity: Number.NaN },
        },
        results: {},
        processedAt,
      }),
    InvalidWebhookPayloadError,
  );
  assert.throws(
    () =>
      buildWebhookPayload('decision', {
        generation: 1,
        verificationId: 'vs_1',
        tenantId: 'tn_1',
        decision: { status: 'approved', reason: 'all_checks_passed' },
        results: {},
        processedAt: 'not a date',
      }),
    InvalidWebhookPayloadError,
  );
});

test('the published schema accepts additions a receiver must tolerate (API reference §6.5)', () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(publishedWebhookPayloadSchema());
  const accepted = [
    approved,
    reviewApproved,
    { ...approved, addedLater: { any: 'thing' } },
    { ...approved, decision: { ...approved.decision, reason: 'a_code_added_later', extra: 1 } },
    { ...approved, results: { ocr: { ...approved.results.ocr, newField: true } } },
    { event: 'verification.something_new', verificationId: 'vs_1', tenantId: 'tn_1', whatever: [1] },
    { ...approved, reprocess: { requestedAt: approved.processedAt, reason: '', previousStatus: 'rejected' } },
  ];
  for (const payload of accepted) assert.ok(validate(payload), JSON.stringify([payload, validate.errors]));
  const refused = [
    { ...approved, verificationId: undefined },
    { ...approved, status: 'processing' },
    { ...approved, processedAt: 'yesterday' },
    { ...approved, results: { ocr: { confidence: '0.9' } } },
    { event: 'verification.expired', verificationId: 'vs_1', tenantId: 'tn_1' },
  ];
  for (const payload of refused)
    assert.equal(validate(JSON.parse(JSON.stringify(payload))), false, JSON.stringify(payload));
});

test('every webhook example of the OpenAPI document is a payload we could send', () => {
  for (const [name, payload] of Object.entries(WEBHOOK_EXAMPLES))
    assert.ok(
      Value.Check(WebhookPayloadSchema, payload),
      `${name}: ${JSON.stringify([...Value.Errors(WebhookPayloadSchema, payload)][0])}`,
    );
});
