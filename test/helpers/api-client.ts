// Tests speak to the app through app.inject() (style.md), as a tenant's server would.
import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/api-keys/index.ts';
import { buildApp } from '../../src/app.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { createTestPlatform, type TestPlatform, type TestPlatformOptions } from './test-platform.ts';

export const CALLBACK_PREFIX = 'https://tenant.example/kyc/callback';

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  keyId: string;
  webhookSecret: string;
}

export async function createTestTenant(
  platform: TestPlatform,
  prefixes = [CALLBACK_PREFIX],
): Promise<TestTenant> {
  const { tenantId, webhookSecret } = await createTenant(platform, {
    name: 'Test tenant',
    callbackUrlPrefixes: prefixes,
  });
  const { keyId, apiKey } = await createApiKey(platform, tenantId, 'tests');
  return { tenantId, apiKey, keyId, webhookSecret };
}

export class ApiClient {
  constructor(
    readonly app: FastifyInstance,
    readonly apiKey: string,
  ) {}

  static async start(platform: TestPlatform, apiKey: string) {
    const app = await buildApp(platform);
    await app.ready();
    return new ApiClient(app, apiKey);
  }

  createSession(body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'POST',
      url: '/v1/verification-sessions',
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
  }

  getSession(sessionId: string, apiKey = this.apiKey): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'GET',
      url: `/v1/verification-sessions/${encodeURIComponent(sessionId)}`,
      headers: { authorization: `Bearer ${apiKey}` },
    });
  }

  reprocess(sessionId: string, body?: unknown, apiKey = this.apiKey): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'POST',
      url: `/v1/verification-sessions/${encodeURIComponent(sessionId)}/reprocess`,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }
}

/** Rows written so far: tests of bad input assert these do not move. */
export async function countWrites(platform: TestPlatform): Promise<{ sessions: number; jobs: number }> {
  const sessions = await platform.database.executeSql('SELECT count(*)::int AS n FROM verification_sessions');
  const jobs = await platform.database.executeSql('SELECT count(*)::int AS n FROM pgboss.job');
  return { sessions: Number(sessions.rows[0]?.n), jobs: Number(jobs.rows[0]?.n) };
}

export interface TestApi {
  platform: TestPlatform;
  api: ApiClient;
  tenant: TestTenant;
}

/**
 * Inside a describe(): a platform, a tenant with a key and an app for the block's tests, closed
 * after them. The fields are filled in by the time the tests run.
 */
export function useTestApi(options: TestPlatformOptions & { prefixes?: string[] } = {}): TestApi {
  const context = {} as TestApi;
  before(async () => {
    context.platform = await createTestPlatform(options);
    context.tenant = await createTestTenant(context.platform, options.prefixes);
    context.api = await ApiClient.start(context.platform, context.tenant.apiKey);
  });
  after(async () => {
    await context.api?.app.close();
    await context.platform?.close();
  });
  return context;
}
