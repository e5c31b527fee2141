// The hosted flow in a real browser: Debian chromium driven by playwright-core,
// phone-sized (360×640), a real server on a loopback port, the document by file upload and the
// face by Chromium's fake camera playing a synthetic corpus capture (.y4m). It walks every screen
// to the tenant's callback and saves a screenshot of each under artifacts/e2e/.
// Run: npm run test:e2e (builds the web app first; needs /usr/bin/chromium).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { FLOW_MESSAGES } from '../../src/hosted-flow/flow-messages.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import en from '../../web/verify/messages/en.json' with { type: 'json' };
import ja from '../../web/verify/messages/ja.json' with { type: 'json' };
import {
  ARTIFACTS,
  buildWebApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  clearArtifacts,
  type FlowService,
  startFlowService,
  watchPage,
} from '../helpers/e2e-browser.ts';

const SAMPLE_ID = 'drivers_license-genuine-0';
const CORPUS_DIR = path.join(tmpdir(), 'mimoto-e2e-corpus-seed1');

let service: FlowService;
let context: BrowserContext;
let userDataDir: string;
let sample: {
  dir: string;
  truth: { lastName: string; firstName: string; birthDate: string; address: string };
};

/** The genuine sample's files (front, back, capture.y4m), generated once per machine. */
function corpusSample() {
  const dir = path.join(CORPUS_DIR, SAMPLE_ID);
  if (!existsSync(path.join(dir, 'capture.y4m'))) {
    execFileSync(
      process.execPath,
      ['bin/mimoto.js', 'synth', '--out', CORPUS_DIR, '--seed', '1', '--count', '1', '--only', SAMPLE_ID],
      { stdio: 'inherit' },
    );
  }
  const manifest = JSON.parse(readFileSync(path.join(CORPUS_DIR, 'manifest.json'), 'utf8'));
  const sample = manifest.samples.find((s: { id: string }) => s.id === SAMPLE_ID);
  return { dir, truth: sample.truth };
}

/** The frames the browser chose, as the server stored them: an artifact to inspect a failure. */
async function saveLivenessFrames() {
  const root = path.join(service.platform.config.dataDir, 'blobs');
  const out = path.join(ARTIFACTS, 'liveness-frames');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const blobs = openBlobStore(service.platform.config, service.platform.keyring);
  const keys = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((k) =>
    /frame-\d+\.jpg$/.test(k),
  );
  for (const key of keys.sort()) {
    const bytes = await blobs.getBlob(key.split(path.sep).join('/'));
    if (bytes) writeFileSync(path.join(out, key.split(path.sep).join('_')), bytes);
  }
}

let step = 0;
async function shot(page: Page, name: string) {
  step++;
  await page.screenshot({
    path: path.join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`),
    fullPage: true,
  });
}

const MESSAGES = { ja, en };
type Language = keyof typeof MESSAGES;

before(async () => {
  // This test's screenshots are numbered (01-…) plus the liveness frames; the console's are its own.
  clearArtifacts(/^(\d\d-|liveness-frames$)/);
  buildWebApp('web/vite.config.ts');

  service = await startFlowService();

  sample = corpusSample();
  userDataDir = mkdtempSync(path.join(tmpdir(), 'mimoto-e2e-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    // Accept-Language ja: the flow starts in Japanese; the English walk uses the switch.
    locale: 'ja-JP',
    viewport: { width: 360, height: 640 },
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${path.join(sample.dir, 'capture.y4m')}`,
    ],
  });
});

after(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await service?.close();
});

/** One person's whole flow in `language`, from the tenant's link to the tenant's callback. */
async function walkFlow(language: Language) {
  const { dir, truth } = sample;
  const m = MESSAGES[language];
  const page = await context.newPage();
  const watch = watchPage(page);

  // The tenant creates a session; the link is valid 10 s, so it is opened at once.
  const { sessionId, verificationUrl } = await service.newSession({ state: 'e2e-7' });
  const entry = await page.goto(verificationUrl);
  assert.ok(entry);
  assert.match(page.url(), /\/verify\/flow$/);
  const csp = (await entry.allHeaders())['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/, 'no inline or third-party script allowed');
  assert.match(csp, /frame-ancestors 'none'/);

  // The page opens in the language of Accept-Language (ja); the switch changes every text.
  await page.getByRole('heading', { name: ja['consent.title'] }).waitFor();
  await page.getByRole('button', { name: ja['app.languageLabel'] }).click();
  await page.getByRole('heading', { name: en['consent.title'] }).waitFor();
  if (language === 'ja') {
    await shot(page, 'ja-consent-switched-to-en');
    await page.getByRole('button', { name: en['app.languageLabel'] }).click();
  }
  await page.getByRole('heading', { name: m['consent.title'] }).waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), language);
  await shot(page, `${language}-consent`);
  // Keyboard: the checkbox is reachable and toggled with the space bar.
  await page.getByRole('checkbox', { name: m['consent.checkbox'] }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: m['consent.submit'] }).click();

  // Document type: the tenant's default list, all four.
  await page.getByRole('heading', { name: m['docType.title'] }).waitFor();
  assert.equal(await page.getByRole('radio').count(), 4);
  await page.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await shot(page, `${language}-document-type`);
  await page.getByRole('button', { name: m['docType.submit'] }).click();

  // Front: the camera view with the card guide; first a blurred photo — the browser says so,
  // and when sent anyway the server's 422 comes back in the user's language — then the real one.
  await page.getByRole('heading', { name: m['capture.title.front'] }).waitFor();
  await page.locator('.card-guide').waitFor();
  await page.getByRole('button', { name: m['capture.take'] }).waitFor();
  await shot(page, `${language}-front-camera`);
  const blurred = path.join(userDataDir, 'front-blurred.jpg');
  writeFileSync(blurred, await sharp(path.join(dir, 'front.jpg')).blur(6).jpeg().toBuffer());
  await page.setInputFiles('#file-front', blurred);
  await page.getByText(m['quality.ImageBlurred']).waitFor();
  await shot(page, `${language}-front-blurred-feedback`);
  await page.getByRole('button', { name: m['capture.useAnyway'] }).click();
  // The server's refusal in the user's language says the photo is blurred: the quality gate's
  // message, or the capture check's (its reading of the blurred card failed).
  const blurredSaid = [
    FLOW_MESSAGES.ImageBlurred![language],
    m['capture.refused.ImageBlurred'].replaceAll('{wanted}', m['docType.drivers_license']),
  ];
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  await alert.first().waitFor({ timeout: 120_000 });
  const said = (await alert.first().textContent()) ?? '';
  assert.ok(
    blurredSaid.some((text) => said.includes(text)),
    said,
  );
  await shot(page, `${language}-front-blurred-server-422`);
  await page.getByRole('button', { name: m['capture.retake'] }).click();
  await page.setInputFiles('#file-front', path.join(dir, 'front.jpg'));
  await page.getByText(m['capture.sendToCheck']).waitFor();
  await shot(page, `${language}-front-accepted`);
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();

  // Back (after the server's capture check read the front).
  await page.getByRole('heading', { name: m['capture.title.back'] }).waitFor({ timeout: 120_000 });
  await page.setInputFiles('#file-back', path.join(dir, 'back.jpg'));
  await page.getByText(m['capture.sendToCheck']).waitFor();
  await shot(page, `${language}-back-accepted`);
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();

  // Live face check with the fake camera (the corpus capture loops through all five poses).
  await page.getByRole('heading', { name: m['face.title'] }).waitFor({ timeout: 120_000 });
  await shot(page, `${language}-face-intro`);
  await page.getByRole('button', { name: m['face.start'] }).click();
  await page.locator('.instruction .big').waitFor({ timeout: 120_000 });
  await shot(page, `${language}-face-instruction`);
  const outcome = page.getByText(m['face.passed']).or(page.getByText(m['face.failed']));
  await outcome.waitFor({ timeout: 150_000 });
  await shot(page, `${language}-face-result`);
  const failures = await page.locator('[role=status] li').allTextContents();
  await saveLivenessFrames();
  assert.ok(await page.getByText(m['face.passed']).isVisible(), `liveness failed: ${failures.join(' / ')}`);
  await page.getByRole('button', { name: m['face.continue'] }).click();

  // Personal data: a wrong kana gets the server's message next to that field.
  await page.getByRole('heading', { name: m['personal.title'] }).waitFor();
  await page.getByLabel(m['personal.lastName'], { exact: true }).fill(truth.lastName);
  await page.getByLabel(m['personal.firstName'], { exact: true }).fill(truth.firstName);
  await page.getByLabel(m['personal.lastNameKana']).fill('morita');
  await page.getByLabel(m['personal.firstNameKana']).fill('ゆうと');
  await page.getByLabel(m['personal.birthDate']).fill(truth.birthDate);
  await page.getByLabel(m['personal.address']).fill(truth.address);
  await page.getByRole('button', { name: m['personal.submit'] }).click();
  await page.locator('#field-lastNameKana-error').filter({ hasText: m['personal.invalid.kana'] }).waitFor();
  assert.equal(await page.getByLabel(m['personal.lastNameKana']).getAttribute('aria-invalid'), 'true');
  await shot(page, `${language}-personal-data-field-error`);
  await page.getByLabel(m['personal.lastNameKana']).fill('もりた');
  await shot(page, `${language}-personal-data`);
  await page.getByRole('button', { name: m['personal.submit'] }).click();

  // Review: the normalised values (kana as full-width katakana), then submit → callback.
  await page.getByRole('heading', { name: m['review.title'] }).waitFor();
  await page.getByText('モリタ').waitFor();
  await page.getByText('ユウト').waitFor();
  await shot(page, `${language}-review`);
  await page.getByRole('button', { name: m['review.submit'] }).click();
  await page.waitForURL((url) => url.href.startsWith(service.callbackBase), { timeout: 30_000 });
  await page.getByRole('heading', { name: 'Callback received' }).waitFor();
  await shot(page, `${language}-callback`);
  const landed = new URL(page.url());
  assert.equal(landed.searchParams.get('sessionId'), sessionId);
  assert.equal(landed.searchParams.get('state'), 'e2e-7');

  // The tenant sees a submitted session with a passed liveness check.
  const detail = (await (
    await fetch(`${service.origin}/v1/verification-sessions/${sessionId}`, {
      headers: { authorization: `Bearer ${service.tenant.apiKey}` },
    })
  ).json()) as {
    documentType: string;
    liveness: { status: string } | null;
    verification: { status: string } | null;
    userInput: { lastNameKana: string } | null;
  };
  assert.equal(detail.documentType, 'drivers_license');
  assert.equal(detail.liveness?.status, 'success');
  assert.equal(detail.verification?.status, 'processing');
  assert.equal(detail.userInput?.lastNameKana, 'モリタ');

  assert.deepEqual(watch.foreign, [], 'no request left the service and the tenant');
  // The only failed requests are the two the test provoked (the blurred photo, the wrong kana).
  assert.deepEqual(watch.failedResponses, [
    '422 /verify/api/documents/front',
    '400 /verify/api/personal-data',
  ]);
  assert.deepEqual(watch.unexpectedProblems(), [], 'no script error or CSP violation in the browser');
  await page.close();
}

test(
  'a person completes the hosted flow in Japanese in chromium at 360×640 (document by upload, face by camera)',
  {
    timeout: 240_000,
  },
  () => walkFlow('ja'),
);

test(
  'a person completes the hosted flow in English (language switch) in chromium at 360×640',
  {
    timeout: 240_000,
  },
  () => walkFlow('en'),
);
