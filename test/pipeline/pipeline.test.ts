// The pipeline end to end on a real database with real job processing (pg-boss workers): a session
// submitted through the hosted flow's service functions reaches exactly one decision, GET detail
// shows it, and one webhook event is written with it; duplicates and reprocess behave.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checksForMethod } from '../../src/checks/index.ts';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { DEFAULT_THRESHOLDS } from '../../src/decision/index.ts';
import {
  type PipelineWorkers,
  runCheckJob,
  runDecisionJob,
  startPipelineWorkers,
} from '../../src/pipeline/index.ts';
import { decryptBytes } from '../../src/platform/crypto/encryption.ts';
import { startGeneration } from '../../src/sessions/index.ts';
import { eventBodyContext } from '../../src/webhooks/record-webhook-event.ts';
import { ApiClient, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { submitCorpusSession } from './submitted-session.ts';

/** The checks an image session runs (a chip session's are test/chip/chip-session.test.ts's). */
const CHECK_IDS = checksForMethod('image');

let platform: TestPlatform;
let tenant: TestTenant;
let api: ApiClient;
let workers: PipelineWorkers;

before(async () => {
  platform = await createTestPlatform({
    supervise: true,
    env: { MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-pipeline-')) },
  });
  tenant = await createTestTenant(platform);
  api = await ApiClient.start(platform, tenant.apiKey);
  // As `mimoto start` does: every check's models loaded and warmed before the first job.
  workers = await startPipelineWorkers(platform, {
    pollingIntervalSeconds: 0.5,
    warmUp: true,
    onWarmUpError: (error) => {
      throw error;
    },
  });
});

test('the workers load and warm the check models before their first job, in every inference thread', () => {
  assert.ok(workers.warmedUp, 'the warm-up reported no figures');
  assert.equal(workers.warmedUp.inferenceThreads, Math.min(2, availableParallelism()));
  assert.ok(workers.warmedUp.ms > 0);
});

after(async () => {
  await workers?.stop();
  await api?.app.close();
  await platform?.close();
  // The OCR engine's worker threads would keep the process alive.
  await terminateOcrEngine();
});

async function count(table: 'decisions' | 'webhook_events', sessionId: string): Promise<number> {
  const rows = await platform.database.db
    .selectFrom(table)
    .select('id')
    .where('session_id', '=', sessionId)
    .execute();
  return rows.length;
}

async function waitForDecisions(sessionId: string, n: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await count('decisions', sessionId)) >= n) return;
    const s = await platform.database.db
      .selectFrom('verification_sessions')
      .select(['status', 'failure_reason'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    if (s.status === 'failed') throw new Error(`session failed: ${s.failure_reason}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no decision ${n} for ${sessionId} within ${timeoutMs} ms`);
}

// biome-ignore lint/suspicious/noExplicitAny: the detail is checked field by field below
type Detail = any;

describe('a genuine driving licence submission', () => {
  let sessionId: string;
  let detail: Detail;

  before(async () => {
    sessionId = await submitCorpusSession(platform, api, 'drivers_license-genuine-0', {
      preRegisteredInfo: { lastName: '藤原', firstName: '美咲', birthDate: '1983-09-08' },
    });
    await waitForDecisions(sessionId, 1);
    detail = (await api.getSession(sessionId)).json();
  });

  test('reaches one decision: session completed, verification decided, GET detail filled', () => {
    assert.equal(detail.status, 'completed');
    const v = detail.verification;
    assert.equal(v.verificationId, sessionId);
    assert.ok(['approved', 'rejected', 'pending_review'].includes(v.status));
    assert.equal(v.decision.status, v.status);
    assert.equal(typeof v.decision.reason, 'string');
    // Every check of the image method has a result, from its real implementation; the chip's is absent.
    assert.deepEqual(Object.keys(v.results).sort(), [...CHECK_IDS].sort());
    assert.equal(v.results.icChip, undefined);
    assert.equal(v.results.faceMatch.status, 'success');
    assert.ok(
      v.results.faceMatch.similarity >= 0.6,
      `same person: similarity ${v.results.faceMatch.similarity}`,
    );
    assert.equal(v.results.faceMatch.isSamePerson, true);
    assert.ok(['low', 'medium', 'high'].includes(v.results.documentSpoofCheck.risk));
    assert.ok(['low', 'medium', 'high'].includes(v.results.selfieSpoofCheck.risk));
    assert.equal(typeof v.results.fraudSignalAnalysis.riskScore, 'number');
    assert.equal(v.results.ocr.provider, 'mimoto');
    assert.deepEqual(detail.ocrResult, v.results.ocr);
    assert.equal(detail.ocrResult.detectedDocumentType, 'drivers_license');
    assert.equal(detail.ocrResult.payload.lastName, '藤原');
    assert.equal(detail.ocrResult.payload.birthDate, '1983-09-08');
    assert.deepEqual(v.preRegisteredInfoMatch, { lastName: true, firstName: true, birthDate: true });
    assert.equal(typeof v.userInputMatch, 'boolean');
    // A genuine bundle: same person, matching data, low risk → approved with the §6.2 rule 4 metadata.
    assert.deepEqual(
      [v.status, v.decision.reason],
      ['approved', 'all_checks_passed'],
      JSON.stringify(v.decision),
    );
    assert.deepEqual(Object.keys(v.decision.metadata).sort(), [
      'documentSpoofRisk',
      'faceMatchSimilarity',
      'livenessConfidence',
      'ocrConfidence',
    ]);
  });

  test('one webhook event is written with the decision, with the same status', async () => {
    assert.equal(await count('webhook_events', sessionId), 1);
    const event = await platform.database.db
      .selectFrom('webhook_events')
      .select(['event', 'kind'])
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(event.event, `verification.${detail.verification.status}`);
    assert.equal(event.kind, 'decision');
  });

  test('the results keep provider, model, version, input hashes and duration', async () => {
    const rows = await platform.database.db
      .selectFrom('check_results')
      .selectAll()
      .where('session_id', '=', sessionId)
      .execute();
    const face = rows.find((r) => r.check_id === 'faceMatch')!;
    assert.equal(face.provider, 'mimoto');
    assert.match(face.model, /face-api/);
    assert.match(face.input_hashes.documentPortrait ?? '', /^[0-9a-f]{64}$/);
    assert.ok(face.duration_ms > 0);
    const decision = await platform.database.db
      .selectFrom('decisions')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(decision.thresholds.faceSimilarityThreshold, DEFAULT_THRESHOLDS.faceSimilarityThreshold);
  });

  test('jobs run twice (a retry after a crash, a duplicate) still give one decision and one event', async () => {
    const data = { sessionId, tenantId: tenant.tenantId };
    for (const id of CHECK_IDS) assert.equal(await runCheckJob(platform, id, data), 'already_stored');
    assert.equal(await runDecisionJob(platform, { ...data, generation: 0 }), 'already_decided');
    await new Promise((r) => setTimeout(r, 1500)); // let any decision job sent above run
    assert.equal(await count('decisions', sessionId), 1);
    assert.equal(await count('webhook_events', sessionId), 1);
  });

  test('reprocess runs the named check and the decision again; no webhook when nothing changed', async () => {
    const before = await platform.database.db
      .selectFrom('check_results')
      .select(['check_id', 'completed_at', 'generation'])
      .where('session_id', '=', sessionId)
      .execute();
    const res = await api.reprocess(sessionId, { queues: ['fraudSignalAnalysis'], reason: 'test' });
    assert.equal(res.statusCode, 200, res.body);
    await waitForDecisions(sessionId, 2);
    const after = await platform.database.db
      .selectFrom('check_results')
      .select(['check_id', 'completed_at', 'generation'])
      .where('session_id', '=', sessionId)
      .execute();
    const fraud = after.find((r) => r.check_id === 'fraudSignalAnalysis')!;
    assert.equal(fraud.generation, 1);
    assert.ok(fraud.completed_at > before.find((r) => r.check_id === 'fraudSignalAnalysis')!.completed_at);
    assert.equal(after.find((r) => r.check_id === 'ocr')!.generation, 0, 'ocr was not asked for');
    assert.equal(await count('decisions', sessionId), 2);
    assert.equal(await count('webhook_events', sessionId), 1, 'same status and reason: no second webhook');
  });

  test('reprocess under stricter tenant thresholds changes the decision, and a second webhook goes out', async () => {
    await platform.database.db
      .updateTable('tenants')
      .set({
        settings: JSON.stringify({
          thresholds: { faceSimilarityThreshold: 1, faceNearThresholdBand: 0 },
        }),
      })
      .where('id', '=', tenant.tenantId)
      .execute();
    const res = await api.reprocess(sessionId, { queues: ['faceMatch'], reason: 'stricter face threshold' });
    assert.equal(res.statusCode, 200, res.body);
    await waitForDecisions(sessionId, 3);
    const v = (await api.getSession(sessionId)).json().verification;
    assert.deepEqual([v.status, v.decision.reason], ['rejected', 'face_mismatch']);
    assert.equal(v.decision.metadata.threshold, 1);
    assert.equal(v.results.faceMatch.isSamePerson, false);
    const events = await platform.database.db
      .selectFrom('webhook_events')
      .select(['event', 'kind', 'idempotency_key'])
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      events.map((e) => e.event),
      ['verification.approved', 'verification.rejected'],
    );
    // One automatic decision event per generation: the reprocess's has its own key.
    assert.deepEqual(
      events.map((e) => e.kind),
      ['decision', 'decision'],
    );
    assert.notEqual(events[0]!.idempotency_key, events[1]!.idempotency_key);
    // The changed decision says it came from a reprocess, and what the tenant was told before.
    const bodies = await platform.database.db
      .selectFrom('webhook_events')
      .select(['id', 'body_enc'])
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .execute();
    const payloads = bodies.map((b) =>
      JSON.parse(
        decryptBytes(platform.keyring, Buffer.from(b.body_enc), eventBodyContext(b.id)).toString('utf8'),
      ),
    );
    assert.equal('reprocess' in payloads[0], false, 'the first decision was no reprocess');
    assert.equal(payloads[1].reprocess.previousStatus, 'approved');
    assert.equal(payloads[1].reprocess.reason, 'stricter face threshold');
    assert.equal(payloads[1].reprocess.requestedAt, res.json().queuedAt);
    const stored = await platform.database.db
      .selectFrom('decisions')
      .select('thresholds')
      .where('session_id', '=', sessionId)
      .where('generation', '=', 2)
      .executeTakeFirstOrThrow();
    assert.equal(stored.thresholds.faceSimilarityThreshold, 1, 'the thresholds applied are kept');
    await platform.database.db
      .updateTable('tenants')
      .set({ settings: '{}' })
      .where('id', '=', tenant.tenantId)
      .execute();
  });

  test('a document check asked for again waits for the OCR result of its own generation', async () => {
    // A reprocess naming ocr and documentSpoofCheck, its jobs run here by hand in the racy order:
    // the document check first, while the earlier generation's OCR result is still stored.
    const generation = await startGeneration(
      platform.database.db,
      sessionId,
      ['ocr', 'documentSpoofCheck'],
      platform.now(),
    );
    const data = { sessionId, tenantId: tenant.tenantId, generation };
    assert.equal(await runCheckJob(platform, 'documentSpoofCheck', data), 'waiting');
    assert.equal(await runCheckJob(platform, 'ocr', data), 'stored');
    // The OCR result's arrival enqueues the document check (the workers run it), then the decision.
    await waitForDecisions(sessionId, 4);
    const doc = await platform.database.db
      .selectFrom('check_results')
      .select('generation')
      .where('session_id', '=', sessionId)
      .where('check_id', '=', 'documentSpoofCheck')
      .executeTakeFirstOrThrow();
    assert.equal(doc.generation, generation);
  });

  test("a reviewer's decision is final: reprocess answers 409 DecisionFinal", async () => {
    await platform.database.db
      .insertInto('decisions')
      .values({
        id: `dec_review_${sessionId}`,
        session_id: sessionId,
        tenant_id: tenant.tenantId,
        generation: 2,
        kind: 'review',
        status: 'approved',
        reason: 'checked by hand',
        metadata: '{}',
        thresholds: '{}',
        pre_registered_info_match: null,
        user_input_match: null,
        decided_at: platform.now(),
      })
      .execute();
    const res = await api.reprocess(sessionId, { queues: ['ocr'] });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error, 'DecisionFinal');
  });
});

describe('a live check that failed every attempt', () => {
  test('is decided rejected with liveness_failed, not marked failed', async () => {
    const sessionId = await submitCorpusSession(platform, api, 'passport-genuine-0', { failLiveness: true });
    const deadline = Date.now() + 60_000;
    let detail = (await api.getSession(sessionId)).json();
    while (Date.now() < deadline && detail.status !== 'completed' && detail.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 250));
      detail = (await api.getSession(sessionId)).json();
    }
    assert.equal(detail.status, 'completed');
    assert.equal(detail.verification.decision.status, 'rejected');
    assert.equal(detail.verification.decision.reason, 'liveness_failed');
    assert.equal(detail.verification.results.faceMatch.isSamePerson, false);
    assert.equal(await count('webhook_events', sessionId), 1);
  });
});

describe('a front photo in which the OCR reads no document type', () => {
  const decideWithFront = async (bundle: string, frontFile: string) => {
    const sessionId = await submitCorpusSession(platform, api, bundle, { frontFile });
    await waitForDecisions(sessionId, 1);
    return (await api.getSession(sessionId)).json().verification;
  };

  test('a selfie is rejected as unsupported_document_type, not sent to review as an unreadable card', async () => {
    // The face check's outline search takes its background for a card (test/fixtures/selfie-as-front);
    // the OCR's, in the pipeline, finds no document on it (unsupportedDocumentType 'unknown').
    const v = await decideWithFront('drivers_license-genuine-0', 'test/fixtures/selfie-as-front/selfie.jpg');
    assert.equal(v.results.ocr.detectedDocumentType, undefined);
    assert.deepEqual([v.decision.status, v.decision.reason], ['rejected', 'unsupported_document_type']);
  });

  test('a selfie the OCR reads as an unreadable card (its background taken for an outline) is rejected too', async () => {
    // test/fixtures/selfie-outline: the OCR finds an outline in its background and reads nothing
    // there; the face spans most of the photo.
    const v = await decideWithFront('drivers_license-genuine-0', 'test/fixtures/selfie-outline/selfie.jpg');
    assert.equal(v.results.ocr.unsupportedDocumentType, undefined);
    assert.deepEqual([v.decision.status, v.decision.reason], ['rejected', 'unsupported_document_type']);
    assert.match(v.decision.metadata.detail, /photo of a face/);
  });

  test('a card whose outline the OCR cannot find but whose portrait shows goes to review, not rejected', async () => {
    // Glare washes out the card's edge; the face check still finds its portrait, card-sized.
    const v = await decideWithFront(
      'my_number_card-genuine-0',
      'test/fixtures/missed-document-glare/front.jpg',
    );
    assert.equal(v.results.ocr.unsupportedDocumentType, 'unknown');
    assert.match(v.results.ocr.reason, /no identity document found/);
    assert.deepEqual([v.decision.status, v.decision.reason], ['pending_review', 'low_ocr_confidence']);
  });
});

describe('a check that fails permanently', () => {
  test('marks the session failed with the cause stored, and no decision is taken', async () => {
    const sessionId = await submitCorpusSession(platform, api, 'passport-genuine-0', {
      loseReferenceImage: true,
    });
    const deadline = Date.now() + 60_000;
    let row = { status: '', failure_reason: null as string | null };
    while (Date.now() < deadline) {
      row = await platform.database.db
        .selectFrom('verification_sessions')
        .select(['status', 'failure_reason'])
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      if (row.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(row.status, 'failed');
    assert.match(row.failure_reason ?? '', /(faceMatch|selfieSpoofCheck) failed: MissingInputError/);
    const detail = (await api.getSession(sessionId)).json();
    assert.equal(detail.status, 'failed');
    assert.equal(await count('decisions', sessionId), 0);
    assert.equal(await count('webhook_events', sessionId), 0);
  });
});
