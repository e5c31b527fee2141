// Console tests drive the app through app.inject() as the browser app would: a cookie, the CSRF
// header on changes, JSON bodies.
import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { CLI_ACTOR, type ConsoleRole, createConsoleUser } from '../../src/console/index.ts';
import { createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

export const PASSWORD = 'correct horse battery staple';
export const ORIGIN = 'http://127.0.0.1:8080';

export interface Signed {
  email: string;
  userId: string;
  cookie: string;
  csrfToken: string;
}

export class ConsoleClient {
  constructor(readonly app: FastifyInstance) {}

  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    as?: Signed,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method,
      url: `/console/api${url}`,
      headers: {
        ...(as ? { cookie: `mimoto_console=${as.cookie}` } : {}),
        ...(as && method !== 'GET' ? { 'x-csrf-token': as.csrfToken } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  login(email: string, password = PASSWORD, remoteAddress?: string) {
    return this.app.inject({
      method: 'POST',
      url: '/console/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password }),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  }

  /** A user created as the CLI does, with a password set through the link and signed in. */
  async createUser(
    platform: TestPlatform,
    role: ConsoleRole,
    tenantId: string | null,
    email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.test`,
  ): Promise<Signed> {
    const { user, setPasswordUrl } = await createConsoleUser(platform, CLI_ACTOR, { email, role, tenantId });
    const token = new URL(setPasswordUrl).searchParams.get('token')!;
    const set = await this.request('POST', '/password', undefined, { token, password: PASSWORD });
    if (set.statusCode !== 204) throw new Error(`set password: ${set.statusCode} ${set.body}`);
    return { ...(await this.signIn(email)), userId: user.id };
  }

  async signIn(email: string): Promise<Omit<Signed, 'userId'>> {
    const response = await this.login(email);
    if (response.statusCode !== 200) throw new Error(`login: ${response.statusCode} ${response.body}`);
    const cookie = response.cookies.find((c) => c.name === 'mimoto_console')!.value;
    return { email, cookie, csrfToken: response.json().csrfToken };
  }
}

export interface ConsoleWorld {
  platform: TestPlatform;
  client: ConsoleClient;
  tenantA: TestTenant;
  tenantB: TestTenant;
  operator: Signed;
  adminA: Signed;
  reviewerA: Signed;
  adminB: Signed;
}

/** Inside a describe(): two tenants and an operator, an admin and a reviewer of A, an admin of B. */
export function useConsoleWorld(): ConsoleWorld {
  const world = {} as ConsoleWorld;
  before(async () => {
    world.platform = await createTestPlatform();
    world.tenantA = await createTestTenant(world.platform);
    world.tenantB = await createTestTenant(world.platform);
    const app = await buildApp(world.platform);
    await app.ready();
    world.client = new ConsoleClient(app);
    world.operator = await world.client.createUser(world.platform, 'operator', null);
    world.adminA = await world.client.createUser(world.platform, 'tenant_admin', world.tenantA.tenantId);
    world.reviewerA = await world.client.createUser(world.platform, 'reviewer', world.tenantA.tenantId);
    world.adminB = await world.client.createUser(world.platform, 'tenant_admin', world.tenantB.tenantId);
  });
  after(async () => {
    await world.client?.app.close();
    await world.platform?.close();
  });
  return world;
}

/** Rows a rejected request must not have added. */
export async function countRows(platform: TestPlatform): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['console_users', 'console_sessions', 'audit_log', 'tenants', 'api_keys']) {
    const result = await platform.database.executeSql(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = Number(result.rows[0]?.n);
  }
  return counts;
}
