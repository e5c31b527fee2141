// `mimoto simulate` against a real server on a loopback port: each persona walks the hosted flow
// over HTTP as a browser would; the tenant API then shows what the server made of it. One server
// for the file; Human and face-api load once in this process. The command as a separate process
// (session created by it, --wait, failures) is in simulate-cli.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FlowStepRefused } from '../../src/simulate/hosted-flow-client.ts';
import { preparePersonaMedia } from '../../src/simulate/persona-media.ts';
import { simulateCommand } from '../../src/simulate/simulate.command.ts';
import { prepareSimulation, simulateFlow } from '../../src/simulate/simulate-flow.ts';
import { updateTenantSettings } from '../../src/tenants/tenant-repository.ts';
import { CALLBACK_PREFIX, createTestTenant } from '../helpers/api-client.ts';
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
    // Media first, then the session: its link is valid 10 s (docs/api-reference.md §8).
    const prepared = await prepareSimulation({
      persona: 'genuine',
      seed: 3,
      documentType: 'drivers_license',
    });
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({ url: verificationUrl, persona: 'genuine', prepared });
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
    // Media first, then the session: its link is valid 10 s (docs/api-reference.md §8).
    const prepared = await prepareSimulation({ persona: 'photo-attack', seed: 4, documentType: 'passport' });
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({ url: verificationUrl, persona: 'photo-attack', prepared });
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
    // Media first, then the session: its link is valid 10 s (docs/api-reference.md §8).
    const prepared = await prepareSimulation({ persona: 'impostor', seed: 5, documentType: 'passport' });
    const { sessionId, verificationUrl } = await createSession(server);
    const result = await simulateFlow({ url: verificationUrl, persona: 'impostor', prepared });
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
    const prepared = await prepareSimulation({ persona: 'genuine', documentType: 'passport' });
    const { verificationUrl } = await createSession(server);
    assert.equal((await fetch(verificationUrl, { redirect: 'manual' })).status, 303);
    await assert.rejects(
      simulateFlow({ url: verificationUrl, persona: 'genuine', prepared }),
      (error) =>
        error instanceof FlowStepRefused && error.status === 410 && /verification link/.test(error.message),
    );
  });

  test('the command with --url: a link made elsewhere, media prepared first, exit 0 and one JSON line on stdout', async () => {
    const args = ['--persona', 'genuine', '--seed', '1', '--document-type', 'passport', '--json'];
    // The command prepares the media before it opens the link (valid 10 s). Made once here first,
    // its second making is quick; on a machine so busy that the link still ran out, the tenant
    // would make a new session, and so does the test (once).
    await prepareSimulation({ persona: 'genuine', seed: 1, documentType: 'passport' });
    let out = captureOutput();
    let code = -1;
    let sessionId = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      out = captureOutput();
      const created = await createSession(server);
      sessionId = created.sessionId;
      code = await simulateCommand(['--url', created.verificationUrl, ...args], out.io);
      if (code === 0 || !/HTTP 410/.test(out.stderr())) break;
    }
    assert.equal(code, 0, out.stderr());
    const lines = out.stdout().trim().split('\n');
    assert.equal(lines.length, 1, 'nothing but the result on stdout');
    const result = JSON.parse(lines[0] ?? '');
    assert.equal(result.sessionId, sessionId);
    assert.equal(result.redirectedTo, expectedRedirect(sessionId));
    assert.equal(result.documentType, 'passport');
    assert.match(out.stderr(), /liveness passed/);
    assert.equal((await getSessionDetail(server, sessionId)).verification.status, 'processing');
  });

  test('--document-type the tenant does not take: a one-line error after the link, the JSON error names it, exit 1', async () => {
    const passportOnly = await createTestTenant(server.platform);
    await updateTenantSettings(server.platform.database.db, passportOnly.tenantId, {
      allowedDocumentTypes: ['passport'],
    });
    const out = captureOutput();
    const code = await simulateCommand(
      [
        ...['--api-key', passportOnly.apiKey, '--callback-url', `${CALLBACK_PREFIX}/done`],
        ...[
          '--base-url',
          server.origin,
          '--persona',
          'genuine',
          '--document-type',
          'drivers_license',
          '--json',
        ],
      ],
      out.io,
    );
    assert.equal(code, 1);
    const result = JSON.parse(out.stdout().trim());
    assert.equal(result.linkUsed, true);
    assert.equal(result.error.code, 'DocumentTypeNotAllowed');
    assert.match(result.error.message, /passport/);
    const errorLines = out
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('mimoto simulate:'));
    assert.equal(errorLines.length, 1);
    assert.match(errorLines[0] ?? '', /drivers_license is not among the tenant's document types/);
    const detail = await fetch(`${server.origin}/v1/verification-sessions/${result.sessionId}`, {
      headers: { authorization: `Bearer ${passportOnly.apiKey}` },
    });
    assert.equal(((await detail.json()) as { status: string }).status, 'in_progress');
  });
});

/** The command's stdout and stderr, kept as text. */
function captureOutput() {
  const text = { stdout: '', stderr: '' };
  return {
    io: {
      stdout: { write: (chunk: string) => (text.stdout += chunk) },
      stderr: { write: (chunk: string) => (text.stderr += chunk) },
    },
    stdout: () => text.stdout,
    stderr: () => text.stderr,
  };
}
