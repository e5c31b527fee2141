// @mimoto/node builds to ESM with type declarations, and the built module works on its own (no
// dependency but Node): the package a tenant installs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-sdk-'));
after(() => fs.rmSync(outDir, { recursive: true, force: true }));

it('compiles with tsc to ESM and .d.ts, and the built module verifies a webhook', async () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'packages/node/tsconfig.json', '--outDir', outDir], {
    stdio: 'pipe',
  });
  for (const file of ['index.js', 'index.d.ts', 'client.js', 'webhooks.d.ts', 'types.gen.d.ts'])
    assert.ok(fs.existsSync(path.join(outDir, file)), file);
  const manifest = JSON.parse(fs.readFileSync('packages/node/package.json', 'utf8'));
  assert.equal(manifest.name, '@mimoto/node');
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.exports['.'].types, './dist/index.d.ts');
  assert.equal(manifest.dependencies, undefined, 'no runtime dependencies');

  const sdk = await import(pathToFileURL(path.join(outDir, 'index.js')).href);
  const body = JSON.stringify({ event: 'verification.approved', verificationId: 'vs_1', tenantId: 'tn_1' });
  const signature = `sha256=${createHmac('sha256', 'whsec_x').update(body).digest('hex')}`;
  const event = sdk.webhooks.verify(body, { 'X-Service-Signature': signature }, 'whsec_x');
  assert.equal(event.verificationId, 'vs_1');
  assert.throws(
    () => sdk.webhooks.verify(body, { 'x-service-signature': signature }, 'other'),
    sdk.WebhookVerificationError,
  );
  assert.equal(
    typeof new sdk.Mimoto({ apiKey: 'mmt_x', baseUrl: 'http://127.0.0.1:1' }).sessions.create,
    'function',
  );
});
