// A worker killed (SIGKILL) in the middle of a check leaves its job to be retried
// after restart, and the session still gets exactly one decision and one webhook event. Two
// processes share one database, so this runs on PostgreSQL (DATABASE_URL); on the embedded
// database it is reported as skipped.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type OpenPlatform, openPlatform } from '../../src/main/open-platform.ts';
import { ApiClient, createTestTenant } from '../helpers/api-client.ts';
import { createFreshPostgres, type FreshDatabase } from '../helpers/fresh-postgres.ts';
import { POSTGRES_URL, type TestPlatform, testConfig } from '../helpers/test-platform.ts';
import { submitCorpusSession } from './submitted-session.ts';

const skip = POSTGRES_URL ? false : 'needs PostgreSQL: set DATABASE_URL (two processes share the database)';

let fresh: FreshDatabase;
let platform: OpenPlatform;
let api: ApiClient;
const dataDir = mkdtempSync(path.join(tmpdir(), 'mimoto-crash-'));
const children = new Set<ChildProcess>();

before(async () => {
  if (!POSTGRES_URL) return;
  fresh = await createFreshPostgres(POSTGRES_URL);
  platform = await openPlatform(testConfig({ DATABASE_URL: fresh.url, MIMOTO_DATA_DIR: dataDir }), {
    supervise: false,
  });
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await api?.app.close();
  await platform?.close();
  await fresh?.drop();
});

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/pipeline/crash-worker.ts'], {
    env: { ...process.env, CRASH_DATABASE_URL: fresh.url, CRASH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const sql = async (text: string, values: unknown[] = []) =>
  (await platform.database.executeSql(text, values)).rows;

test('a worker killed mid-check: the job is retried within a minute and exactly one decision is taken', {
  skip,
}, async () => {
  const tenant = await createTestTenant(platform as unknown as TestPlatform);
  const clock = platform as unknown as TestPlatform;
  api = await ApiClient.start(clock, tenant.apiKey);
  const sessionId = await submitCorpusSession(clock, api, 'drivers_license-genuine-0');

  const first = await startWorker();
  // The OCR check takes seconds: kill the process while its job is active and nothing is stored.
  await until('the ocr job to be active', async () => {
    const rows = await sql(`SELECT id FROM pgboss.job WHERE name = 'check.ocr' AND state = 'active'`);
    return rows.length > 0 ? true : undefined;
  });
  await new Promise((r) => setTimeout(r, 1000));
  const storedBefore = await sql(`SELECT 1 FROM check_results WHERE session_id = $1 AND check_id = 'ocr'`, [
    sessionId,
  ]);
  assert.equal(storedBefore.length, 0, 'killed before the ocr result was stored');
  first.kill('SIGKILL');
  const killedAt = Date.now();
  await new Promise((r) => first.once('exit', r));
  assert.deepEqual(
    (await sql(`SELECT state FROM pgboss.job WHERE name = 'check.ocr'`)).map((r) => r.state),
    ['active'],
    'the killed job is left active, not lost',
  );
  assert.equal((await sql('SELECT 1 FROM decisions WHERE session_id = $1', [sessionId])).length, 0);

  // Another worker (here started at once, as a supervisor would restart it) takes the job over
  // when its lease runs out — nobody renews it — within a minute of the kill (the check itself,
  // with this cold worker loading its models on a busy machine, comes on top).
  const second = await startWorker();
  await until(
    'the ocr job to run again',
    async () => {
      const rows = await sql(
        `SELECT 1 FROM pgboss.job WHERE name = 'check.ocr' AND retry_count >= 1 AND state IN ('active', 'completed')`,
      );
      return rows.length > 0 ? true : undefined;
    },
    90_000,
  );
  const retriedMs = Date.now() - killedAt;
  assert.ok(retriedMs <= 60_000, `the job ran again ${retriedMs} ms after the kill`);
  await until('the decision', async () => {
    const rows = await sql('SELECT 1 FROM decisions WHERE session_id = $1', [sessionId]);
    return rows.length > 0 ? true : undefined;
  });
  await new Promise((r) => setTimeout(r, 2000)); // a duplicate would show up now
  assert.equal((await sql('SELECT 1 FROM decisions WHERE session_id = $1', [sessionId])).length, 1);
  assert.equal((await sql('SELECT 1 FROM webhook_events WHERE session_id = $1', [sessionId])).length, 1);
  const ocrJob = await sql(`SELECT state, retry_count FROM pgboss.job WHERE name = 'check.ocr'`);
  assert.equal(ocrJob[0]?.state, 'completed');
  assert.ok(Number(ocrJob[0]?.retry_count) >= 1, 'the ocr job ran again after the crash');
  const session = await sql('SELECT status FROM verification_sessions WHERE id = $1', [sessionId]);
  assert.equal(session[0]?.status, 'completed');
  second.kill('SIGTERM');
  await new Promise((r) => second.once('exit', r));
});
