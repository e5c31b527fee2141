// The capture and the steps as a person on a phone meets them, in Debian chromium at 390×844 with
// a phone's user agent, in English and Japanese: no "Continue on a phone" on a phone; each step a
// history entry (Back, Forward, reload stay in the flow); the browser's own pre-check never says
// the photo is readable (only the server can); a phone's full-resolution photo (8000×6000, over
// 10 MB, EXIF-rotated) is scaled down in the browser and stored the right way up; the form
// suggests the katakana of a Latin-letter name and says why kana is asked; leaving asks first.
// Screenshots: artifacts/e2e/capture-*.
// Run: npm run build:web && node --import tsx --test test/e2e/hosted-flow-capture-history.e2e.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { MAX_IMAGE_BYTES } from '../../src/hosted-flow/upload-limits.ts';
import en from '../../web/verify/messages/en.json' with { type: 'json' };
import ja from '../../web/verify/messages/ja.json' with { type: 'json' };
import {
  ARTIFACTS,
  buildWebApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  clearArtifacts,
  type FlowService,
  passLiveness,
  startFlowService,
  watchPage,
} from '../helpers/e2e-browser.ts';

const CORPUS = 'test/fixtures/corpus/drivers_license-genuine-0';
const MESSAGES = { ja, en };
type Language = keyof typeof MESSAGES;
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let service: FlowService;
let browser: Browser;
let bigPhoto: string;

/** The licence front as a phone's 8000×6000 photo: stored sideways with EXIF orientation 6, over 10 MB. */
async function phonePhoto(): Promise<string> {
  const width = 8000;
  const height = 6000;
  const upright = await sharp(readFileSync(`${CORPUS}/front.jpg`))
    .resize(width, height)
    .raw()
    .toBuffer();
  // Sensor noise, as a phone's full-resolution photo has (it is what makes the file large).
  let seed = 7;
  for (let i = 0; i < upright.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    upright[i] = Math.max(0, Math.min(255, (upright[i] as number) + ((seed >> 16) % 17) - 8));
  }
  const jpeg = await sharp(upright, { raw: { width, height, channels: 3 } })
    .rotate(-90)
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 97 })
    .toBuffer();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mimoto-e2e-phone-')), 'IMG_0001.jpg');
  writeFileSync(file, jpeg);
  return file;
}

before(async () => {
  clearArtifacts(/^capture-/);
  buildWebApp('web/vite.config.ts');
  bigPhoto = await phonePhoto();
  service = await startFlowService();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await service?.close();
});

async function shot(page: Page, language: Language, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `capture-${language}-${name}.png`), fullPage: true });
}

async function walk(language: Language) {
  const m = MESSAGES[language];
  // Closing the last page with its beforeunload prompt (below) can take chromium down with it:
  // each walk gets a browser that is still running.
  if (!browser.isConnected())
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    locale: language === 'ja' ? 'ja-JP' : 'en-GB',
    viewport: { width: 390, height: 844 },
    userAgent: PHONE_UA,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  const { sessionId, verificationUrl } = await service.newSession();
  await page.goto(verificationUrl);
  const heading = (name: string) => page.getByRole('heading', { name }).waitFor({ timeout: 120_000 });

  await heading(m['consent.title']);
  await page.getByRole('checkbox', { name: m['consent.checkbox'] }).check();
  await page.getByRole('button', { name: m['consent.submit'] }).click();
  await heading(m['docType.title']);
  await page.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await page.getByRole('button', { name: m['docType.submit'] }).click();
  await heading(m['capture.title.front']);

  // On a phone, no hand-off to a phone.
  assert.equal(await page.getByRole('button', { name: m['handoff.open'] }).count(), 0);
  await shot(page, language, '01-front');

  // Back goes to the step before, Forward returns, a reload stays.
  await page.goBack();
  await heading(m['docType.title']);
  await page.goForward();
  await heading(m['capture.title.front']);
  await page.reload();
  await heading(m['capture.title.front']);

  // A phone's full-resolution photo: scaled down before it is sent, never "readable" before the server says so.
  assert.ok(readFileSync(bigPhoto).length > MAX_IMAGE_BYTES);
  await page.setInputFiles('#file-front', bigPhoto);
  await page.getByText(m['capture.sendToCheck']).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('.preview .ok').count(), 0);
  await shot(page, language, '02-front-before-server');
  const answered = page.waitForResponse((r) => r.url().endsWith('/verify/api/documents/front'), {
    timeout: 180_000,
  });
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  // A photo over 10 MB sent as it is would be answered 413: taken, it was scaled down.
  const response = await answered;
  assert.equal(response.status(), 201, await response.text());
  // Stored the right way up: landscape, as the card lies, at the stored size.
  const stored = (await response.json()) as { side: string; width: number; height: number };
  assert.deepEqual(stored, { side: 'front', width: 3000, height: 2250 });

  await passLiveness(service.platform, sessionId);
  await heading(m['capture.title.back']);
  await page.setInputFiles('#file-back', `${CORPUS}/back.jpg`);
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await heading(m['personal.title']);

  // A Latin-letter name: its katakana suggested, taken with one tap, and why kana is asked.
  await page.locator('#field-lastName').fill('NGUYEN');
  await page.locator('#field-firstName').fill('VAN AN');
  await page.locator('#kana-why').filter({ hasText: m['personal.kanaWhy'] }).waitFor();
  await page.getByRole('button', { name: m['personal.kanaUse'].replace('{kana}', 'ングイェン') }).click();
  await page.getByRole('button', { name: m['personal.kanaUse'].replace('{kana}', 'ヴァン・アン') }).waitFor();
  await shot(page, language, '03-personal-kana-suggested');
  await page.getByRole('button', { name: m['personal.kanaUse'].replace('{kana}', 'ヴァン・アン') }).click();
  assert.equal(await page.locator('#field-lastNameKana').inputValue(), 'ングイェン');
  assert.equal(await page.locator('#field-firstNameKana').inputValue(), 'ヴァン・アン');
  // The suggestion is theirs to correct.
  await page.locator('#field-firstNameKana').fill('バン・アン');
  await page.locator('#field-birthDate').fill('1990-04-01');
  await page.locator('#field-address').fill('東京都新宿区西新宿2丁目8番1号');
  await page.getByRole('button', { name: m['personal.submit'] }).click();
  await heading(m['review.title']);

  // Back from the review: the form, as saved; Forward: the review again.
  await page.goBack();
  await heading(m['personal.title']);
  assert.equal(await page.locator('#field-lastNameKana').inputValue(), 'ングイェン');
  await page.goForward();
  await heading(m['review.title']);
  await page.reload();
  await heading(m['review.title']);
  await shot(page, language, '04-review-after-reload');

  // Leaving asks first.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', async (dialog) => {
      resolve(dialog.type());
      await dialog.dismiss();
    }),
  );
  await page.locator('h1').click();
  await page.close({ runBeforeUnload: true });
  assert.equal(await asked, 'beforeunload');
  assert.deepEqual(watch.unexpectedProblems(), []);
  // Cleanup only: the page is closed already (after the prompt), which can close the context too.
  await context.close().catch(() => {});
}

test('on a phone, in English: capture, history, kana suggestion, leave prompt', { timeout: 600_000 }, () =>
  walk('en'),
);
test('on a phone, in Japanese: capture, history, kana suggestion, leave prompt', { timeout: 600_000 }, () =>
  walk('ja'),
);
