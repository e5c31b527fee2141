// `mimoto simulate` as a tenant runs it, against a real server with its pipeline workers on a
// loopback port: a separate process (bin/mimoto.js) for the whole run to the decision, the CLI's
// `main` in this process for the failures (a process each would cost seconds of TypeScript
// start-up). It creates the session itself with the tenant's API key, presents the identity it is
// told to, waits for the decision; its failures are one line (and one JSON object with --json),
// with the exit status saying which kind.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { CALLBACK_PREFIX } from '../helpers/api-client.ts';
import { runCli as runInProcess } from '../helpers/run-cli.ts';
import {
  createSession,
  getSessionDetail,
  type SimulateServer,
  startSimulateServer,
} from './simulate-server.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `mimoto simulate ARGS` in this process, with this process's environment. */
async function runCli(args: string[]): Promise<Run> {
  const { status, stdout, stderr } = await runInProcess(['simulate', ...args], { ...process.env });
  return { code: status ?? -1, stdout, stderr };
}

/** `mimoto simulate ARGS` as a separate process of bin/mimoto.js. */
function runBin(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/mimoto.js', 'simulate', ...args],
      { timeout: 400_000, env: process.env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** One line on stderr that names the failure; no stack trace (no "    at …" frames). */
function assertOneLineError(run: Run, pattern: RegExp) {
  const lines = run.stderr.split('\n').filter((line) => line.startsWith('mimoto simulate:'));
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0] ?? '', pattern);
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
}

describe('mimoto simulate, the command a tenant runs', () => {
  let server: SimulateServer;
  before(async () => {
    server = await startSimulateServer({ pipeline: true });
  });
  after(async () => {
    await server?.close();
    await terminateOcrEngine();
  });

  const session = () => [
    ...['--api-key', server.tenant.apiKey, '--base-url', server.origin],
    ...['--callback-url', `${CALLBACK_PREFIX}/done`],
  ];

  test('creates the session, presents the given name and birth date as preRegisteredInfo, --wait prints the approved decision as JSON', async () => {
    const run = await runBin([
      ...session(),
      ...['--state', 'st-42', '--persona', 'genuine', '--seed', '1', '--document-type', 'drivers_license'],
      ...['--pre-registered', '--last-name', '山田', '--first-name', '花子', '--birth-date', '1990-04-01'],
      ...['--wait', '--json'],
    ]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'nothing but the result on stdout');
    const result = JSON.parse(lines[0] ?? '');
    assert.deepEqual(result.decision, { status: 'approved', reason: 'all_checks_passed' }, run.stdout);
    assert.equal(result.sessionStatus, 'completed');
    assert.equal(result.redirectedTo, `${CALLBACK_PREFIX}/done?sessionId=${result.sessionId}&state=st-42`);
    assert.deepEqual(result.preRegisteredInfoMatch, {
      lastName: true,
      firstName: true,
      birthDate: true,
      address: true,
    });
    assert.equal(result.webhook.deliveryStatus, null);
    assert.match(result.webhook.note, /console|webhooks list/);
    const detail = await getSessionDetail(server, result.sessionId);
    assert.equal(detail.preRegisteredInfo.lastName, '山田');
    assert.equal(detail.preRegisteredInfo.birthDate, '1990-04-01');
    assert.equal(detail.userInput.lastName, '山田');
    assert.equal(detail.userInput.birthDate, '1990-04-01');
    assert.equal(detail.verification.decision.status, 'approved');
  });

  test('a refused API key: one line naming the 401, a JSON error object, exit 1, no session', async () => {
    const run = await runCli([
      ...['--api-key', 'mmt_test_00000000000000000000000000000000', '--base-url', server.origin],
      ...['--callback-url', `${CALLBACK_PREFIX}/done`, '--persona', 'genuine', '--document-type', 'passport'],
      '--json',
    ]);
    assert.equal(run.code, 1);
    assertOneLineError(run, /create the session: HTTP 401 Unauthorized.*no session was touched/);
    assert.deepEqual(JSON.parse(run.stdout.trim()), {
      sessionId: null,
      linkUsed: false,
      error: {
        step: 'create the session',
        status: 401,
        code: 'Unauthorized',
        message: 'HTTP 401 Unauthorized: Invalid or missing API key',
      },
    });
  });

  test('a service that does not answer: one line, exit 1', async () => {
    const run = await runCli([
      ...['--api-key', server.tenant.apiKey, '--base-url', 'http://127.0.0.1:9'],
      ...[
        '--callback-url',
        `${CALLBACK_PREFIX}/done`,
        '--persona',
        'impostor',
        '--document-type',
        'passport',
      ],
    ]);
    assert.equal(run.code, 1);
    assertOneLineError(run, /cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  test('a bad argument with --url: exit 2 before the link is opened, the session stays pending', async () => {
    const { sessionId, verificationUrl } = await createSession(server);
    const run = await runCli([
      ...['--url', verificationUrl, '--persona', 'genuine', '--birth-date', '1990-02-30', '--json'],
    ]);
    assert.equal(run.code, 2);
    assertOneLineError(run, /--birth-date must be a real past date/);
    assert.equal(JSON.parse(run.stdout.trim()).error.code, 'UsageError');
    assert.equal((await getSessionDetail(server, sessionId)).status, 'pending');
  });

  test('usage errors: --wait without an API key, no session at all, a name the document cannot print: exit 2', async () => {
    const wait = await runCli([
      '--url',
      'http://127.0.0.1:9/verify?sessionId=vs_x',
      '--persona',
      'genuine',
      '--wait',
    ]);
    assert.equal(wait.code, 2);
    assertOneLineError(wait, /--wait reads the decision through the API: give --api-key/);
    const none = await runCli(['--persona', 'genuine']);
    assert.equal(none.code, 2);
    assertOneLineError(none, /give --api-key KEY --callback-url URL/);
    const script = await runCli([
      ...session(),
      ...['--persona', 'genuine', '--document-type', 'residence_card', '--last-name', '山田'],
    ]);
    assert.equal(script.code, 2);
    assertOneLineError(
      script,
      /a residence_card does not print that name; drivers_license, my_number_card, passport would/,
    );
  });

  test('a used link: one line naming the 410 and how to avoid the race, exit 1', async () => {
    const { verificationUrl } = await createSession(server);
    assert.equal((await fetch(verificationUrl, { redirect: 'manual' })).status, 303);
    const run = await runCli([
      '--url',
      verificationUrl,
      '--persona',
      'genuine',
      '--document-type',
      'passport',
    ]);
    assert.equal(run.code, 1);
    assertOneLineError(run, /HTTP 410.*one-time and valid 10 s.*--api-key/);
  });
});
