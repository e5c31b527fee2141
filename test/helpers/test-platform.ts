// A real database for every test file (never a mock): in-memory PGlite started from a migrated
// template, or — when DATABASE_URL is set — a fresh PostgreSQL database dropped afterwards.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PIPELINE_QUEUES } from '../../src/checks/check-queues.ts';
import { type Config, parseConfig } from '../../src/config.ts';
import { parseKeyring } from '../../src/platform/crypto/encryption.ts';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { type Database, openDatabase } from '../../src/platform/db/open-database.ts';
import { startJobQueue } from '../../src/platform/jobs/job-queue.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createFreshPostgres } from './fresh-postgres.ts';

export const TEST_ENCRYPTION_KEY = `test:${Buffer.alloc(32, 7).toString('base64')}`;

/** PostgreSQL when the suite runs against it (CI's second pass). */
export const POSTGRES_URL = process.env.DATABASE_URL;

export interface TestPlatform extends Platform {
  /** Moves the test clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

async function pgliteTemplate(): Promise<Blob> {
  // PGlite's initdb costs seconds; a migrated data directory dumped once per code version loads in ~1 s.
  const versions = ['@electric-sql/pglite', 'pg-boss'].map(
    (name) => JSON.parse(fs.readFileSync(path.join('node_modules', name, 'package.json'), 'utf8')).version,
  );
  const hash = createHash('sha256')
    .update(JSON.stringify([versions, readMigrations(), PIPELINE_QUEUES]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `mimoto-pglite-template-${hash}.tar`);
  if (!fs.existsSync(file)) {
    const database = await openDatabase({ kind: 'pglite' });
    await migrate(database);
    const boss = await startJobQueue(database, { supervise: false, queues: PIPELINE_QUEUES });
    await boss.stop({ graceful: false, wait: true });
    const dump = await database.dumpDataDir!();
    await database.close();
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

export interface TestPlatformOptions {
  env?: Record<string, string>;
  supervise?: boolean;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({
    MIMOTO_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    MIMOTO_LOG_LEVEL: 'silent',
    MIMOTO_PUBLIC_URL: 'http://127.0.0.1:8080',
    // A verdict on a photo's content, never on how loaded the machine is (the budget: bench/capture-check.bench.ts).
    MIMOTO_CAPTURE_CHECK_BUDGET_MS: '120000',
    ...env,
  });
}

export async function createTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const config = testConfig(options.env);
  let drop = async () => {};
  let database: Database;
  if (POSTGRES_URL) {
    const fresh = await createFreshPostgres(POSTGRES_URL);
    drop = fresh.drop;
    database = await openDatabase({ kind: 'postgres', url: fresh.url });
    await migrate(database);
  } else {
    database = await openDatabase({ kind: 'pglite', loadDataDir: await pgliteTemplate() });
  }
  const jobs = await startJobQueue(database, {
    supervise: options.supervise ?? false,
    queues: PIPELINE_QUEUES,
  });
  let offset = 0;
  return {
    config,
    database,
    keyring: parseKeyring(TEST_ENCRYPTION_KEY),
    jobs,
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    close: async () => {
      await jobs.stop({ graceful: false, wait: true });
      await database.close();
      await drop();
    },
  };
}
