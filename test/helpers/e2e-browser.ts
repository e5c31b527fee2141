// What the browser tests share (npm run test:e2e): Debian chromium's path and flags, a free loopback
// port, building a Vite app before its test, the artifacts directory (each test clears only its own
// screenshots, so the e2e files can run in any order), the service with one tenant whose callback
// is a local page, and the page's script errors and failed requests collected for the final asserts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import { insertChallenge, recordLivenessAttempt } from '../../src/hosted-flow/hosted-flow-repository.ts';
import { closeInferencePool } from '../../src/inference/index.ts';
import { warmUpCheckModels } from '../../src/pipeline/warm-up.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { updateTenantSettings } from '../../src/tenants/index.ts';
import { createTestTenant, type TestTenant } from './api-client.ts';
import { createTestPlatform, type TestPlatform } from './test-platform.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('artifacts/e2e');

/** Headless, offline: nothing of Chromium's own reaches the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function listenOnFreePort(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listenOnFreePort(probe);
  await new Promise((r) => probe.close(r));
  return port;
}

/** The app under test is the current source: build it (a few seconds). */
export function buildWebApp(viteConfig: string): void {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', viteConfig], {
    stdio: 'ignore',
  });
}

/** Removes this test's earlier artifacts (names matching `mine`), leaving other tests' alone. */
export function clearArtifacts(mine: RegExp): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const name of readdirSync(ARTIFACTS)) {
    if (mine.test(name)) rmSync(path.join(ARTIFACTS, name), { recursive: true, force: true });
  }
}

/** Script errors, CSP violations, 4xx/5xx answers and foreign requests, for the test's last asserts. */
export function watchPage(page: Page) {
  const problems: string[] = [];
  const failedResponses: string[] = [];
  // Nothing may leave the loopback origins of the test (no third-party resource, interface §8).
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'blob:' || url.protocol === 'data:') return;
    if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') foreign.push(request.url());
  });
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /Content.Security.Policy/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('response', (response) => {
    if (response.status() >= 400)
      failedResponses.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return {
    failedResponses,
    foreign,
    /** Problems other than the browser's own "Failed to load resource" line for each failed response. */
    unexpectedProblems: () => problems.filter((p) => !/^Failed to load resource/.test(p)),
  };
}

/**
 * The face check recorded as passed, for browser walks about other steps (the live check's own
 * browser walk is in hosted-flow.e2e.test.ts).
 */
export async function passLiveness(platform: Platform, sessionId: string): Promise<void> {
  const db = platform.database.db;
  const now = platform.now();
  const challengeId = `lc_${sessionId.slice(3)}`;
  await insertChallenge(db, {
    id: challengeId,
    sessionId,
    steps: ['turn_left'],
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 60_000),
  });
  await recordLivenessAttempt(db, {
    sessionId,
    challengeId,
    passed: true,
    confidence: 0.95,
    failures: [],
    frameBlobs: [],
    outcome: { status: 'success', referenceBlob: null },
    now,
  });
}

export interface FlowService {
  platform: TestPlatform;
  app: FastifyInstance;
  tenant: TestTenant;
  origin: string;
  /** The tenant's callback prefix: a local page that shows the URL it was opened with. */
  callbackBase: string;
  /** A session created as the tenant's server does (`extra` fields added), its link to be opened at once (10 s). */
  newSession(extra?: Record<string, unknown>): Promise<{ sessionId: string; verificationUrl: string }>;
  close(): Promise<void>;
}

/**
 * The service on a free loopback port, with one tenant (`settings` applied) and its callback
 * receiver, models warmed as `mimoto start` warms them: the capture check's first upload would
 * otherwise pay their loading, past its time budget on a loaded machine.
 */
export async function startFlowService(settings: Record<string, unknown> = {}): Promise<FlowService> {
  const receiver = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Tenant</title><h1>Callback received</h1><p>${request.url}</p>`);
  });
  const callbackBase = `http://127.0.0.1:${await listenOnFreePort(receiver)}/kyc/callback`;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const platform = await createTestPlatform({
    env: { MIMOTO_PUBLIC_URL: origin, MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-e2e-')) },
  });
  const tenant = await createTestTenant(platform, [callbackBase]);
  if (Object.keys(settings).length > 0)
    await updateTenantSettings(platform.database.db, tenant.tenantId, settings);
  const app = await buildApp(platform);
  await app.listen({ port, host: '127.0.0.1' });
  await warmUpCheckModels();
  return {
    platform,
    app,
    tenant,
    origin,
    callbackBase,
    async newSession(extra = {}) {
      const created = await fetch(`${origin}/v1/verification-sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ callbackUrl: `${callbackBase}/done`, clientIpAddress: '127.0.0.1', ...extra }),
      });
      if (created.status !== 201)
        throw new Error(`session not created: ${created.status} ${await created.text()}`);
      return (await created.json()) as { sessionId: string; verificationUrl: string };
    },
    async close() {
      await app.close();
      await platform.close();
      await closeInferencePool();
      receiver.close();
    },
  };
}
