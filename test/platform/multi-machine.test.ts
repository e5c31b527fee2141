// Two machines' worth of mimoto: an `api` process and a `worker` process started as `mimoto start
// --role …` does, each with its OWN data directory, sharing only PostgreSQL and an S3-compatible
// bucket (s3rver on 127.0.0.1). A session is created through the api process, walked through the
// hosted flow over HTTP (images and liveness frames go to the bucket), checked and decided by the
// worker process (which reads them from the bucket), and its signed webhook arrives. Needs
// PostgreSQL (DATABASE_URL): the embedded database belongs to one process.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createApiKey } from '../../src/api-keys/index.ts';
import { type OpenPlatform, openPlatform } from '../../src/main/open-platform.ts';
import { createRawBlobStore } from '../../src/platform/blobs/index.ts';
import { prepareSimulation, simulateFlow } from '../../src/simulate/simulate-flow.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { verifyWebhookSignature } from '../../src/webhooks/index.ts';
import { freePort } from '../helpers/free-port.ts';
import { createFreshPostgres, type FreshDatabase } from '../helpers/fresh-postgres.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.ts';
import { POSTGRES_URL, TEST_ENCRYPTION_KEY, testConfig } from '../helpers/test-platform.ts';

const skip = POSTGRES_URL
  ? false
  : 'needs PostgreSQL: set DATABASE_URL (two processes share the database; PGlite is one process’s)';
const BIN = path.resolve('bin/mimoto.js');

let fresh: FreshDatabase;
let s3: TestS3Server;
let setup: OpenPlatform;
let receiver: Server;
const received: { body: string; signature: string | undefined }[] = [];
const children = new Set<ChildProcess>();
const dirs = { api: '', worker: '', setup: '' };

/** `mimoto start --role <role>` with its own data directory; resolves once it says it is up. */
function startRole(
  role: 'api' | 'worker',
  env: Record<string, string>,
  readyLine: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'start', '--role', role], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${role} did not start:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyLine)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new Error(`${role} exited with ${code}:\n${output}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

before(async () => {
  if (!POSTGRES_URL) return;
  fresh = await createFreshPostgres(POSTGRES_URL, 'mimoto_multi');
  s3 = await startS3Server();
  for (const name of ['api', 'worker', 'setup'] as const) {
    dirs[name] = mkdtempSync(path.join(tmpdir(), `mimoto-multi-${name}-`));
  }
  // The operator's side, as `mimoto tenant create` would do it from a third machine.
  setup = await openPlatform(
    testConfig({ DATABASE_URL: fresh.url, MIMOTO_DATA_DIR: dirs.setup, ...s3.env }),
    { supervise: false },
  );
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['x-service-signature'];
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: signature as string });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  receiver?.close();
  await setup?.close();
  await s3?.close();
  await fresh?.drop();
  for (const dir of Object.values(dirs)) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('an api and a worker process with separate data directories complete a verification through S3', {
  skip,
  timeout: 900_000,
}, async () => {
  const receiverPort = (receiver.address() as { port: number }).port;
  const callbackPrefix = `http://127.0.0.1:${receiverPort}/kyc`;
  const { tenantId, webhookSecret } = await createTenant(setup, {
    name: 'Two machines',
    callbackUrlPrefixes: [callbackPrefix],
  });
  const { apiKey } = await createApiKey(setup, tenantId, 'multi');

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const shared = {
    DATABASE_URL: fresh.url,
    MIMOTO_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    MIMOTO_LOG_LEVEL: 'silent',
    MIMOTO_PUBLIC_URL: origin,
    ...s3.env,
  };
  const api = await startRole(
    'api',
    { ...shared, PORT: String(port), MIMOTO_DATA_DIR: dirs.api },
    'listening on',
  );
  const worker = await startRole('worker', { ...shared, MIMOTO_DATA_DIR: dirs.worker }, 'worker started');

  // Media first, then the session: its link is valid 10 s (docs/api-reference.md §8).
  const prepared = await prepareSimulation({ persona: 'genuine', seed: 3, documentType: 'passport' });
  const created = await fetch(`${origin}/v1/verification-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl: `${callbackPrefix}/done`, clientIpAddress: '127.0.0.1' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { sessionId, verificationUrl } = (await created.json()) as {
    sessionId: string;
    verificationUrl: string;
  };
  const flow = await simulateFlow({ url: verificationUrl, persona: 'genuine', prepared });
  assert.equal(flow.sessionId, sessionId);
  assert.equal(flow.liveness.status, 'success', 'the api process verified the frames it stored');

  const detail = async () =>
    (await (
      await fetch(`${origin}/v1/verification-sessions/${sessionId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
    ).json()) as { verification: { status: string } };
  const status = await until(
    'the worker process to decide',
    async () => {
      const s = (await detail()).verification.status;
      return s === 'processing' ? undefined : s;
    },
    600_000,
  );
  assert.ok(['approved', 'rejected', 'pending_review'].includes(status), status);

  // Every check ran on the images it read from the bucket: none was left without its input.
  const checks = await setup.database.executeSql(
    'SELECT check_id, status FROM check_results WHERE session_id = $1 ORDER BY check_id',
    [sessionId],
  );
  assert.deepEqual(
    checks.rows.map((r) => r.check_id),
    ['documentSpoofCheck', 'faceMatch', 'fraudSignalAnalysis', 'ocr', 'selfieSpoofCheck'],
  );
  for (const row of checks.rows) assert.equal(row.status, 'success', `${row.check_id}: ${row.status}`);

  // The webhook of the decision, signed with the tenant's secret, from the worker process.
  const webhook = await until(
    'the webhook',
    async () => received.find((r) => r.body.includes(sessionId)),
    120_000,
  );
  assert.ok(verifyWebhookSignature(webhook.body, webhook.signature, webhookSecret));
  const payload = JSON.parse(webhook.body) as { event: string; status: string };
  assert.deepEqual([payload.event, payload.status], [`verification.${status}`, status]);

  // The images live in the bucket only: neither process kept a blob in its own directory.
  const documents = await setup.database.executeSql(
    'SELECT blob_key FROM session_documents WHERE session_id = $1',
    [sessionId],
  );
  assert.ok(documents.rows.length >= 1);
  const bucket = createRawBlobStore(setup.config.blobStorage);
  for (const row of documents.rows)
    assert.ok(await bucket.getBlob(String(row.blob_key)), `${row.blob_key} in S3`);
  for (const dir of [dirs.api, dirs.worker]) {
    const blobs = path.join(dir, 'blobs');
    assert.ok(!existsSync(blobs) || readdirSync(blobs).length === 0, `no local blobs in ${dir}`);
  }
  // And the api process serves them back from the bucket.
  const image = await fetch(`${origin}/v1/verification-sessions/${sessionId}/images/front`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(image.status, 200);
  assert.equal(image.headers.get('content-type'), 'image/jpeg');

  assert.equal(await stop(api), 0);
  assert.equal(await stop(worker), 0);
});
