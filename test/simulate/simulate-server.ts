// A real mimoto server on a loopback port for the simulate tests: the simulator speaks HTTP to
// it exactly as to staging. MIMOTO_PUBLIC_URL must be known before the platform is built (it
// makes the verificationUrl), so a free port is reserved first and then listened on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import { CALLBACK_PREFIX, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { freePort } from '../helpers/free-port.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

export interface SimulateServer {
  platform: TestPlatform;
  app: FastifyInstance;
  tenant: TestTenant;
  origin: string;
  close(): Promise<void>;
}

/** `pipeline`: also run the check and decision workers, as `mimoto start` does, so sessions get decided. */
export async function startSimulateServer(options: { pipeline?: boolean } = {}): Promise<SimulateServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const platform = await createTestPlatform({
    supervise: options.pipeline ?? false,
    env: {
      MIMOTO_PUBLIC_URL: origin,
      MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-simulate-')),
    },
  });
  const tenant = await createTestTenant(platform);
  const app = await buildApp(platform);
  await app.listen({ port, host: '127.0.0.1' });
  const workers: PipelineWorkers | null = options.pipeline
    ? await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5 })
    : null;
  return {
    platform,
    app,
    tenant,
    origin,
    close: async () => {
      await workers?.stop();
      await app.close();
      await platform.close();
    },
  };
}

/** A session created through the tenant API, as a tenant's server would; returns its link. */
export async function createSession(
  server: SimulateServer,
): Promise<{ sessionId: string; verificationUrl: string }> {
  const response = await fetch(`${server.origin}/v1/verification-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.tenant.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      callbackUrl: `${CALLBACK_PREFIX}/done`,
      clientIpAddress: '127.0.0.1',
      state: 'tenant-state-7',
    }),
  });
  if (response.status !== 201) throw new Error(`create session: ${response.status} ${await response.text()}`);
  return (await response.json()) as { sessionId: string; verificationUrl: string };
}

export async function getSessionDetail(server: SimulateServer, sessionId: string) {
  const response = await fetch(`${server.origin}/v1/verification-sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${server.tenant.apiKey}` },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the detail's shape is asserted field by field
  return (await response.json()) as any;
}

/** Check jobs queued for a session (pg-boss rows named check.*). */
export async function queuedCheckJobs(server: SimulateServer, sessionId: string): Promise<string[]> {
  const result = await server.platform.database.executeSql(
    `SELECT name FROM pgboss.job WHERE name LIKE 'check.%' AND data->>'sessionId' = $1 ORDER BY name`,
    [sessionId],
  );
  return result.rows.map((r) => String(r.name));
}
