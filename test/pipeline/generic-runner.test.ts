// A check added as its folder and its registry line only: a definition with `run`, on the event
// loop, for which no runner is written in check-runners.ts. The check is declared here, as a new
// folder's definition.ts would declare it, and run by the pipeline's generic runner on a stored
// session: its declared inputs loaded by the pipeline, the result it waits for read from the store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { defineCheck } from '../../src/checks/index.ts';
import { DEFAULT_THRESHOLDS } from '../../src/decision/index.ts';
import { userInputContext } from '../../src/hosted-flow/user-input.ts';
import { RUNNERS, runDeclaredCheck } from '../../src/pipeline/check-runners.ts';
import { encryptJson } from '../../src/platform/crypto/encryption.ts';
import { findSession } from '../../src/sessions/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { decidedSession, storeCheckResult } from '../review/review-fixture.ts';

const AddressMatchSchema = Type.Object(
  { matches: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, title: 'AddressMatch' },
);

/** The sixth check: does the address typed equal the address the OCR read? */
const addressMatch = defineCheck({
  id: 'addressMatch',
  version: '0.1.0',
  inputs: ['userInput', 'thresholds'],
  waitsFor: ['ocr'],
  resultSchema: AddressMatchSchema,
  runsIn: 'eventLoop',
  async run({ inputs, results }) {
    const typed = inputs.userInput?.address;
    const payload = results.ocr.result.payload as { address?: string } | undefined;
    const read = payload?.address;
    return {
      result: typed && read ? { matches: typed === read } : {},
      extras: { minimumAge: inputs.thresholds.minimumAge, ocrExtras: results.ocr.extras ?? null },
      model: 'equality',
    };
  },
});

describe('the generic runner', () => {
  const t = useTestApi();

  async function sessionWith(address: string, readAddress: string) {
    const sessionId = await decidedSession(t.platform, t.api, 'https://tenant.example/kyc/callback/g');
    await t.platform.database.db
      .updateTable('verification_sessions')
      .set({
        user_input_enc: encryptJson(t.platform.keyring, { address }, userInputContext(sessionId)),
      })
      .where('id', '=', sessionId)
      .execute();
    await storeCheckResult(t.platform, sessionId, 'ocr', { payload: { address: readAddress } });
    const session = await findSession(t.platform.database.db, sessionId);
    assert.ok(session);
    return session;
  }

  it('runs a declared check that has no runner, with its declared inputs and the result it waits for', async () => {
    assert.equal((RUNNERS as Record<string, unknown>)[addressMatch.id], undefined);
    const session = await sessionWith('東京都千代田区千代田1-1', '東京都千代田区千代田1-1');
    const run = await runDeclaredCheck(addressMatch, t.platform, session, DEFAULT_THRESHOLDS);
    assert.equal(run.status, 'success');
    assert.deepEqual(run.envelope, {
      result: { matches: true },
      extras: { minimumAge: DEFAULT_THRESHOLDS.minimumAge, ocrExtras: null },
    });
    assert.equal(run.provider, 'mimoto');
    assert.equal(run.model, 'equality');
    assert.deepEqual(Object.keys(run.inputHashes).sort(), ['ocr', 'thresholds', 'userInput']);

    const other = await sessionWith('東京都千代田区千代田1-1', '大阪府大阪市北区梅田1-1');
    const mismatch = await runDeclaredCheck(addressMatch, t.platform, other, DEFAULT_THRESHOLDS);
    assert.deepEqual(mismatch.envelope.result, { matches: false });
    // Another user input, another hash; the same thresholds, the same hash.
    assert.notEqual(mismatch.inputHashes.ocr, run.inputHashes.ocr);
    assert.equal(mismatch.inputHashes.thresholds, run.inputHashes.thresholds);
  });

  it('waits when the result it waits for is not stored', async () => {
    const session = await sessionWith('a', 'a');
    const waitsForFaceMatch = defineCheck({
      ...addressMatch,
      waitsFor: ['faceMatch'],
      run: async () => ({ result: {} }),
    });
    await assert.rejects(runDeclaredCheck(waitsForFaceMatch, t.platform, session, DEFAULT_THRESHOLDS), {
      name: 'DependencyNotReady',
    });
  });

  it('refuses a result its schema does not accept', async () => {
    const session = await sessionWith('a', 'a');
    const wrong = defineCheck({
      ...addressMatch,
      run: async () => ({ result: { matches: 'yes' } as never }),
    });
    await assert.rejects(runDeclaredCheck(wrong, t.platform, session, DEFAULT_THRESHOLDS), /schema refuses/);
  });

  it('leaves a check running in the threads to a runner of its own', async () => {
    const session = await sessionWith('a', 'a');
    const inThreads = defineCheck({ ...addressMatch, runsIn: 'thread' });
    await assert.rejects(
      runDeclaredCheck(inThreads, t.platform, session, DEFAULT_THRESHOLDS),
      /runs in the inference threads: it needs a runner/,
    );
    const noRun = defineCheck({ ...addressMatch, run: undefined });
    await assert.rejects(
      runDeclaredCheck(noRun, t.platform, session, DEFAULT_THRESHOLDS),
      /neither a runner/,
    );
  });
});
