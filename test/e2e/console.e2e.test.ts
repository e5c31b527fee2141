// The console in a real browser: Debian chromium driven by playwright-core
// at 1280×800, a real server on a loopback port, the real pipeline and webhook delivery worker,
// and a real webhook receiver on 127.0.0.1. A session submitted through the hosted flow's service
// functions (test/pipeline/submitted-session.ts) with pre-registered data that differs from the
// document is decided pending_review by the real checks; a reviewer created by the service behind
// `mimoto user create` sets a password from the one-time link, signs in, opens the case from the
// queue, reads why it is there (reasons in words, the two faces at one size, the differing field),
// claims it, approves it with a reason in the form beside the case — and the tenant's receiver gets
// verification.approved with the review field; "next case" opens the next queued case; the sessions
// list finds the person by name and birth date and exports the filtered list as CSV. A tenant admin
// issues an API key (shown once) and disables it, and reads the webhook log (target URL, request
// body, response) and sends a test event. An operator opens the tenant's sessions read-only, which
// the audit log records. Screenshots of each step: artifacts/e2e/console-*.png.
// Run: npm run test:e2e (needs /usr/bin/chromium).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CLI_ACTOR } from '../../src/actors/index.ts';
import { buildApp } from '../../src/app.ts';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { createConsoleUser } from '../../src/console/console-accounts.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import en from '../../web/console/messages/en.json' with { type: 'json' };
import ja from '../../web/console/messages/ja.json' with { type: 'json' };
import { ApiClient, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import {
  ARTIFACTS,
  buildWebApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  clearArtifacts,
  freePort,
  watchPage,
} from '../helpers/e2e-browser.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { submitCorpusSession } from '../pipeline/submitted-session.ts';
import { decidedSession } from '../review/review-fixture.ts';
import { signatureIsValid, waitFor } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';

const REVIEWER = 'reviewer@tenant.example';
const ADMIN = 'admin@tenant.example';
const OPERATOR = 'operator@service.example';
const PASSWORD = 'correct horse battery staple';

let platform: TestPlatform;
let app: FastifyInstance;
let api: ApiClient;
let tenant: TestTenant;
let origin: string;
let receiver: LocalReceiver;
let pipeline: PipelineWorkers;
let delivery: DeliveryWorker;
let browser: Browser;

interface Webhook {
  event: string;
  verificationId: string;
  status: string;
  decision: { status: string; reason: string };
  review?: { id: string; decision: string; reviewedBy: string; reviewedAt: string; reason: string };
}

const webhooks = () =>
  receiver.received
    .filter((r) => r.method === 'POST')
    .map((r) => ({ body: JSON.parse(r.body.toString('utf8')) as Webhook, raw: r }));

const escapeHtml = (s: string) =>
  s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);

before(async () => {
  clearArtifacts(/^console-/);
  buildWebApp('web/console/vite.config.ts');
  // The tenant's receiver: webhooks are POSTed to it; GET shows what arrived (for the screenshot).
  receiver = await startLocalReceiver((request, response) => {
    if (request.method === 'POST') return void response.writeHead(200).end('ok');
    const items = webhooks()
      .map(({ body }) => `<li><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></li>`)
      .join('');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Tenant receiver</title><h1>Webhooks received</h1><ol>${items}</ol>`);
  });

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  platform = await createTestPlatform({
    supervise: true,
    env: {
      MIMOTO_PUBLIC_URL: origin,
      MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-e2e-console-')),
    },
  });
  tenant = await createTestTenant(platform, [receiver.url('/')]);
  app = await buildApp(platform);
  await app.listen({ port, host: '127.0.0.1' });
  api = new ApiClient(app, tenant.apiKey);
  pipeline = await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5 });
  delivery = startWebhookDeliveryWorker(platform, { pollIntervalMs: 200 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await delivery?.stop();
  await pipeline?.stop();
  await app?.close();
  await platform?.close();
  await receiver?.close();
  await terminateOcrEngine();
});

let step = 0;
async function shot(page: Page, name: string) {
  step++;
  // From the top: the case's decision panel is sticky, and a scrolled page would shift it in the picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: path.join(ARTIFACTS, `console-${String(step).padStart(2, '0')}-${name}.png`),
    fullPage: true,
  });
}

/** Nothing is wider than the window: tables scroll inside their own box. */
async function assertNoSideways(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `the page is ${scroll}px wide in a ${width}px window`);
}

/** A submitted corpus session, decided by the real pipeline; its pre-registered surname differs. */
async function pendingReviewSession(): Promise<string> {
  const sessionId = await submitCorpusSession(platform, api, 'drivers_license-genuine-0', {
    preRegisteredInfo: { lastName: '佐藤', firstName: '美咲', birthDate: '1983-09-08' },
    callbackUrl: receiver.url('/kyc/webhook'),
  });
  const detail = await waitFor(
    'the automatic decision',
    async () => {
      const body = (await api.getSession(sessionId)).json() as {
        status: string;
        verification?: { status: string; decision?: { reason: string } };
      };
      if (body.status === 'failed') throw new Error('the pipeline failed the session');
      return body.verification && body.verification.status !== 'processing' ? body : undefined;
    },
    240_000,
  );
  assert.equal(
    detail.verification?.status,
    'pending_review',
    `decided ${detail.verification?.status} (${detail.verification?.decision?.reason})`,
  );
  return sessionId;
}

/** A console user (the service behind `mimoto user create`) whose password is set through the API. */
async function userWithPassword(email: string, role: 'tenant_admin' | 'operator', tenantId?: string) {
  const { setPasswordUrl } = await createConsoleUser(platform, CLI_ACTOR, { email, role, tenantId });
  const token = new URL(setPasswordUrl).searchParams.get('token');
  const set = await fetch(`${origin}/console/api/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: PASSWORD }),
  });
  assert.equal(set.status, 204);
}

async function newPage(context: BrowserContext) {
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

test('a reviewer sets a password, signs in, approves a pending case in chromium at 1280×800, and the webhook with the review arrives', {
  timeout: 420_000,
}, async () => {
  const sessionId = await pendingReviewSession();
  const { setPasswordUrl } = await createConsoleUser(platform, CLI_ACTOR, {
    email: REVIEWER,
    role: 'reviewer',
    tenantId: tenant.tenantId,
  });
  assert.ok(setPasswordUrl.startsWith(`${origin}/console/set-password?token=`));

  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 800 } });
  const { page, watch } = await newPage(context);

  // The one-time link: a password too short is refused here, then the real one is set.
  const entry = await page.goto(setPasswordUrl);
  const csp = (await entry?.allHeaders())?.['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self'(;|$)/);
  await page.getByRole('heading', { name: ja['password.title'] }).waitFor();
  await page.getByLabel(ja['password.new']).fill('short');
  await page.getByLabel(ja['password.repeat']).fill('short');
  await page.getByRole('button', { name: ja['password.submit'] }).click();
  await page.locator('#new-password-error').filter({ hasText: ja['password.length'] }).waitFor();
  assert.equal(await page.getByLabel(ja['password.new']).getAttribute('aria-invalid'), 'true');
  await page.getByLabel(ja['password.new']).fill(PASSWORD);
  await page.getByLabel(ja['password.repeat']).fill(PASSWORD);
  await shot(page, 'set-password');
  await page.getByRole('button', { name: ja['password.submit'] }).click();
  await page.getByText(ja['password.done']).waitFor();
  await page.getByRole('link', { name: ja['password.toLogin'] }).click();

  // Sign in: a wrong password first (the server's answer in Japanese), then with the keyboard.
  await page.getByRole('heading', { name: ja['login.title'] }).waitFor();
  await page.getByLabel(ja['login.email']).fill(REVIEWER);
  await page.getByLabel(ja['login.password']).fill('not the password at all');
  await page.getByRole('button', { name: ja['login.submit'] }).click();
  await page.getByRole('alert').filter({ hasText: ja['error.ConsoleLoginFailed'] }).waitFor();
  await shot(page, 'login-failed');
  await page.getByLabel(ja['login.password']).fill(PASSWORD);
  await page.getByLabel(ja['login.password']).press('Enter');

  // The queue: the reviewer's navigation only, the pending case listed.
  await page.getByRole('heading', { name: ja['review.title'] }).waitFor();
  const nav = page.getByRole('navigation', { name: ja['nav.label'] });
  assert.deepEqual(await nav.getByRole('link').allTextContents(), [ja['nav.review'], ja['nav.sessions']]);
  const caseLink = page.getByRole('link', { name: sessionId });
  await caseLink.waitFor();
  await assertNoSideways(page);
  await shot(page, 'queue');
  // The language switch changes every text; back to Japanese.
  await page.getByRole('button', { name: ja['app.languageLabel'] }).click();
  await page.getByRole('heading', { name: en['review.title'] }).waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await shot(page, 'queue-en');
  await page.getByRole('button', { name: en['app.languageLabel'] }).click();
  await page.getByRole('heading', { name: ja['review.title'] }).waitFor();

  // The filters: another IP hides the case, its own IP shows it again.
  await page.getByLabel(ja['filter.ip']).fill('198.51.100.1');
  await page.getByRole('button', { name: ja['filter.apply'] }).click();
  await page.getByText(ja['sessions.empty']).waitFor();
  await page.getByLabel(ja['filter.ip']).fill('203.0.113.7');
  await page.getByRole('button', { name: ja['filter.apply'] }).click();
  await caseLink.waitFor();

  // The case leads with what is decided on: the reason and the findings in words, the document's face
  // and the selfie at one size, the differing field; the raw check objects are folded at the bottom.
  await caseLink.click();
  await page.getByRole('heading', { level: 1, name: ja['case.title'] }).waitFor();
  await page.getByText(ja['reason.pre_registered_info_mismatch']).first().waitFor();
  const differs = ja['finding.differsPreRegistered'].replace('{field}', ja['field.lastName']);
  await page.locator('.findings li', { hasText: differs }).waitFor();
  const surname = page.locator('table.comparison tr', { hasText: ja['field.lastName'] });
  await surname.locator('td.diff', { hasText: '佐藤' }).waitFor();
  assert.equal(await page.locator('table.comparison td.diff').count(), 1, 'only the surname differs');
  // An OCR field left unread is "not read", never a difference.
  for (const unread of await page.locator('table.comparison tr:has(td.unread)').all())
    assert.equal(await unread.locator('td.diff').count(), 0);
  const faces = page.locator('.face-pair img');
  assert.equal(await faces.count(), 2);
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('.face-pair img')).every(
      (i) => i.complete && i.naturalWidth > 0,
    ),
  );
  const [documentFace, selfieFace] = [await faces.nth(0).boundingBox(), await faces.nth(1).boundingBox()];
  assert.ok(documentFace && selfieFace);
  assert.deepEqual([documentFace.width, documentFace.height], [selfieFace.width, selfieFace.height]);
  assert.equal(documentFace.y, selfieFace.y, 'side by side');
  const top = (await page.locator('.case-top').textContent()) ?? '';
  assert.doesNotMatch(top, /isForgedOrTampered|isDisplayAttack|faceMatch|documentSpoofCheck/, 'no raw names');
  // The raw objects are there, folded.
  const heading = page.getByRole('heading', { name: ja['check.documentSpoofCheck'] });
  assert.equal(await heading.isVisible(), false, 'folded');
  await page.getByText(ja['case.rawChecks']).click();
  for (const check of ['ocr', 'faceMatch', 'documentSpoofCheck', 'selfieSpoofCheck', 'fraudSignalAnalysis']) {
    await page.getByRole('heading', { name: ja[`check.${check}` as keyof typeof ja] }).waitFor();
  }
  await page.locator('table.values caption', { hasText: ja['case.thresholds'] }).waitFor();
  await page.getByText(ja['case.rawChecks']).click();
  const thumbs = page.locator('.case-images .thumbs img');
  assert.ok((await thumbs.count()) >= 3, 'front, back and the reference selfie at least');
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('.case-images .thumbs img')).every(
      (i) => i.complete && i.naturalWidth > 0,
    ),
  );
  await shot(page, 'case');

  // The front of the document in the zoomable viewer (keyboard: + zooms, Escape closes).
  await page.getByRole('button', { name: ja['case.openImage'].replace('{name}', ja['image.front']) }).click();
  const viewer = page.getByRole('dialog', { name: ja['image.front'] });
  await viewer.waitFor();
  // A modal dialog takes the focus (its close button), so the keys below are the dialog's.
  assert.ok(
    await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null),
    'focus moved into the image viewer',
  );
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await viewer.locator('output', { hasText: '156%' }).waitFor();
  await shot(page, 'image-zoomed');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });

  // Claim, then the decision in the form beside the case (within the first screen, not under the
  // frames): the reason is mandatory (checked before anything is sent).
  await page.getByRole('button', { name: ja['case.claim'] }).click();
  await page.getByRole('button', { name: ja['case.releaseClaim'] }).waitFor();
  const form = await page.locator('.case-side .review-form').boundingBox();
  const main = await page.locator('.case-main').boundingBox();
  assert.ok(form && main && form.x > main.x + main.width - 1, 'the form is beside the case');
  assert.ok(form.y < 800, `the form starts within the first screen (y ${form.y})`);
  await shot(page, 'claimed');
  await page.getByRole('button', { name: ja['reviewForm.submit'] }).click();
  await page.locator('#review-reason-error').waitFor();
  await page.locator('#review-reason-code-error').waitFor();
  await shot(page, 'reason-required');
  const reason = '運転免許証を目視で確認。姓は婚姻による変更と確認済み。';
  await page.getByRole('radio', { name: ja['reviewForm.approved'] }).focus();
  await page.keyboard.press('Space');
  await page.getByLabel(ja['reviewForm.reasonCode']).selectOption('data_mismatch_explained');
  await page.getByLabel(ja['reviewForm.reason']).fill(reason);
  await shot(page, 'review-form');
  await page.getByRole('button', { name: ja['reviewForm.submit'] }).click();

  // Decided: the case shows the approval and the review; the claim banner is gone.
  await page.locator('.summary .badge.approved').waitFor();
  await page.locator('.reviews li', { hasText: reason }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: ja['case.decided'].replace('{decision}', ja['verificationStatus.approved']) })
    .waitFor();
  assert.equal(await page.getByRole('button', { name: ja['reviewForm.submit'] }).count(), 0);
  await shot(page, 'approved');
  // The same page on a tablet (820×1180): everything within the window.
  await page.setViewportSize({ width: 820, height: 1180 });
  await assertNoSideways(page);
  await shot(page, 'approved-tablet');

  // The tenant's receiver: verification.approved with the review, signed with the tenant's secret.
  const arrived = await waitFor(
    'the approval webhook',
    () => webhooks().find((w) => w.body.event === 'verification.approved'),
    60_000,
  );
  const { body } = arrived;
  assert.equal(body.verificationId, sessionId);
  assert.equal(body.status, 'approved');
  assert.equal(body.decision.status, 'approved');
  assert.equal(body.decision.reason, reason);
  assert.equal(body.review?.decision, 'approved');
  assert.equal(body.review?.reviewedBy, REVIEWER);
  assert.equal(body.review?.reason, reason);
  assert.ok(body.review?.id && body.review.reviewedAt);
  assert.ok(signatureIsValid(arrived.raw.body, arrived.raw.headers, tenant.webhookSecret));
  // Before it, the automatic pending_review event (no review field).
  const events = webhooks().map((w) => w.body.event);
  assert.deepEqual(events, ['verification.pending_review', 'verification.approved']);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(receiver.url('/received'));
  await page.getByRole('heading', { name: 'Webhooks received' }).waitFor();
  await shot(page, 'webhook-received');

  // "Next case": the next queued case opens (a second one waits, decided by the pipeline's repository).
  const secondCase = await decidedSession(platform, api, receiver.url('/kyc/second'));
  await page.goto(`${origin}/console/tenants/${tenant.tenantId}/sessions/${sessionId}`);
  await page.getByRole('button', { name: ja['case.nextCase'] }).click();
  await page.getByRole('heading', { name: `${ja['case.title']} ${secondCase}` }).waitFor();
  await page.getByRole('button', { name: ja['case.claim'] }).waitFor();
  await shot(page, 'next-case');

  // Search by name and birth date: the approved case is found, the other one is not; CSV export.
  await page
    .getByRole('navigation', { name: ja['nav.label'] })
    .getByRole('link', { name: ja['nav.sessions'] })
    .click();
  await page.getByRole('heading', { name: ja['sessions.title'] }).waitFor();
  await page.getByRole('link', { name: secondCase }).waitFor();
  await page.getByLabel(ja['filter.name'], { exact: true }).fill('佐藤 美咲');
  await page.getByLabel(ja['filter.birthDate']).fill('1983-09-08');
  await page.getByRole('button', { name: ja['filter.apply'] }).click();
  await page.getByRole('link', { name: secondCase }).waitFor({ state: 'detached' });
  await page.getByRole('link', { name: sessionId }).waitFor();
  assert.equal(await page.locator('tbody tr').count(), 1);
  await assertNoSideways(page);
  await shot(page, 'search');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: ja['sessions.exportCsv'] }).click(),
  ]);
  const csv = readFileSync((await download.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  assert.equal(lines.length, 2, 'the header and the one session found');
  assert.ok(lines[1]!.startsWith(`"${sessionId}",`));
  assert.match(download.suggestedFilename(), /^sessions-tn_[0-9A-Z]+-\d{4}-\d{2}-\d{2}\.csv$/);
  // The same search in English.
  await page.getByRole('button', { name: ja['app.languageLabel'] }).click();
  await page.getByRole('heading', { name: en['sessions.title'] }).waitFor();
  await page.getByLabel(en['filter.name'], { exact: true }).waitFor();
  await page.getByRole('link', { name: sessionId }).click();
  await page.getByRole('heading', { name: en['case.why'] }).waitFor();
  await page
    .locator('.findings li', {
      hasText: en['finding.differsPreRegistered'].replace('{field}', en['field.lastName']),
    })
    .waitFor();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('.face-pair img')).every(
      (i) => i.complete && i.naturalWidth > 0,
    ),
  );
  await shot(page, 'case-en');
  await page.getByRole('button', { name: en['app.languageLabel'] }).click();

  // The only failed request is the wrong password (the set-password page needs no session).
  assert.deepEqual(watch.failedResponses, ['401 /console/api/login']);
  assert.deepEqual(watch.unexpectedProblems(), [], 'no script error or CSP violation');
  assert.deepEqual(watch.foreign, [], 'nothing left the service and the receiver');
  await context.close();
});

test('a tenant admin issues an API key (shown once) and disables it, fixes a setting the server refused, rotates the webhook secret, in English (Accept-Language)', {
  timeout: 120_000,
}, async () => {
  await userWithPassword(ADMIN, 'tenant_admin', tenant.tenantId);

  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 800 } });
  const { page, watch } = await newPage(context);
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`${origin}/console`);
  await page.getByRole('heading', { name: en['login.title'] }).waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.getByLabel(en['login.email']).fill(ADMIN);
  await page.getByLabel(en['login.password']).fill(PASSWORD);
  await page.getByRole('button', { name: en['login.submit'] }).click();

  // The admin's navigation: no review queue, no operator pages.
  const nav = page.getByRole('navigation', { name: en['nav.label'] });
  await nav.getByRole('link', { name: en['nav.apiKeys'] }).click();
  await page.getByRole('heading', { name: en['apiKeys.title'] }).waitFor();
  const links = await nav.getByRole('link').allTextContents();
  assert.ok(!links.includes(en['nav.review']) && !links.includes(en['nav.tenants']), links.join(', '));

  await page.getByLabel(en['apiKeys.label']).fill('back office');
  await page.getByRole('button', { name: en['apiKeys.issue'] }).click();
  const secret = page.getByRole('status').locator('output.secret');
  await secret.waitFor();
  const apiKey = (await secret.textContent())?.trim() ?? '';
  assert.ok(apiKey.length > 20);
  await page.locator('tbody tr', { hasText: 'back office' }).waitFor();
  await shot(page, 'admin-api-key-issued');
  const probe = () =>
    fetch(`${origin}/v1/verification-sessions/vs_00000000000000000000000000`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
  assert.equal((await probe()).status, 404, 'the new key is accepted (the session is unknown)');

  // Shown once: after a reload only its label and prefix remain.
  await page.reload();
  await page.locator('tbody tr', { hasText: 'back office' }).waitFor();
  assert.equal(await page.locator('output.secret').count(), 0);
  assert.ok(!(await page.content()).includes(apiKey), 'the key is nowhere on the page');

  await page
    .getByRole('button', { name: en['apiKeys.disableNamed'].replace('{name}', 'back office') })
    .click();
  await page.locator('tbody tr', { hasText: 'back office' }).getByText(en['common.disabled']).waitFor();
  await shot(page, 'admin-api-key-disabled');
  assert.equal((await probe()).status, 401, 'a disabled key stops at once');

  // Settings: the server's validation answer shows next to its field; a valid value is saved.
  await nav.getByRole('link', { name: en['nav.settings'] }).click();
  const face = page.getByLabel(en['settings.faceSimilarityThreshold']);
  await face.fill('1.5');
  await page.getByRole('button', { name: en['common.save'] }).click();
  await page.locator('#settings-face-error').waitFor();
  assert.equal(await face.getAttribute('aria-invalid'), 'true');
  await shot(page, 'admin-settings-field-error');
  await face.fill('0.55');
  await page.getByRole('button', { name: en['common.save'] }).click();
  await page.getByRole('status').filter({ hasText: en['common.saved'] }).waitFor();
  assert.equal(await page.locator('#settings-face-error').count(), 0);
  const settingsPath = `/console/api/tenants/${tenant.tenantId}/settings`;
  const saved = await page.evaluate(async (url) => (await fetch(url)).json(), settingsPath);
  assert.equal(saved.settings.faceSimilarityThreshold, 0.55);

  // The webhook secret: rotated, the new one shown once.
  await page.getByRole('button', { name: en['secret.rotate'] }).click();
  const newSecret = (await page.locator('output.secret').textContent())?.trim() ?? '';
  assert.ok(newSecret.length > 20 && newSecret !== tenant.webhookSecret);
  await shot(page, 'admin-secret-rotated');

  // The webhook log: each event's target URL; its request body and the receiver's answer on demand.
  await nav.getByRole('link', { name: en['nav.webhooks'] }).click();
  await page.getByRole('heading', { name: en['webhooks.title'] }).waitFor();
  const approvedEvent = page.locator('.events li', { hasText: 'verification.approved' });
  await approvedEvent.getByText(`→ ${receiver.url('/kyc/webhook')}`).waitFor();
  await approvedEvent.getByRole('button', { name: en['webhooks.details'] }).click();
  const requestBody = approvedEvent.locator('.request pre.body');
  await requestBody.waitFor();
  assert.match((await requestBody.textContent()) ?? '', /"event": "verification.approved"/);
  await approvedEvent.locator('table.attempts td', { hasText: 'ok' }).first().waitFor();
  // Send test event: a signed webhook.test reaches the receiver; both sides are shown.
  const before = receiver.received.length;
  await page.getByLabel(en['webhooks.testUrl']).fill(receiver.url('/kyc/webhook'));
  await page.getByRole('button', { name: en['webhooks.sendTest'] }).click();
  await page.locator('.test-result .badge', { hasText: 'HTTP 200' }).waitFor();
  const test = receiver.received.slice(before).find((r) => r.headers['x-service-event'] === 'webhook.test');
  assert.ok(test && signatureIsValid(test.body, test.headers, newSecret), 'signed with the current secret');
  await assertNoSideways(page);
  await shot(page, 'admin-webhooks');
  // A URL outside the allow list is refused, in words.
  await page.getByLabel(en['webhooks.testUrl']).fill('https://elsewhere.example/hook');
  await page.getByRole('button', { name: en['webhooks.sendTest'] }).click();
  await page.getByRole('alert').filter({ hasText: en['error.CallbackUrlNotAllowed'] }).waitFor();

  const testPath = `/console/api/tenants/${tenant.tenantId}/webhook-test`;
  assert.deepEqual(watch.failedResponses, ['401 /console/api/me', `400 ${settingsPath}`, `422 ${testPath}`]);
  assert.deepEqual(watch.unexpectedProblems(), []);
  assert.deepEqual(watch.foreign, []);
  await context.close();
});

test('an operator creates a tenant (secret shown once), edits its allow list and finds it in the audit log, at tablet size', {
  timeout: 120_000,
}, async () => {
  await userWithPassword(OPERATOR, 'operator');

  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 820, height: 1180 } });
  const { page, watch } = await newPage(context);
  await page.goto(`${origin}/console/login`);
  await page.getByLabel(ja['login.email']).fill(OPERATOR);
  await page.getByLabel(ja['login.password']).fill(PASSWORD);
  await page.getByRole('button', { name: ja['login.submit'] }).click();

  // The operator's navigation: tenants, users, audit — no tenant pages.
  await page.getByRole('heading', { name: ja['tenants.title'], exact: true }).waitFor();
  const nav = page.getByRole('navigation', { name: ja['nav.label'] });
  assert.deepEqual(await nav.getByRole('link').allTextContents(), [
    ja['nav.tenants'],
    ja['nav.users'],
    ja['nav.audit'],
  ]);

  await page.getByLabel(ja['tenants.name']).fill('Second tenant');
  await page.getByLabel(ja['tenants.prefixes']).fill('http://127.0.0.1:9/second/');
  await page.getByRole('button', { name: ja['tenants.create'] }).click();
  const secret = page.locator('output.secret');
  await secret.waitFor();
  assert.ok(((await secret.textContent()) ?? '').trim().length > 20);
  const article = page.locator('article.tenant', { hasText: 'Second tenant' });
  await article.getByText('http://127.0.0.1:9/second/').waitFor();
  await shot(page, 'operator-tenant-created');

  await article.getByLabel(ja['tenants.addPrefix']).fill('http://127.0.0.1:9/other/');
  await article.getByRole('button', { name: ja['common.add'] }).click();
  await article.getByText('http://127.0.0.1:9/other/').waitFor();
  await article
    .getByRole('button', {
      name: ja['tenants.removePrefixNamed'].replace('{prefix}', 'http://127.0.0.1:9/other/'),
    })
    .click();
  await article.getByText('http://127.0.0.1:9/other/').waitFor({ state: 'detached' });
  await assertNoSideways(page);
  await shot(page, 'operator-allow-list');

  await nav.getByRole('link', { name: ja['nav.audit'] }).click();
  await page.getByRole('heading', { name: ja['audit.title'] }).waitFor();
  const rows = page.locator('table.audit tbody tr');
  await rows.first().waitFor();
  const actions = await page.locator('table.audit tbody tr td:nth-child(3)').allTextContents();
  // Newest first: the three changes just made.
  assert.deepEqual(actions.slice(0, 3), [
    'tenant.callback_prefix.remove',
    'tenant.callback_prefix.add',
    'tenant.create',
  ]);
  await shot(page, 'operator-audit');

  // Any tenant's sessions, read-only: no claim, no form; the audit log records the views.
  await nav.getByRole('link', { name: ja['nav.tenants'] }).click();
  const tested = page.locator('article.tenant', { hasText: tenant.tenantId });
  await tested.getByRole('link', { name: ja['tenants.sessions'] }).click();
  await page.getByRole('heading', { name: ja['sessions.title'] }).waitFor();
  await page.getByRole('note').filter({ hasText: tenant.tenantId }).waitFor();
  await page.locator('tbody tr', { hasText: ja['verificationStatus.approved'] }).locator('a').click();
  await page.getByRole('heading', { name: ja['case.why'] }).waitFor();
  await page.getByRole('note').filter({ hasText: ja['case.readOnly'] }).waitFor();
  assert.equal(await page.getByRole('button', { name: ja['case.claim'] }).count(), 0);
  assert.equal(await page.getByRole('button', { name: ja['reviewForm.submit'] }).count(), 0);
  await assertNoSideways(page);
  await shot(page, 'operator-case');
  await nav.getByRole('link', { name: ja['nav.audit'] }).click();
  await rows.first().waitFor();
  const latest = await page.locator('table.audit tbody tr td:nth-child(3)').allTextContents();
  assert.deepEqual(latest.slice(0, 2), ['session.view', 'session.list']);

  assert.deepEqual(watch.failedResponses, ['401 /console/api/me']);
  assert.deepEqual(watch.unexpectedProblems(), []);
  assert.deepEqual(watch.foreign, []);
  await context.close();
});
