// The servers under load, all in the bench's own process and all on 127.0.0.1: a bare fastify
// hello-world (the yardstick) and mimoto's real app (buildApp) on PostgreSQL or PGlite.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApiKey } from '../../src/api-keys/index.ts';
import { buildApp } from '../../src/app.ts';
import { PIPELINE_QUEUES } from '../../src/checks/check-queues.ts';
import { parseConfig } from '../../src/config.ts';
import { parseKeyring } from '../../src/platform/crypto/encryption.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { type Database, openDatabase } from '../../src/platform/db/open-database.ts';
import { startJobQueue } from '../../src/platform/jobs/job-queue.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { prepareSimulation, simulateFlow } from '../../src/simulate/simulate-flow.ts';
import { createTenant } from '../../src/tenants/index.ts';

export const CALLBACK_PREFIX = 'https://tenant.example/kyc/callback';

export interface RunningServer {
  origin: string;
  close(): Promise<void>;
}

export interface MimotoServer extends RunningServer {
  apiKey: string;
  platform: Platform;
  /** PostgreSQL only: the run's own database. */
  databaseUrl?: string;
  /** What a `mimoto start --role worker` process needs to share this server's data (PostgreSQL only). */
  workerEnv?: Record<string, string>;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

export async function startBareServer(): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const origin = await listen(app);
  return { origin, close: () => app.close() };
}

/** A database of its own for the run, dropped at the end (like test/helpers/test-platform.ts). */
export async function createScratchDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mimoto_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The floor of any create-session that commits to PostgreSQL: fastify doing nothing but one
 * autocommitted INSERT of the request body per request (one round trip, one WAL flush), on a pool
 * of the same size as mimoto's. No auth, validation, encryption or ids beyond a random one.
 */
export async function startBareInsertServer(adminUrl: string, poolSize = 10): Promise<MimotoServer> {
  const scratch = await createScratchDatabase(adminUrl);
  const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize });
  try {
    await database.executeSql(
      'CREATE TABLE rows (id text PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
    );
    const app = Fastify({ logger: false });
    app.post('/', async (request, reply) => {
      const id = randomBytes(12).toString('base64url');
      await database.executeSql('INSERT INTO rows (id, body) VALUES ($1, $2)', [id, request.body]);
      reply.code(201);
      return { id };
    });
    const origin = await listen(app);
    return {
      origin,
      apiKey: '',
      platform: { database } as Platform,
      databaseUrl: scratch.url,
      close: async () => {
        await app.close();
        await database.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await database.close();
    await scratch.drop();
    throw error;
  }
}

export type DatabaseChoice = { kind: 'postgres'; adminUrl: string; poolSize?: number } | { kind: 'pglite' };

/**
 * mimoto as `mimoto start --role api` runs it (no job workers or maintenance in this process), with
 * logging silent and the rate limit off (MIMOTO_RATE_LIMIT_PER_SECOND=0), plus one tenant and key.
 */
export async function startMimotoServer(
  choice: DatabaseChoice,
  extraEnv: Record<string, string> = {},
): Promise<MimotoServer> {
  const encryptionKey = `bench:${randomBytes(32).toString('base64')}`;
  const env = {
    MIMOTO_ENV: 'development',
    MIMOTO_ENCRYPTION_KEY: encryptionKey,
    MIMOTO_LOG_LEVEL: 'silent',
    MIMOTO_RATE_LIMIT_PER_SECOND: '0',
    MIMOTO_PUBLIC_URL: 'http://127.0.0.1:8080',
    ...extraEnv,
  };
  const config = parseConfig(env);
  let drop = async () => {};
  let database: Database;
  let databaseUrl: string | undefined;
  if (choice.kind === 'postgres') {
    const scratch = await createScratchDatabase(choice.adminUrl);
    drop = scratch.drop;
    databaseUrl = scratch.url;
    database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: choice.poolSize });
  } else {
    database = await openDatabase({ kind: 'pglite' });
  }
  try {
    await migrate(database);
    const jobs = await startJobQueue(database, { supervise: false, queues: PIPELINE_QUEUES });
    const platform: Platform = {
      config,
      database,
      keyring: parseKeyring(encryptionKey),
      jobs,
      now: () => new Date(),
    };
    const { tenantId } = await createTenant(platform, {
      name: 'Bench tenant',
      callbackUrlPrefixes: [CALLBACK_PREFIX],
    });
    const { apiKey } = await createApiKey(platform, tenantId, 'bench');
    const app = await buildApp(platform);
    const origin = await listen(app);
    return {
      origin,
      apiKey,
      platform,
      databaseUrl,
      ...(databaseUrl ? { workerEnv: { ...env, DATABASE_URL: databaseUrl } } : {}),
      close: async () => {
        await app.close();
        await jobs.stop({ graceful: false, wait: true });
        await database.close();
        await drop();
      },
    };
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }
}

/**
 * One genuine verification through the hosted flow of `server`, submitted at the end: the session
 * created with the tenant's key, its link opened on the server's own origin.
 */
export async function submitGenuineVerification(server: MimotoServer, seed: number): Promise<string> {
  // The media first, then the session: its link is valid 10 s, less than rendering them takes on
  // a loaded machine.
  const prepared = await prepareSimulation({ persona: 'genuine', seed });
  const response = await fetch(`${server.origin}/v1/verification-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl: CALLBACK_PREFIX, clientIpAddress: '127.0.0.1' }),
  });
  if (response.status !== 201) throw new Error(`create-session: ${response.status} ${await response.text()}`);
  const { verificationUrl } = (await response.json()) as { verificationUrl: string };
  const url = new URL(verificationUrl);
  const local = new URL(`${url.pathname}${url.search}`, server.origin);
  return (await simulateFlow({ url: local.toString(), persona: 'genuine', seed, prepared })).sessionId;
}
