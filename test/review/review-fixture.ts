// Cases waiting for a reviewer, and signed-in console users, for the review tests. A pending case is
// a session created through the API whose automatic decisions are written with the pipeline's own
// repository function (the pipeline itself is driven in blacklist.test.ts).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CLI_ACTOR } from '../../src/actors/index.ts';
import type { CheckId } from '../../src/checks/check.ts';
import { createConsoleUser, setPasswordWithLink } from '../../src/console/console-accounts.ts';
import { insertDecision, saveCheckResult } from '../../src/pipeline/pipeline-repository.ts';
import { resultContext } from '../../src/pipeline/stored-results.ts';
import { encryptJson } from '../../src/platform/crypto/encryption.ts';
import type { ApiClient } from '../helpers/api-client.ts';
import type { TestPlatform } from '../helpers/test-platform.ts';

type AutomaticStatus = 'approved' | 'rejected' | 'pending_review';

/** A submitted session whose automatic decisions were `statuses` (one per generation, last = current). */
export async function decidedSession(
  platform: TestPlatform,
  api: ApiClient,
  callbackUrl: string,
  statuses: AutomaticStatus[] = ['pending_review'],
): Promise<string> {
  const created = await api.createSession({ callbackUrl, clientIpAddress: '198.51.100.4' });
  if (created.statusCode !== 201) throw new Error(`create session: ${created.body}`);
  const { sessionId } = created.json() as { sessionId: string };
  const db = platform.database.db;
  const now = platform.now();
  const last = statuses.at(-1)!;
  await db
    .updateTable('verification_sessions')
    .set({
      status: 'completed',
      submitted_at: now,
      verification_status: last,
      liveness_status: 'success',
      liveness_confidence: 0.93,
      pipeline_generation: statuses.length - 1,
    })
    .where('id', '=', sessionId)
    .execute();
  for (const [generation, status] of statuses.entries()) {
    await insertDecision(db, {
      id: `dec_test_${sessionId}_${generation}`,
      sessionId,
      tenantId: (
        await db
          .selectFrom('verification_sessions')
          .select('tenant_id')
          .where('id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).tenant_id,
      generation,
      status,
      reason:
        status === 'pending_review'
          ? 'face_similarity_near_threshold'
          : status === 'rejected'
            ? 'face_mismatch'
            : 'all_checks_passed',
      metadata: {},
      thresholds: { faceSimilarityThreshold: 0.5 },
      preRegisteredInfoMatch: null,
      userInputMatch: null,
      decidedAt: new Date(now.getTime() + generation),
    });
  }
  return sessionId;
}

/** A check's result stored for the session's current generation, as the pipeline's job stores it. */
export async function storeCheckResult(
  platform: TestPlatform,
  sessionId: string,
  checkId: CheckId,
  result: Record<string, unknown>,
): Promise<void> {
  await saveCheckResult(platform.database.db, {
    sessionId,
    checkId,
    generation: 0,
    status: 'success',
    resultEnc: encryptJson(platform.keyring, { result }, resultContext(sessionId, checkId)),
    provider: 'mimoto',
    model: 'test',
    version: '0',
    inputHashes: {},
    durationMs: 1,
    error: null,
    completedAt: platform.now(),
  });
}

export const PASSWORD = 'correct horse battery staple';

/** A console user signed in through the login route: cookie and CSRF token on every request. */
export class ConsoleClient {
  constructor(
    readonly app: FastifyInstance,
    readonly user: { id: string; email: string },
    readonly cookie: string,
    readonly csrfToken: string,
  ) {}

  static async signIn(
    app: FastifyInstance,
    platform: TestPlatform,
    input: { email: string; role: 'tenant_admin' | 'reviewer' | 'operator'; tenantId?: string },
  ): Promise<ConsoleClient> {
    const { user, setPasswordUrl } = await createConsoleUser(platform, CLI_ACTOR, input);
    const token = new URL(setPasswordUrl).searchParams.get('token')!;
    await setPasswordWithLink(platform, { token, password: PASSWORD }, null);
    const res = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: input.email, password: PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'mimoto_console');
    if (!cookie) throw new Error('login set no mimoto_console cookie');
    return new ConsoleClient(app, { id: user.id, email: user.email }, cookie.value, res.json().csrfToken);
  }

  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method,
      url,
      cookies: { mimoto_console: this.cookie },
      headers: {
        ...(method === 'GET' ? {} : { 'x-csrf-token': this.csrfToken }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }
}

export async function countRows(
  platform: TestPlatform,
  table: 'decisions' | 'webhook_events' | 'reviews' | 'review_claims',
  sessionId: string,
  where: { kind?: 'review' } = {},
): Promise<number> {
  let query = platform.database.db.selectFrom(table).select('session_id').where('session_id', '=', sessionId);
  if (where.kind) query = query.where('kind' as never, '=', where.kind as never);
  return (await query.execute()).length;
}

/** Runs `body` with the tenant's settings set to `settings`, then empties them again. */
export async function withTenantSettings(
  platform: TestPlatform,
  tenantId: string,
  settings: Record<string, unknown>,
  body: () => Promise<void>,
): Promise<void> {
  const set = (value: Record<string, unknown>) =>
    platform.database.db
      .updateTable('tenants')
      .set({ settings: JSON.stringify(value) })
      .where('id', '=', tenantId)
      .execute();
  await set(settings);
  try {
    await body();
  } finally {
    await set({});
  }
}
