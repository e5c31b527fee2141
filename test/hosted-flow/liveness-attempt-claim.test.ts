// Issue 46 point 7: a liveness attempt's challenge is used up, and the try counted, together with
// its verdict, in one transaction after the verification — so a verification that cannot finish
// (the inference thread died, the models would not load; an api process killed meanwhile is the
// same case: nothing was written) costs the person nothing, and the same challenge can be answered
// again. The verifier is handed in (receiveLivenessAttempt's `verify`): these tests are about what
// is stored around it, not about faces (the real verifier: test/liveness, test/simulate).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Multipart } from '@fastify/multipart';
import { loadFlowSession } from '../../src/hosted-flow/flow-session.ts';
import {
  LIVENESS_RETRY_AFTER_SECONDS,
  receiveLivenessAttempt,
  type VerifyLiveness,
} from '../../src/hosted-flow/liveness-attempt.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const CORPUS = 'test/fixtures/corpus';
const frames = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8'))
  .samples.find((s: { id: string }) => s.id === 'static_photo-0')
  .files.frames.slice(0, 4)
  .map((f: { file: string }) => readFileSync(`${CORPUS}/${f.file}`)) as Buffer[];

/** The request's parts as @fastify/multipart hands them: the two fields, then the frames. */
async function* attemptParts(challengeId: string): AsyncIterable<Multipart> {
  yield { type: 'field', fieldname: 'challengeId', value: challengeId } as unknown as Multipart;
  yield {
    type: 'field',
    fieldname: 'timestamps',
    // A span under the server's 1 s of clock slack: the capture may not be longer than the time since
    // the challenge was issued, and here the attempt follows the challenge within milliseconds.
    value: JSON.stringify(frames.map((_, i) => i * 200)),
  } as unknown as Multipart;
  for (const bytes of frames)
    yield { type: 'file', fieldname: 'frames', toBuffer: async () => bytes } as unknown as Multipart;
}

const verdict = (passed: boolean): Awaited<ReturnType<VerifyLiveness>> => ({
  passed,
  confidence: passed ? 0.9 : 0,
  failures: passed ? [] : ['pose_order_mismatch'],
  observedSteps: [],
  referenceIndex: passed ? 0 : null,
  maxFaceDistance: null,
  frames: [],
  passive: {} as never,
  screenLight: null,
});

describe('a liveness attempt is counted with its verdict, never before it', () => {
  const t = useTestApi({ env: dataDirEnv() });

  const open = async () => {
    const a = await FlowClient.enter(t);
    assert.equal((await a.send('POST', '/verify/api/consent')).statusCode, 204);
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    const context = await loadFlowSession(t.platform, { cookies: { mimoto_flow: a.cookie } } as never);
    return { a, challengeId: challengeId as string, context };
  };
  const stored = async (sessionId: string, challengeId: string) => ({
    session: await t.platform.database.db
      .selectFrom('verification_sessions')
      .select(['liveness_attempts', 'liveness_status'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow(),
    challenge: await t.platform.database.db
      .selectFrom('liveness_challenges')
      .select(['used_at', 'passed', 'frame_blobs'])
      .where('id', '=', challengeId)
      .executeTakeFirstOrThrow(),
  });

  test('a verification that cannot finish → 503 with Retry-After; nothing used, the same challenge then answered', async () => {
    const { a, challengeId, context } = await open();
    let asked: { steps: readonly string[]; frames: number; light: readonly string[] } | null = null;
    const dying: VerifyLiveness = async (steps, sent, light = []) => {
      asked = { steps, frames: sent.length, light };
      throw new Error('the inference thread exited');
    };
    await assert.rejects(
      receiveLivenessAttempt(t.platform, context, attemptParts(challengeId), dying),
      (error) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.statusCode, 503);
        assert.equal(error.code, 'ServiceUnavailable');
        assert.deepEqual(error.headers, { 'Retry-After': String(LIVENESS_RETRY_AFTER_SECONDS) });
        return true;
      },
    );
    // The verifier had the challenge as issued: its steps and its screen-light colours.
    const challenge = (await a.state()).json();
    assert.equal(asked!.frames, 4);
    assert.equal(asked!.steps.length, 3);
    assert.ok(asked!.light.length > 0, 'the screen-light sequence is passed on');
    assert.equal(challenge.steps.liveness.attemptsLeft, 3);
    assert.deepEqual(await stored(context.session.id, challengeId), {
      session: { liveness_attempts: 0, liveness_status: null },
      challenge: { used_at: null, passed: null, frame_blobs: null },
    });

    // Sent again, the same challenge is answered, and now counted with its verdict.
    const failing: VerifyLiveness = async () => verdict(false);
    const result = await receiveLivenessAttempt(t.platform, context, attemptParts(challengeId), failing);
    assert.deepEqual(
      { passed: result.passed, livenessStatus: result.livenessStatus, attemptsLeft: result.attemptsLeft },
      { passed: false, livenessStatus: 'pending', attemptsLeft: 2 },
    );
    const after = await stored(context.session.id, challengeId);
    assert.equal(after.session.liveness_attempts, 1);
    assert.ok(after.challenge.used_at !== null);
    assert.equal(after.challenge.passed, false);
    assert.equal((after.challenge.frame_blobs as string[]).length, 4);
    // Answered, the challenge is spent: sending it again is refused and counts nothing.
    await assert.rejects(
      receiveLivenessAttempt(t.platform, context, attemptParts(challengeId), failing),
      (error) => error instanceof AppError && error.code === 'LivenessChallengeInvalid',
    );
    assert.equal((await stored(context.session.id, challengeId)).session.liveness_attempts, 1);
  });

  test('two verifications of one challenge finishing together: one is recorded, the other refused', async () => {
    const { challengeId, context } = await open();
    // Both pass the open-challenge check before either verdict is stored (two api processes).
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    const slow: VerifyLiveness = async () => {
      waiting++;
      if (waiting === 2) release();
      await gate;
      return verdict(true);
    };
    const outcomes = await Promise.allSettled([
      receiveLivenessAttempt(t.platform, context, attemptParts(challengeId), slow),
      receiveLivenessAttempt(t.platform, context, attemptParts(challengeId), slow),
    ]);
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(fulfilled.length, 1);
    assert.equal(rejected.length, 1);
    assert.equal((rejected[0]!.reason as AppError).code, 'LivenessChallengeInvalid');
    const after = await stored(context.session.id, challengeId);
    assert.deepEqual(after.session, { liveness_attempts: 1, liveness_status: 'success' });
    assert.equal((after.challenge.frame_blobs as string[]).length, 4);
  });
});
