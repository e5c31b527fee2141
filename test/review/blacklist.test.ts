// Tenant blacklists: matching rules on their own, then end to end — entries made
// with the admin service, sessions submitted through the hosted flow's service functions and
// decided by the real pipeline (pg-boss workers, real OCR and face descriptors).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type BlacklistEntry, matchBlacklistEntry } from '../../src/checks/fraud-signals/index.ts';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import {
  createBlacklistEntry,
  deleteBlacklistEntry,
  listBlacklist,
  updateBlacklistEntry,
} from '../../src/review/blacklist-service.ts';
import { ApiClient, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { submitCorpusSession } from '../pipeline/submitted-session.ts';
import { ConsoleClient } from './review-fixture.ts';

const entry = (over: Partial<BlacklistEntry>): BlacklistEntry => ({
  id: 'bl_test',
  tenantId: 'tn_test',
  label: 'test',
  matchMode: 'exact',
  action: 'reject',
  conditions: {},
  face: null,
  faceFromSessionId: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});
const faces = { exact: 0.75, fuzzy: 0.5 };
const person = { lastName: '森田', firstName: '悠斗', birthDate: '1988-05-12' };

describe('matching an entry', () => {
  test('exact: name + birth date equal after Japanese normalisation (width, kana, old kanji, spaces)', () => {
    const e = entry({ conditions: { lastName: '髙橋', firstName: 'ｹﾝ', birthDate: '1990-01-02' } });
    const lookup = {
      tenantId: 't',
      lastName: '高橋',
      firstName: 'けん',
      birthDate: '1990-01-02',
      faceSimilarity: faces,
    };
    assert.equal(matchBlacklistEntry(e, lookup), 'name_birth_date');
    assert.equal(matchBlacklistEntry(e, { ...lookup, lastName: '高 橋' }), 'name_birth_date');
    assert.equal(matchBlacklistEntry(e, { ...lookup, birthDate: '1990-01-03' }), null);
    assert.equal(matchBlacklistEntry(e, { ...lookup, firstName: 'けい' }), null);
  });

  test('fuzzy: one character off matches a full name, never a different birth date', () => {
    const e = entry({ matchMode: 'fuzzy', conditions: { ...person, firstName: '悠人' } });
    const lookup = { tenantId: 't', ...person, faceSimilarity: faces };
    assert.equal(matchBlacklistEntry(e, lookup), 'name_birth_date');
    assert.equal(matchBlacklistEntry(entry({ conditions: e.conditions }), lookup), null, 'exact does not');
    assert.equal(matchBlacklistEntry(e, { ...lookup, firstName: '大輝' }), null, 'two characters off');
    assert.equal(matchBlacklistEntry(e, { ...lookup, birthDate: '1988-05-13' }), null);
  });

  test('a name without birth date never matches: the three go together', () => {
    const e = entry({ conditions: { lastName: '森田', firstName: '悠斗' } });
    assert.equal(matchBlacklistEntry(e, { tenantId: 't', ...person, faceSimilarity: faces }), null);
  });

  test('document number: spaces, hyphens and case ignored; fuzzy allows one misread character', () => {
    const e = entry({ conditions: { documentNumber: '5014-6622 3860' } });
    const lookup = { tenantId: 't', documentNumber: '501466223860', faceSimilarity: faces };
    assert.equal(matchBlacklistEntry(e, lookup), 'document_number');
    assert.equal(matchBlacklistEntry(e, { ...lookup, documentNumber: '501466223868' }), null);
    const fuzzy = entry({ ...e, matchMode: 'fuzzy' });
    assert.equal(
      matchBlacklistEntry(fuzzy, { ...lookup, documentNumber: '501466223868' }),
      'document_number',
    );
    assert.equal(matchBlacklistEntry(fuzzy, { ...lookup, documentNumber: '501466220000' }), null);
  });

  test('face: calibrated similarity against the exact or the fuzzy threshold', () => {
    const base = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) / 11);
    const near = base.map((v, i) => v + (i % 2 ? 0.012 : -0.012));
    const far = base.map((v, i) => (i % 3 ? -v : v + 0.05));
    const e = entry({ face: base });
    assert.equal(
      matchBlacklistEntry(e, { tenantId: 't', selfieDescriptor: near, faceSimilarity: faces }),
      'face',
    );
    assert.equal(
      matchBlacklistEntry(e, { tenantId: 't', selfieDescriptor: far, faceSimilarity: faces }),
      null,
    );
    // A lookup without a face (no selfie described) cannot match on the face.
    assert.equal(
      matchBlacklistEntry(e, { tenantId: 't', selfieDescriptor: null, faceSimilarity: faces }),
      null,
    );
  });
});

let platform: TestPlatform;
let workers: PipelineWorkers;

async function newTenant(): Promise<{
  tenant: TestTenant;
  api: ApiClient;
  admin: { id: string; email: string; tenantId: string };
}> {
  const tenant = await createTestTenant(platform);
  const api = await ApiClient.start(platform, tenant.apiKey);
  return {
    tenant,
    api,
    admin: { id: 'usr_admin', email: 'admin@tenant.example', tenantId: tenant.tenantId },
  };
}

async function decided(api: ApiClient, sessionId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const detail = (await api.getSession(sessionId)).json();
    if (detail.status === 'failed') throw new Error(`session failed: ${JSON.stringify(detail)}`);
    // The session row and the decision are read one after the other: wait for both.
    if (detail.verification?.decision && detail.verification.status !== 'processing') return detail;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no decision for ${sessionId}`);
}

// The committed corpus sample's licence holder (test/fixtures/corpus/manifest.json,
// drivers_license-genuine-0), as the pipeline reads her.
const sampleHolder = { lastName: '藤原', firstName: '美咲', birthDate: '1983-09-08' };

describe('blacklists through the pipeline', () => {
  const apis: ApiClient[] = [];
  before(async () => {
    platform = await createTestPlatform({
      supervise: true,
      env: { MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-blacklist-')) },
    });
    workers = await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5 });
  });
  after(async () => {
    await workers?.stop();
    for (const api of apis) await api.app.close();
    await platform?.close();
    await terminateOcrEngine();
  });

  test('name + birth date (fuzzy) and document number entries with action reject: rejected blacklist_match with metadata', async () => {
    const { api, admin } = await newTenant();
    apis.push(api);
    const fuzzyName = await createBlacklistEntry(platform, admin, {
      label: 'Known fraudster, name as reported',
      matchMode: 'fuzzy',
      action: 'reject',
      ...sampleHolder,
      firstName: '美笑',
    });
    const exactMisspelt = await createBlacklistEntry(platform, admin, {
      label: 'Same misspelling, exact',
      matchMode: 'exact',
      action: 'review',
      ...sampleHolder,
      firstName: '美笑',
    });
    const documentNumber = await createBlacklistEntry(platform, admin, {
      label: 'Stolen licence',
      matchMode: 'exact',
      action: 'review',
      documentNumber: '4010 2311-8290',
    });
    const sessionId = await submitCorpusSession(platform, api, 'drivers_license-genuine-0');
    const detail = await decided(api, sessionId);
    const v = detail.verification;
    assert.deepEqual(
      [v.status, v.decision.reason],
      ['rejected', 'blacklist_match'],
      JSON.stringify(v.decision),
    );
    const ids = v.decision.metadata.blacklistMatches.map((m: { id: string }) => m.id).sort();
    assert.deepEqual(ids, [fuzzyName.entryId, documentNumber.entryId].sort());
    assert.ok(!ids.includes(exactMisspelt.entryId), 'an exact entry one character off does not match');
    assert.equal(v.decision.metadata.blacklistAction, 'reject');
    assert.ok(!Number.isNaN(Date.parse(v.decision.metadata.blacklistCheckedAt)));
    const signals = v.results.fraudSignalAnalysis.signals.filter(
      (s: { code: string }) => s.code === 'blacklist_match',
    );
    assert.equal(signals.length, 2);
  });

  test('a face entry taken from an earlier session, action review: the same face goes to pending_review; a reviewer decides it in the console', async () => {
    const { api, admin } = await newTenant();
    apis.push(api);
    const first = await submitCorpusSession(platform, api, 'drivers_license-genuine-0');
    const before = await decided(api, first);
    assert.notEqual(before.verification.decision.reason, 'blacklist_match');
    const faceEntry = await createBlacklistEntry(platform, admin, {
      label: 'Face seen in a chargeback',
      matchMode: 'fuzzy',
      action: 'review',
      faceFromSessionId: first,
    });
    assert.equal(faceEntry.hasFace, true);
    const second = await submitCorpusSession(platform, api, 'drivers_license-genuine-0');
    const v = (await decided(api, second)).verification;
    assert.deepEqual(
      [v.status, v.decision.reason],
      ['pending_review', 'blacklist_match'],
      JSON.stringify(v.decision),
    );
    assert.equal(v.decision.metadata.blacklistAction, 'review');
    assert.deepEqual(
      v.decision.metadata.blacklistMatches.map((m: { id: string }) => m.id),
      [faceEntry.entryId],
    );

    // A reviewer works the case in the console: real images, OCR beside the typed data, decision.
    const reviewer = await ConsoleClient.signIn(api.app, platform, {
      email: `reviewer-${admin.tenantId}@tenant.example`,
      role: 'reviewer',
      tenantId: admin.tenantId,
    });
    const casePath = `/console/api/tenants/${admin.tenantId}/sessions/${second}`;
    const { session } = (await reviewer.request('GET', casePath)).json();
    const names = session.images.map((i: { name: string }) => i.name);
    assert.deepEqual(names, ['front', 'back', 'liveness-reference', 'frame-0']);
    const front = await reviewer.request('GET', session.images[0].url);
    assert.equal(front.statusCode, 200);
    assert.deepEqual([...front.rawPayload.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
    const lastName = session.comparison.find((c: { field: string }) => c.field === 'lastName');
    assert.deepEqual(
      [lastName.ocr, lastName.userInput, lastName.userInputMatchesOcr],
      ['藤原', '藤原', true],
    );
    assert.equal(session.automaticDecision.reason, 'blacklist_match');
    assert.equal(typeof session.automaticDecision.thresholds.faceSimilarityThreshold, 'number');
    assert.equal(session.verification.results.faceMatch.status, 'success');
    assert.equal((await reviewer.request('POST', `${casePath}/claim`)).statusCode, 200);
    const decidedByReviewer = await reviewer.request('POST', `${casePath}/review`, {
      decision: 'rejected',
      reasonCode: 'suspected_fraud',
      reason: 'Same face as the chargeback case',
    });
    assert.equal(decidedByReviewer.statusCode, 200, decidedByReviewer.body);
    const after = (await api.getSession(second)).json().verification;
    assert.deepEqual([after.status, after.decision.reason], ['rejected', 'Same face as the chargeback case']);
    const events = await platform.database.db
      .selectFrom('webhook_events')
      .select(['event', 'kind'])
      .where('session_id', '=', second)
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      events.map((e) => e.event),
      ['verification.pending_review', 'verification.rejected'],
    );
    assert.deepEqual(
      events.map((e) => e.kind),
      ['decision', 'review'],
    );
    assert.equal((await api.reprocess(second, {})).json().error, 'DecisionFinal');
  });

  test('admin service: edits and deletes write audit rows naming conditions, never their values', async () => {
    const { admin } = await newTenant();
    const created = await createBlacklistEntry(platform, admin, {
      label: 'Entry',
      matchMode: 'exact',
      action: 'review',
      documentNumber: 'AB1234567',
    });
    const updated = await updateBlacklistEntry(platform, admin, created.entryId, {
      label: 'Entry, renamed',
      matchMode: 'fuzzy',
      action: 'reject',
      ...person,
    });
    assert.equal(updated.documentNumber, null);
    assert.equal(updated.lastName, '森田');
    assert.deepEqual(
      (await listBlacklist(platform, admin.tenantId)).map((e) => e.label),
      ['Entry, renamed'],
    );
    await deleteBlacklistEntry(platform, admin, created.entryId);
    assert.deepEqual(await listBlacklist(platform, admin.tenantId), []);
    const audit = await platform.database.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after', 'actor'])
      .where('target_id', '=', created.entryId)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['blacklist.create', 'blacklist.update', 'blacklist.delete'],
    );
    const text = JSON.stringify(audit);
    for (const secret of ['AB1234567', '森田', '1988-05-12'])
      assert.ok(!text.includes(secret), `${secret} in audit`);
    assert.match(text, /document_number/);
    // The stored row keeps the conditions encrypted.
    const raw = JSON.stringify(
      await platform.database.db.selectFrom('blacklist_entries').selectAll().execute(),
    );
    assert.ok(!raw.includes('AB1234567'));
  });
});
