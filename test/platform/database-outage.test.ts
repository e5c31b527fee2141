// A PostgreSQL restart under load: the server stopped as a crash stops it (`pg_ctl stop -m
// immediate`) while a worker process holds check jobs, left down for a while, and started again.
// Every process rides it out without a restart — the worker that held the jobs, one started while
// the database was down (`mimoto start`, all roles, which waits for it), and the API in this process,
// which answers 503 with Retry-After meanwhile — and afterwards every verification is decided
// exactly once (the time it took after the database was back is printed). No process may hit an unhandled
// rejection or 'error' event (their guards' marker line fails the test).
//
// The cluster is the test's own (test/helpers/private-postgres.ts): the machine's shared server
// keeps running for the other test files. Without PostgreSQL's server binaries the test is skipped
// and says why.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Mimoto } from '../../packages/node/src/index.ts';
import { type OpenPlatform, openPlatform } from '../../src/main/open-platform.ts';
import { installProcessGuards, type ProcessGuards, UNHANDLED_MARKER } from '../../src/main/process-guards.ts';
import { ApiClient, CALLBACK_PREFIX, createTestTenant } from '../helpers/api-client.ts';
import { freePort } from '../helpers/free-port.ts';
import {
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../helpers/private-postgres.ts';
import { type TestPlatform, testConfig } from '../helpers/test-platform.ts';
import { submitCorpusSession } from '../pipeline/submitted-session.ts';

const skip = privatePostgresUnavailable() ?? false;
const SESSIONS = ['drivers_license-genuine-0', 'my_number_card-genuine-0', 'residence_card-genuine-0'];
const OUTAGE_MS = 15_000;
// How long the test waits for the decisions; the recovery time itself is a figure of
// `npm run bench:worker-crash`-style measurement (printed here as a diagnostic), not a timed assert:
// on a loaded machine the checks themselves take minutes.
const DECISION_WAIT_MS = 600_000;

let server: PrivatePostgres;
let platform: OpenPlatform;
let api: ApiClient;
let guards: ProcessGuards;
const guardLines: string[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'mimoto-outage-'));
const children = new Map<ChildProcess, { name: string; stderr: string; stdout: string }>();

before(async () => {
  if (skip) return;
  guards = installProcessGuards((line) => {
    guardLines.push(line);
    console.error(line);
  });
  server = await startPrivatePostgres();
  const config = testConfig({ DATABASE_URL: server.url, MIMOTO_DATA_DIR: dataDir });
  platform = await openPlatform(config, { supervise: false });
});

after(async () => {
  for (const child of children.keys()) child.kill('SIGKILL');
  await api?.app.close();
  await platform?.close();
  await server?.destroy();
  guards?.uninstall();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server process; resolves once its stdout shows `readyLine`. */
function startProcess(name: string, role: 'worker' | 'all', readyLine: string, port = 0) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/platform/outage-process.ts'], {
    env: {
      ...process.env,
      OUTAGE_ROLE: role,
      OUTAGE_DATABASE_URL: server.url,
      OUTAGE_DATA_DIR: dataDir,
      OUTAGE_PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { name, stderr: '', stdout: '' };
  children.set(child, output);
  child.stderr!.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output.stdout += chunk.toString();
      if (output.stdout.includes(readyLine)) resolve();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}):\n${output.stderr.slice(-4000)}`)),
    );
  });
  ready.catch(() => {});
  return { child, ready, output };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sql = async (text: string, values: unknown[] = []) =>
  (await platform.database.executeSql(text, values)).rows;

test('a PostgreSQL restart under load: every process rides it out, 0 lost, 0 decided twice', {
  skip,
  timeout: 900_000,
}, async (t) => {
  const clock = platform as unknown as TestPlatform;
  const tenant = await createTestTenant(clock);
  api = await ApiClient.start(clock, tenant.apiKey);
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(api.app.server.address() as net.AddressInfo).port}`;

  const worker = startProcess('worker', 'worker', 'worker started');
  await worker.ready;
  const sessionIds: string[] = [];
  for (const sample of SESSIONS) sessionIds.push(await submitCorpusSession(clock, api, sample));
  // Stopped while the worker holds check jobs, so their statements are cut mid-job.
  await until(
    'check jobs to be active',
    async () =>
      (await sql(`SELECT 1 FROM pgboss.job WHERE state = 'active'`)).length > 0 ? true : undefined,
    60_000,
  );
  await server.stopImmediate();
  const stoppedAt = Date.now();

  // During the outage: the API says 503 with Retry-After and /readyz not ready.
  const refused = await api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/x` });
  assert.equal(refused.statusCode, 503, refused.body);
  assert.equal(refused.headers['retry-after'], '5');
  assert.equal(refused.json().error, 'ServiceUnavailable');
  const ready = await api.app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 503);
  assert.equal(ready.headers['retry-after'], '5');
  // The SDK's create-session, called now, retries its 503s (Retry-After: 5 s each) until the
  // database is back: enough retries for the outage.
  const mimoto = new Mimoto({ apiKey: tenant.apiKey, baseUrl, maxRetries: 12 });
  const sdkCreate = mimoto.sessions.create({ callbackUrl: `${CALLBACK_PREFIX}/sdk` });
  sdkCreate.catch(() => {});
  // A process started while the database is down waits for it instead of exiting.
  const allPort = await freePort();
  const allInOne = startProcess('mimoto start (all roles)', 'all', 'listening on', allPort);
  await new Promise((r) => setTimeout(r, OUTAGE_MS - (Date.now() - stoppedAt)));
  assert.equal(worker.child.exitCode, null, 'the worker is still running after the outage');
  assert.equal(allInOne.child.exitCode, null, 'the process started during the outage is waiting');

  await server.start();
  const backAt = Date.now();
  const created = await sdkCreate;
  assert.match(created.sessionId, /^vs_/);
  await allInOne.ready;
  const allInOneUp = await fetch(`http://127.0.0.1:${allPort}/readyz`);
  assert.equal(allInOneUp.status, 200);

  const decided = async () =>
    (
      await sql(
        `SELECT session_id, count(*)::int AS n FROM decisions
          WHERE kind = 'automatic' AND session_id = ANY($1) GROUP BY session_id`,
        [sessionIds],
      )
    ).length === sessionIds.length
      ? true
      : undefined;
  await until('every verification to be decided', decided, DECISION_WAIT_MS).catch(async (error) => {
    const jobs = await sql(`SELECT name, state, retry_count FROM pgboss.job ORDER BY name`);
    const logs = [...children.values()].map((o) => `${o.name}:\n${o.stderr.slice(-3000)}`).join('\n');
    throw new Error(`${(error as Error).message}\njobs: ${JSON.stringify(jobs)}\n${logs}`);
  });
  const recoveryMs = Date.now() - backAt;
  t.diagnostic(`every verification decided ${(recoveryMs / 1000).toFixed(1)} s after the database was back`);

  await new Promise((r) => setTimeout(r, 3000)); // a duplicate would show up now
  const decisions = await sql(
    `SELECT session_id, count(*)::int AS n FROM decisions WHERE session_id = ANY($1) GROUP BY session_id`,
    [sessionIds],
  );
  assert.deepEqual(
    decisions.map((row) => row.n),
    sessionIds.map(() => 1),
    'one decision per verification',
  );
  const events = await sql(
    `SELECT session_id, count(*)::int AS n FROM webhook_events WHERE session_id = ANY($1) GROUP BY session_id`,
    [sessionIds],
  );
  assert.deepEqual(
    events.map((row) => row.n),
    sessionIds.map(() => 1),
    'one webhook event per verification',
  );
  const failed = await sql(`SELECT name, id FROM pgboss.job WHERE state = 'failed'`);
  assert.deepEqual(failed, [], 'no job failed for good');

  for (const [child, output] of children) {
    assert.equal(child.exitCode, null, `${output.name} is still running`);
    assert.ok(!output.stderr.includes(UNHANDLED_MARKER), `${output.name}:\n${output.stderr.slice(-4000)}`);
  }
  assert.match(worker.output.stderr, /database unreachable/, 'the worker logged the outage');
  assert.deepEqual(guardLines, [], 'no unhandled rejection or exception in the API process');
  assert.deepEqual(guards.counts, { rejections: 0, exceptions: 0 });
});
