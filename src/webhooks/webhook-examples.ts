// The example payloads of the OpenAPI document's `webhooks` section, one or more per event kind
// (webhook-event-kinds.ts); a test checks each against the schema of what we send.
import { EXPIRED_EVENT } from './webhook-payload.schema.ts';

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
      metadata: { reviewReasonCode: 'documents_verified_manually' },
    },
    results: {},
    processedAt,
    review: {
      id: 'rv_01JQ7Z8Y6X5W4V3T2S1R0QPNMB',
      decision: 'approved',
      reviewedBy: 'reviewer@tenant.example',
      reviewedAt: processedAt,
      reason: 'Checked the document by hand; the photo matches.',
      reasonCode: 'documents_verified_manually',
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
