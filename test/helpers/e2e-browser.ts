// What the browser tests share (npm run test:e2e): Debian chromium's path and flags, a free loopback
// port, building a Vite app before its test, the artifacts directory (each test clears only its own
// screenshots, so the e2e files can run in any order), and the page's script errors and failed
// requests collected for the final asserts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { insertChallenge, recordLivenessAttempt } from '../../src/hosted-flow/hosted-flow-repository.ts';
import type { Platform } from '../../src/platform/platform.ts';

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
