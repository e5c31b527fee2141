// The operator CLI on the embedded database in a temporary data directory, or on a fresh
// PostgreSQL database when DATABASE_URL is set. The commands run through the CLI's `main` in this
// process, with their own environment and output (a process per command would cost seconds of
// TypeScript start-up each); `mimoto migrate` and `mimoto start` also run as an operator runs them,
// as separate processes of bin/mimoto.js.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFreshPostgres } from '../helpers/fresh-postgres.ts';
import { runBin, runCli } from '../helpers/run-cli.ts';
import { POSTGRES_URL, TEST_ENCRYPTION_KEY } from '../helpers/test-platform.ts';

const BIN = path.resolve('bin/mimoto.js');

/** Starts `mimoto start` and resolves once it listens. */
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

function stopServer(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('mimoto CLI', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let drop = async () => {};

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-cli-'));
    env = { MIMOTO_DATA_DIR: dataDir, MIMOTO_LOG_LEVEL: 'silent' };
    const fresh = POSTGRES_URL ? await createFreshPostgres(POSTGRES_URL, 'mimoto_cli') : undefined;
    if (fresh) {
      env.DATABASE_URL = fresh.url;
      env.MIMOTO_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
      drop = fresh.drop;
    }
  });
  after(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrate applies the migrations once', async () => {
    const first = runBin(['migrate'], env);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /applied: 0001_/);
    const second = await runCli(['migrate'], env);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /up to date/);
  });

  it('sets up a tenant with keys from start to finish', async () => {
    const created = await runCli(
      [
        'tenant',
        'create',
        '--name',
        'Acme 株式会社',
        '--callback-url-prefix',
        'https://acme.example/kyc',
        '--json',
      ],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    const tenant = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(tenant).sort(), ['tenantId', 'webhookSecret']);
    assert.match(tenant.tenantId, /^tn_[0-9A-Z]{26}$/);
    assert.match(tenant.webhookSecret, /^whsec_[0-9A-Za-z]{40}$/);

    const allowed = await runCli(
      [
        'tenant',
        'allow-callback',
        '--tenant',
        tenant.tenantId,
        '--callback-url-prefix',
        'http://localhost:4000/cb',
      ],
      env,
    );
    assert.equal(allowed.status, 0, allowed.stderr);
    const shown = JSON.parse(
      (await runCli(['tenant', 'show', '--tenant', tenant.tenantId, '--json'], env)).stdout,
    );
    assert.equal(shown.name, 'Acme 株式会社');
    assert.deepEqual(shown.callbackUrlPrefixes, ['https://acme.example/kyc', 'http://localhost:4000/cb']);
    assert.ok(!JSON.stringify(shown).includes(tenant.webhookSecret), 'the secret is never shown again');

    const key = JSON.parse(
      (await runCli(['key', 'create', '--tenant', tenant.tenantId, '--label', 'backend', '--json'], env))
        .stdout,
    );
    assert.deepEqual(Object.keys(key).sort(), ['apiKey', 'keyId']);
    assert.match(key.apiKey, /^mmt_test_[0-9A-Za-z]{32}$/);
    const listed = JSON.parse(
      (await runCli(['key', 'list', '--tenant', tenant.tenantId, '--json'], env)).stdout,
    );
    assert.equal(listed.length, 1);
    assert.equal(listed[0].label, 'backend');
    assert.equal(listed[0].disabledAt, null);
    assert.ok(!JSON.stringify(listed).includes(key.apiKey), 'the key is never shown again');

    const disabled = await runCli(['key', 'disable', '--key', key.keyId], env);
    assert.equal(disabled.status, 0, disabled.stderr);
    const after = JSON.parse(
      (await runCli(['key', 'list', '--tenant', tenant.tenantId, '--json'], env)).stdout,
    );
    assert.ok(after[0].disabledAt);
  });

  it('explains unknown tenants, keys and bad usage with a non-zero exit', async () => {
    const unknown = await runCli(['tenant', 'show', '--tenant', 'tn_nope'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no tenant 'tn_nope'/);
    assert.equal((await runCli(['key', 'disable', '--key', 'key_nope'], env)).status, 1);
    const missing = await runCli(['tenant', 'create', '--callback-url-prefix', 'https://a.example/'], env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--name is required/);
    assert.equal((await runCli(['tenant', 'create', '--bogus'], env)).status, 2);
    assert.equal((await runCli(['frobnicate'], env)).status, 2);
    const noPrefix = await runCli(['tenant', 'create', '--name', 'x'], env);
    assert.equal(noPrefix.status, 1);
    assert.match(noPrefix.stderr, /at least one callback URL prefix/);
  });

  it('refuses an http callback prefix in production', async () => {
    const prod = {
      ...env,
      MIMOTO_ENV: 'production',
      MIMOTO_PUBLIC_URL: 'https://id.example',
      MIMOTO_ENCRYPTION_KEY:
        env.MIMOTO_ENCRYPTION_KEY ?? fs.readFileSync(path.join(dataDir, 'encryption.key'), 'utf8').trim(),
    };
    const refused = await runCli(
      ['tenant', 'create', '--name', 'P', '--callback-url-prefix', 'http://localhost:3000/'],
      prod,
    );
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /https in production/);
  });

  it('reports every invalid setting at once and exits non-zero', async () => {
    const result = await runCli(['migrate'], {
      ...env,
      PORT: '-1',
      MIMOTO_ENV: 'qa',
      MIMOTO_TRUST_PROXY: 'perhaps',
    });
    assert.equal(result.status, 1);
    for (const name of ['PORT', 'MIMOTO_ENV', 'MIMOTO_TRUST_PROXY'])
      assert.match(result.stderr, new RegExp(name));
  });

  it('serves the API from `mimoto start` and stops cleanly on SIGTERM', async () => {
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const tenant = JSON.parse(
      (
        await runCli(
          ['tenant', 'create', '--name', 'Live', '--callback-url-prefix', 'https://live.example/', '--json'],
          env,
        )
      ).stdout,
    );
    const key = JSON.parse(
      (await runCli(['key', 'create', '--tenant', tenant.tenantId, '--json'], env)).stdout,
    );
    const server = await startServer({ ...env, PORT: port });
    try {
      const create = () =>
        fetch(`http://127.0.0.1:${port}/v1/verification-sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ callbackUrl: 'https://live.example/done' }),
        });
      assert.equal((await create()).status, 201);

      const second = await runCli(['key', 'list', '--tenant', tenant.tenantId], env);
      if (env.DATABASE_URL) {
        // Another process disables the key: the running server refuses it on the next request.
        assert.equal((await runCli(['key', 'disable', '--key', key.keyId], env)).status, 0);
        assert.equal((await create()).status, 401);
      } else {
        // The embedded database belongs to the running server; a second process gets a clear error.
        assert.equal(second.status, 1);
        assert.match(second.stderr, /in use by another mimoto process/);
      }
    } finally {
      assert.equal(await stopServer(server), 0);
    }
  });
});
