// The console's pages (docs/console-api.md): the browser app's shell at /console
// and every page path below it, its files under /console/assets/, under the strict CSP — and
// nothing else: unknown API paths, missing files and path tricks stay JSON 404s.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { CONSOLE_APP_DIR } from '../../src/console/console-pages.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

let platform: TestPlatform;
let app: FastifyInstance;
let scriptPath: string;

before(async () => {
  // The pages under test are the current source's build (a few seconds).
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/console/vite.config.ts'],
    {
      stdio: 'ignore',
    },
  );
  const script = readdirSync(`${CONSOLE_APP_DIR}app`).find((f) => f.endsWith('.js'));
  assert.ok(script, 'the build has a script');
  scriptPath = `/console/assets/app/${script}`;
  platform = await createTestPlatform();
  app = await buildApp(platform);
  await app.ready();
});

after(async () => {
  await app?.close();
  await platform?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

function assertShell(response: Awaited<ReturnType<typeof get>>) {
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^text\/html/);
  assert.match(response.body, /<div id="app">/);
  assert.ok(response.body.includes(`src="${scriptPath}"`), 'loads the built script from /console/assets/');
}

test('GET /console serves the app shell under the strict CSP, uncached', async () => {
  const response = await get('/console');
  assertShell(response);
  const csp = String(response.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/, 'no inline, eval or third-party script');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|wasm-unsafe-eval/);
  assert.equal(response.headers['cache-control'], 'no-store');
  // Every script is an external file: nothing inline for the CSP to block.
  assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)[^>]*>/);
});

test('page paths below /console get the same shell, so reloads and one-time links work', async () => {
  for (const path of [
    '/console/',
    '/console/login',
    '/console/set-password?token=abc123',
    '/console/tenants/ten_1/review',
    '/console/tenants/ten_1/sessions/ses_1',
    '/console/audit',
  ]) {
    assertShell(await get(path));
  }
});

test('the shell starts in the language of Accept-Language (Japanese without one, English for others)', async () => {
  assert.match((await get('/console')).body, /<html lang="ja">/);
  assert.match((await get('/console', { 'accept-language': 'en-GB,en;q=0.9' })).body, /<html lang="en">/);
  assert.match((await get('/console', { 'accept-language': 'fr, ja;q=0.5' })).body, /<html lang="ja">/);
  // A header naming neither language gets English; a hostile one changes nothing but that choice.
  assert.match((await get('/console', { 'accept-language': 'fr-FR,fr;q=0.9' })).body, /<html lang="en">/);
  const hostile = await get('/console', { 'accept-language': '"><script>alert(1)</script>' });
  assert.match(hostile.body, /<html lang="en">/);
  assert.doesNotMatch(hostile.body, /alert\(1\)/);
});

test('the built files are served under /console/assets/', async () => {
  const response = await get(scriptPath);
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /javascript/);
  assert.ok(response.body.length > 1000);
});

test('a missing asset is a JSON 404, not the shell', async () => {
  const response = await get('/console/assets/app/missing.js');
  assert.equal(response.statusCode, 404);
  assert.doesNotMatch(response.body, /<div id="app">/);
});

test('an unknown console API path is a JSON 404, not the shell', async () => {
  for (const path of ['/console/api/nope', '/console/api', '/console/api/tenants/x/unknown']) {
    const response = await get(path);
    assert.equal(response.statusCode, 404, path);
    assert.equal(response.json().error, 'NotFound', path);
  }
});

test('path tricks under /console/assets/ never leave the build directory', async () => {
  for (const path of [
    '/console/assets/../../package.json',
    '/console/assets/%2e%2e/%2e%2e/package.json',
    '/console/assets/..%2f..%2fpackage.json',
    '/console/assets/.env',
  ]) {
    const response = await get(path);
    assert.notEqual(response.statusCode, 200, path);
    assert.doesNotMatch(response.body, /"dependencies"/, path);
  }
});

test('only GET serves pages: other methods on a page path are refused', async () => {
  const response = await app.inject({
    method: 'POST',
    url: '/console/tenants/ten_1/review',
    headers: { 'content-type': 'application/json' },
    payload: '{}',
  });
  assert.equal(response.statusCode, 404);
  assert.doesNotMatch(response.body, /<div id="app">/);
});
