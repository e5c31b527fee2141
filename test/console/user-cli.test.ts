// `mimoto user create` on the embedded database in a temporary data directory, or on a fresh
// PostgreSQL database when DATABASE_URL is set; the link it prints then sets the password through
// the console API on that same database. The commands run through the CLI's `main` in this process
// with their own environment and output, each opening and closing the database as the command
// does (test/cli/operator-cli.test.ts runs bin/mimoto.js itself as a separate process).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/platform/db/open-database.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createFreshPostgres } from '../helpers/fresh-postgres.ts';
import { runCli } from '../helpers/run-cli.ts';
import { POSTGRES_URL, TEST_ENCRYPTION_KEY, testConfig } from '../helpers/test-platform.ts';

describe('mimoto user create', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let drop = async () => {};
  let tenantId: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-user-cli-'));
    env = { MIMOTO_DATA_DIR: dataDir, MIMOTO_LOG_LEVEL: 'silent', MIMOTO_PUBLIC_URL: 'https://kyc.example' };
    const fresh = POSTGRES_URL ? await createFreshPostgres(POSTGRES_URL, 'mimoto_user_cli') : undefined;
    if (fresh) {
      env.DATABASE_URL = fresh.url;
      env.MIMOTO_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
      drop = fresh.drop;
    }
    assert.equal((await runCli(['migrate'], env)).status, 0);
    const created = await runCli(
      ['tenant', 'create', '--name', 'Acme', '--callback-url-prefix', 'https://acme.example/', '--json'],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    tenantId = JSON.parse(created.stdout).tenantId;
  });
  after(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The same database the commands used, opened once they have exited. */
  async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase(
      env.DATABASE_URL
        ? { kind: 'postgres', url: env.DATABASE_URL }
        : { kind: 'pglite', directory: path.join(dataDir, 'db') },
    );
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  }

  it('prints a one-time link that sets the password, and records the creation as the CLI', async () => {
    const created = await runCli(
      [
        'user',
        'create',
        '--email',
        'Admin@Acme.example',
        '--role',
        'tenant_admin',
        '--tenant',
        tenantId,
        '--json',
      ],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    const { userId, setPasswordUrl } = JSON.parse(created.stdout);
    assert.match(userId, /^usr_[0-9A-Z]{26}$/);
    assert.match(setPasswordUrl, /^https:\/\/kyc\.example\/console\/set-password\?token=[A-Za-z0-9]{43}$/);
    const token = new URL(setPasswordUrl).searchParams.get('token')!;

    const text = await runCli(['user', 'create', '--email', 'ops@kyc.example', '--role', 'operator'], env);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /set-password link \(valid 24 h, once\): https:\/\/kyc\.example\/console\/set-password\?token=/,
    );

    // The CLI's other changes leave audit rows too.
    const key = JSON.parse((await runCli(['key', 'create', '--tenant', tenantId, '--json'], env)).stdout);
    assert.equal((await runCli(['key', 'disable', '--key', key.keyId], env)).status, 0);
    assert.equal((await runCli(['tenant', 'rotate-webhook-secret', '--tenant', tenantId], env)).status, 0);
    assert.equal(
      (
        await runCli(
          [
            'tenant',
            'allow-callback',
            '--tenant',
            tenantId,
            '--callback-url-prefix',
            'https://acme.example/v2/',
          ],
          env,
        )
      ).status,
      0,
    );

    await withDatabase(async (database) => {
      const stored = await database.executeSql('SELECT token_hash FROM console_password_tokens');
      assert.equal(stored.rows.length, 2);
      assert.ok(!JSON.stringify(stored.rows).includes(token), 'only the hash of the link is stored');
      const audit = await database.executeSql(
        "SELECT actor, action, target_id, tenant_id FROM audit_log WHERE actor = 'cli' ORDER BY id",
      );
      assert.deepEqual(
        audit.rows.map((row) => row.action),
        [
          'tenant.create',
          'user.create',
          'user.create',
          'api_key.create',
          'api_key.disable',
          'tenant.webhook_secret.rotate',
          'tenant.callback_prefix.add',
        ],
      );
      assert.equal(audit.rows[1]!.target_id, userId);
      assert.equal(audit.rows[1]!.tenant_id, tenantId);
      assert.equal(audit.rows[4]!.target_id, key.keyId);
      const secrets = await database.executeSql(
        "SELECT after::text AS after FROM audit_log WHERE action IN ('api_key.create', 'tenant.create')",
      );
      assert.ok(
        secrets.rows.every((row) => !String(row.after).includes(key.apiKey)),
        'no key in the log',
      );

      const platform: Platform = {
        config: testConfig(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
        database,
        // The password and sign-in routes use neither.
        keyring: undefined as never,
        jobs: undefined as never,
        now: () => new Date(),
      };
      const app = await buildApp(platform);
      try {
        const set = await app.inject({
          method: 'POST',
          url: '/console/api/password',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ token, password: 'a long enough password' }),
        });
        assert.equal(set.statusCode, 204, set.body);
        const login = await app.inject({
          method: 'POST',
          url: '/console/api/login',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email: 'admin@acme.example', password: 'a long enough password' }),
        });
        assert.equal(login.statusCode, 200, login.body);
        assert.deepEqual(login.json().user, {
          id: userId,
          email: 'Admin@Acme.example',
          role: 'tenant_admin',
          tenantId,
        });
      } finally {
        await app.close();
      }
    });
  });

  it('refuses bad combinations with a clear message and writes nothing', async () => {
    const cases: [string[], RegExp, number][] = [
      [['--email', 'a@b.example', '--role', 'reviewer'], /a reviewer needs --tenant/, 2],
      [
        ['--email', 'a@b.example', '--role', 'operator', '--tenant', tenantId],
        /an operator has no --tenant/,
        2,
      ],
      [
        ['--email', 'a@b.example', '--role', 'root'],
        /--role must be one of operator, tenant_admin, reviewer/,
        2,
      ],
      [['--role', 'operator'], /--email is required/, 2],
      [['--email', 'not-an-address', '--role', 'operator'], /not valid/, 1],
      [['--email', 'a@b.example', '--role', 'reviewer', '--tenant', 'tn_NOPE'], /no tenant 'tn_NOPE'/, 1],
      [
        ['--email', 'ADMIN@acme.example', '--role', 'reviewer', '--tenant', tenantId],
        /e-mail address exists/,
        1,
      ],
    ];
    for (const [args, message, status] of cases) {
      const result = await runCli(['user', 'create', ...args], env);
      assert.equal(result.status, status, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    await withDatabase(async (database) => {
      const users = await database.executeSql('SELECT count(*)::int AS n FROM console_users');
      assert.equal(Number(users.rows[0]!.n), 2);
    });
  });
});
