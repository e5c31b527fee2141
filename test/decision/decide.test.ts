// Each decision rule of interface §3.2 / docs/decisions.md "Reason codes", on plain values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_THRESHOLDS,
  type DecisionInput,
  decide,
  resolveThresholds,
} from '../../src/decision/index.ts';
import { DECISION_REASON_CODES } from '../../src/webhooks/webhook-payload.schema.ts';

const t = DEFAULT_THRESHOLDS;

function passing(): DecisionInput {
  return {
    liveness: { status: 'success', confidence: 0.97 },
    ocr: {
      status: 'success',
      result: {
        confidence: 0.93,
        status: 'success',
        detectedDocumentType: 'drivers_license',
        documentTypeMismatch: false,
      },
    },
    expectedDocumentType: 'drivers_license',
    documentSpoofCheck: { status: 'success', result: { risk: 'low', score: 0.05, confidence: 0.9 } },
    selfieSpoofCheck: { status: 'success', result: { risk: 'low', score: 0.02, confidence: 0.9 } },
    faceMatch: { status: 'success', result: { similarity: 0.91, status: 'success' } },
    fraudSignalAnalysis: { status: 'success', result: { riskScore: 0, signals: [] } },
    preRegisteredInfoMatch: {
      fields: { lastName: true, firstName: true, birthDate: true },
      mismatchedFields: [],
    },
    userInputMatch: {
      fields: { lastName: true, firstName: true, birthDate: true, address: true },
      mismatchedFields: [],
    },
  };
}

test('all checks passed: approved with the §6.2 rule 4 metadata', () => {
  const d = decide(passing(), t);
  assert.deepEqual(d, {
    status: 'approved',
    reason: 'all_checks_passed',
    metadata: {
      faceMatchSimilarity: 0.91,
      livenessConfidence: 0.97,
      documentSpoofRisk: 'low',
      ocrConfidence: 0.93,
    },
  });
});

test('liveness failed: rejected', () => {
  const input = { ...passing(), liveness: { status: 'failed' as const, confidence: 0.2 } };
  const d = decide(input, t);
  assert.equal(d.status, 'rejected');
  assert.equal(d.reason, 'liveness_failed');
  assert.equal(d.metadata.livenessConfidence, 0.2);
});

test('face mismatch: rejected with faceMatchSimilarity and threshold', () => {
  const input = {
    ...passing(),
    faceMatch: { status: 'success' as const, result: { similarity: 0.12, status: 'success' } },
  };
  assert.deepEqual(decide(input, t), {
    status: 'rejected',
    reason: 'face_mismatch',
    metadata: { faceMatchSimilarity: 0.12, threshold: t.faceSimilarityThreshold },
  });
});

test('face similarity near the threshold, on either side: pending_review', () => {
  const { faceSimilarityThreshold: threshold, faceNearThresholdBand: band } = t;
  for (const similarity of [threshold - band / 2, threshold + band / 2]) {
    const input = {
      ...passing(),
      faceMatch: { status: 'success' as const, result: { similarity, status: 'success' } },
    };
    const d = decide(input, t);
    assert.equal(d.status, 'pending_review', `similarity ${similarity}`);
    assert.equal(d.reason, 'face_similarity_near_threshold');
    assert.equal(d.metadata.threshold, threshold);
  }
  // A tenant with a stricter threshold turns a clear pass into a close call.
  const strict = resolveThresholds({ thresholds: { faceSimilarityThreshold: 0.88 } });
  assert.equal(decide(passing(), strict).reason, 'face_similarity_near_threshold');
});

test('no face found on one side: review, never approved', () => {
  const input = {
    ...passing(),
    faceMatch: { status: 'success' as const, result: { similarity: 0, status: 'no_face_document' } },
  };
  const d = decide(input, t);
  assert.equal(d.status, 'pending_review');
  assert.equal(d.reason, 'face_mismatch');
});

test('low OCR confidence: pending_review with ocrConfidence', () => {
  const input = passing();
  input.ocr = { status: 'success', result: { confidence: 0.41, status: 'low_confidence' } };
  assert.deepEqual(decide(input, t), {
    status: 'pending_review',
    reason: 'low_ocr_confidence',
    metadata: { ocrConfidence: 0.41 },
  });
});

test('a poor capture is named low_ocr_confidence, not the near-threshold face or fraud score it also causes', () => {
  const input = {
    ...passing(),
    ocr: { status: 'success' as const, result: { confidence: 0.55, status: 'low_confidence' } },
    faceMatch: { status: 'success' as const, result: { similarity: 0.53, status: 'success' } },
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: { riskScore: 40, signals: [{ code: 'user_input_ocr_mismatch', severity: 'medium' }] },
    },
    userInputMatch: { fields: { lastName: false }, mismatchedFields: ['lastName'] },
  };
  assert.deepEqual(decide(input, t), {
    status: 'pending_review',
    reason: 'low_ocr_confidence',
    metadata: { ocrConfidence: 0.55 },
  });
  // A suspected spoof is still named as such on a poor capture: a blurred photo does not explain it.
  const spoofed = {
    ...input,
    documentSpoofCheck: { status: 'success' as const, result: { risk: 'medium', score: 0.5 } },
  };
  assert.equal(decide(spoofed, t).reason, 'document_spoof_suspected');
  // A low similarity measured on a poor capture is not a rejection: the blurred portrait explains it.
  const blurredPortrait = {
    ...input,
    faceMatch: { status: 'success' as const, result: { similarity: 0.37, status: 'success' } },
  };
  assert.deepEqual(
    [decide(blurredPortrait, t).status, decide(blurredPortrait, t).reason],
    ['pending_review', 'low_ocr_confidence'],
  );
  // On a readable capture the same similarity is rejected.
  const readable = { ...blurredPortrait, ocr: passing().ocr };
  assert.deepEqual([decide(readable, t).status, decide(readable, t).reason], ['rejected', 'face_mismatch']);
});

test('a low document verdict that did not cover the expiry never approves: to review, whatever else passed', () => {
  // The document check judged its cues, but the expiry was not read (documentSpoofCheck 0.18.0):
  // an expired document must not be approvable for having its date unread.
  const input = {
    ...passing(),
    documentSpoofCheck: {
      status: 'success' as const,
      result: {
        status: 'success',
        risk: 'low',
        score: 0.05,
        confidence: 0.9,
        measurements: { notJudged: ['expiryDate'] },
      },
    },
  };
  const d = decide(input, t);
  assert.deepEqual([d.status, d.reason], ['pending_review', 'low_ocr_confidence']);
  assert.equal(d.metadata.ocrConfidence, 0.93);
  assert.match(String(d.metadata.detail), /expiry date was not read/);
  // Nothing left out: approved as before.
  const covered = {
    ...input,
    documentSpoofCheck: {
      status: 'success' as const,
      result: {
        status: 'success',
        risk: 'low',
        score: 0.05,
        confidence: 0.9,
        measurements: { notJudged: [] },
      },
    },
  };
  assert.equal(decide(covered, t).status, 'approved');
  // A read expiry that says expired is rejected first (the fraud check's fact).
  const expired = {
    ...input,
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: { riskScore: 0.3, signals: [], documentExpired: true },
    },
  };
  assert.deepEqual([decide(expired, t).status, decide(expired, t).reason], ['rejected', 'document_expired']);
});

test('a document the spoof check could not judge is never approved: a poor capture, to review', () => {
  // A capture the OCR read (0.93) but too blurred for the document check's print cues.
  const input = {
    ...passing(),
    documentSpoofCheck: {
      status: 'success' as const,
      result: { status: 'insufficient_quality', risk: 'unknown', score: 0, confidence: 1 },
    },
  };
  assert.deepEqual(decide(input, t), {
    status: 'pending_review',
    reason: 'low_ocr_confidence',
    metadata: { ocrConfidence: 0.93, documentStatus: 'insufficient_quality' },
  });
  // A different face is rejected all the same: the rejections come first.
  const impostor = {
    ...input,
    faceMatch: { status: 'success' as const, result: { similarity: 0.2, status: 'success' } },
  };
  assert.deepEqual([decide(impostor, t).status, decide(impostor, t).reason], ['rejected', 'face_mismatch']);
});

test('document spoof: high risk rejected, medium risk to review', () => {
  const high = {
    ...passing(),
    documentSpoofCheck: { status: 'success' as const, result: { risk: 'high', score: 0.9 } },
  };
  assert.deepEqual([decide(high, t).status, decide(high, t).reason], ['rejected', 'document_spoof_detected']);
  assert.equal(decide(high, t).metadata.documentSpoofRisk, 'high');
  const medium = {
    ...passing(),
    documentSpoofCheck: { status: 'success' as const, result: { risk: 'medium' } },
  };
  assert.deepEqual(
    [decide(medium, t).status, decide(medium, t).reason],
    ['pending_review', 'document_spoof_suspected'],
  );
});

test('selfie spoof: high risk rejected, medium risk to review', () => {
  const high = { ...passing(), selfieSpoofCheck: { status: 'success' as const, result: { risk: 'high' } } };
  assert.deepEqual([decide(high, t).status, decide(high, t).reason], ['rejected', 'selfie_spoof_detected']);
  const medium = {
    ...passing(),
    selfieSpoofCheck: { status: 'success' as const, result: { risk: 'medium' } },
  };
  assert.deepEqual(
    [decide(medium, t).status, decide(medium, t).reason],
    ['pending_review', 'selfie_spoof_suspected'],
  );
});

test('selfie spoof at medium with injection signals: face_injection_suspected naming them', () => {
  const input = {
    ...passing(),
    selfieSpoofCheck: {
      status: 'success' as const,
      result: { risk: 'medium', injectionSignals: ['screen_light_not_reflected' as const] },
    },
  };
  const d = decide(input, t);
  assert.deepEqual([d.status, d.reason], ['pending_review', 'face_injection_suspected']);
  assert.deepEqual(d.metadata.injectionSignals, ['screen_light_not_reflected']);
  // At high risk it is a rejection like any selfie spoof.
  const high = { ...input, selfieSpoofCheck: { ...input.selfieSpoofCheck, result: { risk: 'high' } } };
  assert.equal(decide(high, t).reason, 'selfie_spoof_detected');
});

test('a spoof check without an implementation is never a pass', () => {
  const input = { ...passing(), documentSpoofCheck: { status: 'unavailable' as const, detail: 'not built' } };
  const d = decide(input, t);
  assert.equal(d.status, 'pending_review');
  assert.equal(d.reason, 'document_spoof_suspected');
  assert.equal(d.metadata.documentStatus, 'unavailable');
  const selfie = { ...passing(), selfieSpoofCheck: { status: 'unavailable' as const, detail: 'not built' } };
  assert.equal(decide(selfie, t).reason, 'selfie_spoof_suspected');
});

test('fraud: score at the reject level rejected, at the review level suspected; sensitivity moves both', () => {
  const withScore = (riskScore: number) => ({
    ...passing(),
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: {
        riskScore,
        signals: [{ type: 'identity', severity: 'high', message: 'x', code: 'underage' }],
      },
    },
  });
  assert.deepEqual(
    [decide(withScore(80), t).status, decide(withScore(80), t).reason],
    ['rejected', 'fraud_detected'],
  );
  assert.equal(decide(withScore(80), t).metadata.riskScore, 80);
  assert.deepEqual(
    [decide(withScore(40), t).status, decide(withScore(40), t).reason],
    ['pending_review', 'fraud_suspected'],
  );
  assert.equal(decide(withScore(20), t).reason, 'all_checks_passed');
  const high = resolveThresholds({ thresholds: { fraudSensitivity: 'high' } });
  assert.equal(decide(withScore(20), high).reason, 'fraud_suspected');
  assert.equal(decide(withScore(60), high).reason, 'fraud_detected');
});

test('document type mismatch: pending_review with expected and detected types', () => {
  const input = passing();
  input.ocr = {
    status: 'success',
    result: {
      confidence: 0.9,
      status: 'success',
      detectedDocumentType: 'passport',
      documentTypeMismatch: true,
    },
  };
  const d = decide(input, t);
  assert.equal(d.reason, 'document_type_mismatch');
  assert.equal(d.status, 'pending_review');
  assert.equal(d.metadata.expectedDocumentType, 'drivers_license');
  assert.equal(d.metadata.detectedDocumentType, 'passport');
});

test('unsupported document type: rejected', () => {
  const input = passing();
  input.ocr = { status: 'success', result: { confidence: 0, unsupportedDocumentType: 'unknown' } };
  assert.equal(decide(input, t).reason, 'unsupported_document_type');
});

test("another state's identity card (read from its MRZ) is rejected as an unsupported document, naming what it is", () => {
  const input = passing();
  input.ocr = {
    status: 'success',
    result: { confidence: 0, status: 'low_confidence', unsupportedDocumentType: 'foreign_id_card' },
  };
  const d = decide(input, t);
  assert.deepEqual([d.status, d.reason], ['rejected', 'unsupported_document_type']);
  assert.equal(d.metadata.detectedDocumentType, 'foreign_id_card');
});

test('a face photo sent as the document front: rejected as unsupported, a printed portrait is not', () => {
  // What the OCR says of a selfie whose background gave a card-like outline: nothing readable.
  const unread = { status: 'success' as const, result: { confidence: 0, status: 'low_confidence' } };
  const face = (faceWidthShare: number) => ({
    status: 'success' as const,
    result: { similarity: 0.9, status: 'success', documentFaceSource: { faceWidthShare } },
  });
  const selfie = decide({ ...passing(), ocr: unread, faceMatch: face(0.74) }, t);
  assert.equal(selfie.status, 'rejected');
  assert.equal(selfie.reason, 'unsupported_document_type');
  assert.equal(selfie.metadata.detectedDocumentType, 'unknown');
  assert.match(String(selfie.metadata.detail), /photo of a face/);
  // An unreadable card with its portrait at a card's size is a poor capture: review, as before.
  const poor = decide({ ...passing(), ocr: unread, faceMatch: face(0.23) }, t);
  assert.deepEqual([poor.status, poor.reason], ['pending_review', 'low_ocr_confidence']);
  // A document the OCR recognised is never called a face photo, however large its portrait.
  assert.equal(decide({ ...passing(), faceMatch: face(0.74) }, t).reason, 'all_checks_passed');
});

test('no document found, but a face the size of a printed portrait: a missed document, reviewed as a poor capture', () => {
  // What the OCR says when it finds no document in the photo (no outline at all).
  const notFound = {
    status: 'success' as const,
    result: { confidence: 0, status: 'low_confidence', unsupportedDocumentType: 'unknown' },
  };
  // Glare-washed, so the portrait compares poorly too: no face_mismatch on such a capture.
  const face = (faceWidthShare: number | null) => ({
    status: 'success' as const,
    result: { similarity: 0.3, status: 'success', documentFaceSource: { faceWidthShare } },
  });
  const missed = decide({ ...passing(), ocr: notFound, faceMatch: face(0.17) }, t);
  assert.deepEqual([missed.status, missed.reason], ['pending_review', 'low_ocr_confidence']);
  // No face at all, or a face photo: something else entirely.
  for (const share of [null, 0.74])
    assert.equal(
      decide({ ...passing(), ocr: notFound, faceMatch: face(share) }, t).reason,
      'unsupported_document_type',
    );
  // A document found, its text read clearly and none of ours: unsupported, whatever its portrait.
  const otherCard = {
    ...notFound,
    result: { ...notFound.result, frontOutline: { corners: [], coverage: 0.5 } },
  };
  assert.equal(
    decide({ ...passing(), ocr: otherCard, faceMatch: face(0.2) }, t).reason,
    'unsupported_document_type',
  );
  // A screen replay whose outline was missed is still rejected when the document check sees it.
  const replay = decide(
    {
      ...passing(),
      ocr: notFound,
      faceMatch: face(0.18),
      documentSpoofCheck: { status: 'success', result: { risk: 'high', score: 1, confidence: 1 } },
    },
    t,
  );
  assert.deepEqual([replay.status, replay.reason], ['rejected', 'document_spoof_detected']);
});

test('document expired: rejected', () => {
  const input = {
    ...passing(),
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: { riskScore: 20, signals: [], documentExpired: true },
    },
  };
  assert.deepEqual([decide(input, t).status, decide(input, t).reason], ['rejected', 'document_expired']);
});

test('pre-registered info mismatch: pending_review naming the fields', () => {
  const input = passing();
  input.preRegisteredInfoMatch = {
    fields: { lastName: true, firstName: false, birthDate: true },
    mismatchedFields: ['firstName'],
  };
  const d = decide(input, t);
  assert.equal(d.reason, 'pre_registered_info_mismatch');
  assert.deepEqual(d.metadata.mismatchedFields, ['firstName']);
  assert.deepEqual(d.metadata.preRegisteredInfoMatch, { lastName: true, firstName: false, birthDate: true });
});

test('user input mismatch: pending_review', () => {
  const input = passing();
  input.userInputMatch = { fields: { birthDate: false }, mismatchedFields: ['birthDate'] };
  const d = decide(input, t);
  assert.equal(d.reason, 'user_input_mismatch');
  assert.equal(d.metadata.userInputMatch, false);
});

test('user input differing only where the OCR was unsure of its reading: low_ocr_confidence', () => {
  const input = passing();
  if (input.ocr.status !== 'success') throw new Error('unreachable');
  input.ocr.result.fields = {
    name: { confidence: 0.96 },
    birthDate: { confidence: 0.96 },
    address: { confidence: 0.67 },
  };
  input.userInputMatch = { fields: { lastName: true, address: false }, mismatchedFields: ['address'] };
  const d = decide(input, t);
  assert.equal(d.status, 'pending_review');
  assert.equal(d.reason, 'low_ocr_confidence');
  assert.deepEqual(d.metadata.mismatchedFields, ['address']);
  assert.equal(d.metadata.ocrConfidence, 0.93);
  // The same mismatch on an address read surely is the user's: user_input_mismatch.
  input.ocr.result.fields.address = { confidence: 0.91 };
  assert.equal(decide(input, t).reason, 'user_input_mismatch');
  // One mismatched field read surely is enough to name the user input.
  input.ocr.result.fields.address = { confidence: 0.67 };
  input.userInputMatch = {
    fields: { birthDate: false, address: false },
    mismatchedFields: ['birthDate', 'address'],
  };
  assert.equal(decide(input, t).reason, 'user_input_mismatch');
  // The tenant's OCR threshold is the bar: at 0.6 an address read 0.67 counts as read.
  input.userInputMatch = { fields: { address: false }, mismatchedFields: ['address'] };
  assert.equal(decide(input, { ...t, ocrConfidenceThreshold: 0.6 }).reason, 'user_input_mismatch');
});

test('blacklist hits: reject or review by the entry action', () => {
  const hit = (action: 'reject' | 'review') => ({
    ...passing(),
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: {
        riskScore: 0,
        signals: [],
        blacklist: {
          matches: [{ id: 'bl_1', matchMode: 'exact', action }],
          action,
          checkedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    },
  });
  assert.deepEqual(
    [decide(hit('reject'), t).status, decide(hit('reject'), t).reason],
    ['rejected', 'blacklist_match'],
  );
  assert.equal(decide(hit('review'), t).status, 'pending_review');
  assert.equal(decide(hit('reject'), t).metadata.blacklistAction, 'reject');
});

test('rejections win over reasons for review, and every reason is a published code', () => {
  const input = passing();
  input.ocr = { status: 'success', result: { confidence: 0.3, status: 'low_confidence' } };
  input.documentSpoofCheck = { status: 'success', result: { risk: 'high', score: 0.9 } };
  assert.equal(decide(input, t).reason, 'document_spoof_detected');
  assert.ok(DECISION_REASON_CODES.includes(decide(input, t).reason));
});

test('tenant thresholds: invalid values fall back to the defaults', () => {
  const r = resolveThresholds({
    thresholds: { faceSimilarityThreshold: 7, ocrConfidenceThreshold: 0.6, minimumAge: 20 },
  });
  assert.equal(r.faceSimilarityThreshold, DEFAULT_THRESHOLDS.faceSimilarityThreshold);
  assert.equal(r.ocrConfidenceThreshold, 0.6);
  assert.equal(r.minimumAge, 20);
});

test('an expired document is named document_expired even when the spoof check also flags it', () => {
  const input = {
    ...passing(),
    documentSpoofCheck: { status: 'success' as const, result: { risk: 'high' } },
    fraudSignalAnalysis: {
      status: 'success' as const,
      result: { riskScore: 20, signals: [], documentExpired: true },
    },
  };
  assert.equal(decide(input, t).reason, 'document_expired');
});
