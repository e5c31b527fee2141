// decide() for a session verified by its IC chip (docs/ic-chip.md "Decision"): each chip reason
// code, on plain values — the four that reject, the three that go to review, and how they rank
// against the live check, the face and the personal data. No image check is in the input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ChipDecisionInput, DEFAULT_THRESHOLDS, decide } from '../../src/decision/index.ts';
import { DECISION_REASON_CODES } from '../../src/webhooks/webhook-payload.schema.ts';

const t = DEFAULT_THRESHOLDS;

function genuine(reasons: string[] = []): ChipDecisionInput {
  return {
    method: 'ic_chip',
    icChip: { status: 'success', result: { verified: reasons.length === 0, reasons } },
    liveness: { status: 'success', confidence: 0.97 },
    selfieSpoofCheck: { status: 'success', result: { risk: 'low', score: 0.02, confidence: 0.9 } },
    faceMatch: { status: 'success', result: { similarity: 0.91, status: 'success' } },
    fraudSignalAnalysis: { status: 'success', result: { riskScore: 0, signals: [] } },
    preRegisteredInfoMatch: { fields: { lastName: true }, mismatchedFields: [] },
    userInputMatch: { fields: { lastName: true, birthDate: true }, mismatchedFields: [] },
  };
}

test('a verified chip, the same face, a live person: approved, without image metadata', () => {
  assert.deepEqual(decide(genuine(), t), {
    status: 'approved',
    reason: 'all_checks_passed',
    metadata: { faceMatchSimilarity: 0.91, livenessConfidence: 0.97, verificationMethod: 'ic_chip' },
  });
});

for (const reason of [
  'chip_signature_invalid',
  'chip_chain_untrusted',
  'chip_data_group_hash_mismatch',
  'chip_clone_suspected',
]) {
  test(`${reason}: rejected, with a detail a reviewer can read`, () => {
    const d = decide(genuine([reason]), t);
    assert.equal(d.status, 'rejected');
    assert.equal(d.reason, reason);
    assert.equal(d.metadata.verificationMethod, 'ic_chip');
    assert.match(d.metadata.detail ?? '', /chip|Document Signer|CSCA|data group/);
    assert.ok(DECISION_REASON_CODES.includes(d.reason));
  });
}

for (const reason of ['chip_anti_clone_unavailable', 'chip_data_group_missing', 'chip_mrz_invalid']) {
  test(`${reason}: sent to review, never approved`, () => {
    const d = decide(genuine([reason]), t);
    assert.equal(d.status, 'pending_review');
    assert.equal(d.reason, reason);
    assert.ok(DECISION_REASON_CODES.includes(d.reason));
  });
}

test('a forgery is named before a review reason, and a broken signature before a clone', () => {
  assert.equal(
    decide(genuine(['chip_anti_clone_unavailable', 'chip_chain_untrusted']), t).reason,
    'chip_chain_untrusted',
  );
  assert.equal(
    decide(genuine(['chip_clone_suspected', 'chip_signature_invalid']), t).reason,
    'chip_signature_invalid',
  );
});

test('a failed live check is rejected first, even with a verified chip', () => {
  const input = { ...genuine(), liveness: { status: 'failed' as const, confidence: 0.2 } };
  assert.equal(decide(input, t).reason, 'liveness_failed');
});

test("the chip's face against a different person: rejected face_mismatch; near the threshold: review", () => {
  const far = {
    ...genuine(),
    faceMatch: { status: 'success' as const, result: { similarity: 0.1, status: 'success' } },
  };
  assert.deepEqual(decide(far, t).reason, 'face_mismatch');
  assert.equal(decide(far, t).status, 'rejected');
  const near = {
    ...genuine(),
    faceMatch: {
      status: 'success' as const,
      result: { similarity: t.faceSimilarityThreshold, status: 'success' },
    },
  };
  assert.equal(decide(near, t).reason, 'face_similarity_near_threshold');
  const none = {
    ...genuine(),
    faceMatch: { status: 'success' as const, result: { similarity: 0, status: 'no_face_document' } },
  };
  assert.equal(decide(none, t).status, 'pending_review');
});

test("an expired document (the chip's MRZ) is rejected", () => {
  const input = genuine();
  input.icChip = { status: 'success', result: { verified: true, reasons: [], documentExpired: true } };
  assert.equal(decide(input, t).reason, 'document_expired');
});

test("typed data that differs from the chip goes to review as the user's mismatch", () => {
  const input = {
    ...genuine(),
    userInputMatch: { fields: { lastName: false }, mismatchedFields: ['lastName'] },
  };
  assert.equal(decide(input, t).reason, 'user_input_mismatch');
  const pre = {
    ...genuine(),
    preRegisteredInfoMatch: { fields: { birthDate: false }, mismatchedFields: ['birthDate'] },
  };
  assert.equal(decide(pre, t).reason, 'pre_registered_info_mismatch');
});

test('a chip check that did not run, or reported no verdict, is never approved', () => {
  const input = genuine();
  input.icChip = { status: 'unavailable', detail: 'icChip unavailable' };
  assert.equal(decide(input, t).status, 'pending_review');
  const silent = genuine();
  silent.icChip = { status: 'success', result: {} };
  assert.equal(decide(silent, t).status, 'pending_review');
});
