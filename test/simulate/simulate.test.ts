// `mimoto simulate` against a real server on a loopback port (issue 5 item 7): each persona walks
// the hosted flow over HTTP as a browser would; the tenant API then shows what the server made
// of it. One server for the file; Human and face-api load once in this process (the CLI test
// loads them again in its child).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { FlowStepRefused } from '../../src/simulate/hosted-flow-client.ts';
import { preparePersonaMedia } from '../../src/simulate/persona-media.ts';
import { simulateFlow } from '../../src/simulate/simulate-flow.ts';
import { CALLBACK_PREFIX } from '../helpers/api-client.ts';
import {
  createSession,
  getSessionDetail,
  queuedCheckJobs,
  type SimulateServer,
  startSimulateServer,
} from './simulate-server.ts';

const CHECK_JOBS = [
  'check.documentSpoofCheck',
  'check.faceMatch',
  'check.fraudSignalAnalysis',
  'check.ocr',
  'check.selfieSpoofCheck',
];

function expectedRedirect(sessionId: string) {
  return `${CALLBACK_PREFIX}/done?sessionId=${sessionId}&state=tenant-state-7`;
}

describe('mimoto simulate', () => {
  let server: SimulateServer;
  before(async () => {
    server = await startSimulateServer();
  });
  after(async () => {
    await server?.close();
  });

  test('genuine: front and back, a passed face check, the document identity typed, submitted with 5 checks queued', async () => {
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({
      url: verificationUrl,
      persona: 'genuine',
      seed: 3,
      documentType: 'drivers_license',
    });
    assert.equal(result.sessionId, sessionId);
    assert.equal(result.redirectedTo, expectedRedirect(sessionId));
    assert.equal(result.liveness.status, 'success');
    assert.equal(result.liveness.attempts.length, 1);
    const detail = await getSessionDetail(server, sessionId);
    assert.equal(detail.verification.status, 'processing');
    assert.equal(detail.documentType, 'drivers_license');
    assert.equal(detail.documents.frontUploaded, true);
    assert.equal(detail.documents.backUploaded, true);
    assert.equal(detail.liveness.status, 'success');
    assert.ok(detail.liveness.confidence > 0.5, `confidence ${detail.liveness.confidence}`);
    assert.match(detail.userInput.lastNameKana, /^[ァ-ヶー]+$/);
    assert.deepEqual(await queuedCheckJobs(server, sessionId), CHECK_JOBS);
  });

  test('photo-attack: three failed face checks, recorded as failed, and the flow still reaches submission', async () => {
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({
      url: verificationUrl,
      persona: 'photo-attack',
      seed: 4,
      documentType: 'passport',
    });
    assert.equal(result.liveness.status, 'failed');
    assert.equal(result.liveness.attempts.length, 3);
    for (const { answer } of result.liveness.attempts) {
      assert.equal(answer.passed, false);
      assert.ok(answer.failures.includes('pose_order_mismatch'), answer.failures.join());
    }
    assert.equal(result.redirectedTo, expectedRedirect(sessionId));
    const detail = await getSessionDetail(server, sessionId);
    assert.equal(detail.liveness.status, 'failed');
    assert.equal(detail.verification.status, 'processing');
    assert.deepEqual(await queuedCheckJobs(server, sessionId), CHECK_JOBS);
  });

  test('impostor: one person’s document, another’s face, passes the face check and reaches submission', async () => {
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({
      url: verificationUrl,
      persona: 'impostor',
      seed: 5,
      documentType: 'passport',
    });
    assert.notEqual(result.facePerson, result.documentPerson);
    assert.equal(result.liveness.status, 'success');
    assert.equal(result.redirectedTo, expectedRedirect(sessionId));
    assert.equal((await getSessionDetail(server, sessionId)).verification.status, 'processing');
  });

  test('the same persona and seed give the same media; another seed another person or identity', async () => {
    const a = await preparePersonaMedia('screen-replay', 9, 'passport');
    const b = await preparePersonaMedia('screen-replay', 9, 'passport');
    const c = await preparePersonaMedia('screen-replay', 10, 'passport');
    assert.deepEqual(b.personalData, a.personalData);
    assert.equal(b.documentPerson, a.documentPerson);
    const [frontA, frontB] = [await a.photographSide('front', 0), await b.photographSide('front', 0)];
    assert.ok(frontA.jpeg.equals(frontB.jpeg), 'same JPEG bytes');
    assert.notDeepEqual([c.documentPerson, c.personalData], [a.documentPerson, a.personalData]);
  });

  test('a link already used is refused with the server’s 410, and the run says so', async () => {
    const { verificationUrl } = await createSession(server);
    assert.equal((await fetch(verificationUrl, { redirect: 'manual' })).status, 303);
    await assert.rejects(
      simulateFlow({ url: verificationUrl, persona: 'genuine' }),
      (error) =>
        error instanceof FlowStepRefused && error.status === 410 && /verification link/.test(error.message),
    );
  });

  test('the CLI with --json: exit 0, progress on stderr, last stdout line {sessionId, redirectedTo}', async () => {
    const { sessionId, verificationUrl } = await createSession(server);
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        'bin/mimoto.js',
        'simulate',
        '--url',
        verificationUrl,
        '--persona',
        'genuine',
        '--seed',
        '6',
        '--document-type',
        'passport',
        '--json',
      ],
      { timeout: 60_000 },
    );
    const lines = stdout.trim().split('\n');
    assert.deepEqual(JSON.parse(lines.at(-1) ?? ''), {
      sessionId,
      redirectedTo: expectedRedirect(sessionId),
    });
    assert.equal(lines.length, 1, 'nothing but the result on stdout');
    assert.match(stderr, /liveness passed/);
    assert.equal((await getSessionDetail(server, sessionId)).verification.status, 'processing');
  });
});
