// The hosted flow as real people meet it, in Debian chromium at 390×844: a browser in English gets
// English without touching the switch, every page names the tenant in its colour, a selfie sent as
// the licence front is refused with a message saying so (Retake primary), the personal-data form
// arrives prefilled from the document, the review shows the photos, and a used link's page is
// styled and says what to do. Screenshots of each step in both languages: artifacts/e2e/people-*.
// The live face check is recorded as passed in the database (the walk in hosted-flow.e2e.test.ts
// runs it with the fake camera): this file is about what surrounds it.
// Run: npm run build:web && node --import tsx --test test/e2e/hosted-flow-people.e2e.test.ts
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
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
const SELFIE = 'test/fixtures/selfie-as-front/selfie.jpg';
const TENANT_NAME = 'みらい銀行';
const ACCENT = '#8a1538';
const MESSAGES = { ja, en };
type Language = keyof typeof MESSAGES;

let service: FlowService;
let browser: Browser;

before(async () => {
  clearArtifacts(/^people-/);
  buildWebApp('web/vite.config.ts');
  service = await startFlowService({ displayName: TENANT_NAME, accentColor: ACCENT });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  });
});

after(async () => {
  await browser?.close();
  await service?.close();
});

async function shot(page: Page, language: Language, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `people-${language}-${name}.png`), fullPage: true });
}

/** A browser whose languages are `locale` opens the tenant's link and walks to the review. */
async function walk(language: Language, locale: string) {
  const m = MESSAGES[language];
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  const { sessionId, verificationUrl } = await service.newSession();
  await page.goto(verificationUrl);

  // The browser's language, with no switch used; the tenant named in the header, in its colour.
  await page.getByRole('heading', { name: m['consent.title'] }).waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), language);
  await page.locator('.tenant-name', { hasText: TENANT_NAME }).waitFor();
  const accent = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
  );
  assert.equal(accent, ACCENT);
  // The new step's heading has the focus (a screen reader announces it).
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  await shot(page, language, '01-consent');
  await page.getByRole('checkbox', { name: m['consent.checkbox'] }).check();
  await page.getByRole('button', { name: m['consent.submit'] }).click();

  await page.getByRole('heading', { name: m['docType.title'] }).waitFor();
  await page.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await shot(page, language, '02-document-type');
  await page.getByRole('button', { name: m['docType.submit'] }).click();

  // A selfie as the licence front: the server says what it saw; Retake is the primary action.
  await page.getByRole('heading', { name: m['capture.title.front'] }).waitFor();
  await page.setInputFiles('#file-front', SELFIE);
  await page
    .getByRole('button', { name: m['capture.use'], exact: true })
    .or(page.getByRole('button', { name: m['capture.useAnyway'] }))
    .first()
    .click();
  const refusal = m['capture.refused.DocumentIsSelfie'].replaceAll('{wanted}', m['docType.drivers_license']);
  await page.getByRole('alert').filter({ hasText: refusal }).waitFor({ timeout: 120_000 });
  const primary = page.locator('.actions .primary');
  assert.equal(await primary.textContent(), m['capture.retake']);
  assert.equal(await page.getByRole('button', { name: m['capture.useAnyway'] }).count(), 0);
  await shot(page, language, '03-front-selfie-refused');
  await primary.click();

  await page.setInputFiles('#file-front', path.join(CORPUS, 'front.jpg'));
  await page.getByText(m['capture.sendToCheck']).waitFor();
  await shot(page, language, '04-front-accepted');
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await page.getByRole('heading', { name: m['capture.title.back'] }).waitFor({ timeout: 120_000 });
  await page.setInputFiles('#file-back', path.join(CORPUS, 'back.jpg'));
  await page.getByText(m['capture.sendToCheck']).waitFor();
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await page.getByRole('heading', { name: m['face.title'] }).waitFor({ timeout: 120_000 });
  await shot(page, language, '05-face-intro');

  // After the face check (recorded as passed), the form arrives prefilled from the document.
  await passLiveness(service.platform, sessionId);
  await page.reload();
  await page.getByRole('heading', { name: m['personal.title'] }).waitFor();
  await page.locator('#prefill-notice').waitFor();
  assert.equal(await page.getByLabel(m['personal.lastName'], { exact: true }).inputValue(), '藤原');
  assert.equal(await page.getByLabel(m['personal.firstName'], { exact: true }).inputValue(), '美咲');
  assert.equal(await page.getByLabel(m['personal.birthDate']).inputValue(), '1983-09-08');
  assert.equal(await page.getByLabel(m['personal.address']).inputValue(), '北海道旭川市三条通5丁目21番1号');
  // Kana is never invented.
  assert.equal(await page.getByLabel(m['personal.lastNameKana']).inputValue(), '');
  assert.equal(await page.getByLabel(m['personal.firstNameKana']).inputValue(), '');
  await shot(page, language, '06-personal-data-prefilled');
  // The user's correction is what is saved.
  await page.getByLabel(m['personal.address']).fill('北海道旭川市三条通5丁目21番2号');
  await page.getByLabel(m['personal.lastNameKana']).fill('ふじわら');
  await page.getByLabel(m['personal.firstNameKana']).fill('みさき');
  await page.getByRole('button', { name: m['personal.submit'] }).click();

  await page.getByRole('heading', { name: m['review.title'] }).waitFor();
  await page.getByText('北海道旭川市三条通5丁目21番2号').waitFor();
  const thumbs = page.locator('img.thumb');
  assert.equal(await thumbs.count(), 2);
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('img.thumb')).every(
      (i) => i.complete && i.naturalWidth > 0,
    ),
  );
  await shot(page, language, '07-review-thumbnails');

  // The used link again: a styled page in the user's language naming the tenant and the way on.
  const expired = await context.newPage();
  const response = await expired.goto(verificationUrl);
  assert.equal(response?.status(), 410);
  assert.equal(await expired.getAttribute('html', 'lang'), language);
  await expired.getByText(TENANT_NAME).first().waitFor();
  const border = await expired.locator('.top').evaluate((e) => getComputedStyle(e).borderBottomColor);
  assert.equal(border, 'rgb(138, 21, 56)');
  await shot(expired, language, '08-link-expired');

  assert.deepEqual(watch.foreign, []);
  assert.deepEqual(watch.failedResponses, ['422 /verify/api/documents/front']);
  assert.deepEqual(watch.unexpectedProblems(), []);
  await context.close();
}

test(
  'an en-US browser gets the flow in English, the tenant named, a selfie refused, the form prefilled',
  {
    timeout: 600_000,
  },
  () => walk('en', 'en-US'),
);

test('a ja-JP browser gets the same in Japanese', { timeout: 600_000 }, () => walk('ja', 'ja-JP'));

/** A desktop without a usable camera hands the flow to a phone by QR code; both end at the callback. */
async function handOff(language: Language, locale: string) {
  const m = MESSAGES[language];
  const desktopContext = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const desktop = await desktopContext.newPage();
  const { sessionId, verificationUrl } = await service.newSession();
  await desktop.goto(verificationUrl);
  await desktop.getByRole('checkbox', { name: m['consent.checkbox'] }).check();
  await desktop.getByRole('button', { name: m['consent.submit'] }).click();
  await desktop.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await desktop.getByRole('button', { name: m['docType.submit'] }).click();
  await desktop.getByRole('heading', { name: m['capture.title.front'] }).waitFor();
  await desktop.getByRole('button', { name: m['handoff.open'] }).click();
  await desktop.getByRole('heading', { name: m['handoff.title'] }).waitFor();
  await desktop.getByRole('img', { name: m['handoff.qrLabel'] }).waitFor();
  await desktop.waitForFunction(() => {
    const qr = document.querySelector<HTMLImageElement>('img.qr');
    return qr?.complete && qr.naturalWidth > 0;
  });
  await shot(desktop, language, '10-handoff-qr');
  const link = await desktop.locator('.handoff-link a').getAttribute('href');
  assert.ok(link);

  // The phone: another browser, opening the link the QR code holds.
  const phoneContext = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  const phoneWatch = watchPage(phone);
  await phone.goto(link);
  assert.match(phone.url(), /\/verify\/flow$/);
  await phone.getByRole('heading', { name: m['capture.title.front'] }).waitFor();
  await phone.locator('.tenant-name', { hasText: TENANT_NAME }).waitFor();
  await shot(phone, language, '11-handoff-phone-front');
  await desktop.getByText(m['handoff.continued']).waitFor({ timeout: 30_000 });
  await shot(desktop, language, '12-handoff-desktop-following');

  await phone.setInputFiles('#file-front', path.join(CORPUS, 'front.jpg'));
  await phone.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await phone.getByRole('heading', { name: m['capture.title.back'] }).waitFor({ timeout: 120_000 });
  await phone.setInputFiles('#file-back', path.join(CORPUS, 'back.jpg'));
  await phone.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await phone.getByRole('heading', { name: m['face.title'] }).waitFor({ timeout: 120_000 });
  await passLiveness(service.platform, sessionId);
  await phone.reload();
  await phone.getByRole('heading', { name: m['personal.title'] }).waitFor();
  await phone.getByLabel(m['personal.lastNameKana']).fill('ふじわら');
  await phone.getByLabel(m['personal.firstNameKana']).fill('みさき');
  await phone.getByRole('button', { name: m['personal.submit'] }).click();
  await phone.getByRole('button', { name: m['review.submit'] }).click();
  await phone.waitForURL((url) => url.href.startsWith(service.callbackBase), { timeout: 30_000 });

  // The desktop follows to the same callback.
  await desktop.waitForURL((url) => url.href.startsWith(service.callbackBase), { timeout: 30_000 });
  assert.equal(new URL(desktop.url()).searchParams.get('sessionId'), sessionId);
  await shot(desktop, language, '13-handoff-desktop-callback');

  // The used code again: the page says how to get a new one.
  const reused = await phoneContext.newPage();
  assert.equal((await reused.goto(link))?.status(), 410);
  await reused
    .getByRole('heading', {
      name: language === 'ja' ? 'このQRコードは使えません' : 'This QR code cannot be used',
    })
    .waitFor();
  await shot(reused, language, '14-handoff-code-used');
  assert.deepEqual(phoneWatch.unexpectedProblems(), []);
  await desktopContext.close();
  await phoneContext.close();
}

test(
  'hand-off: a QR code continues the session on a second browser, both end at the callback (en)',
  {
    timeout: 600_000,
  },
  () => handOff('en', 'en-US'),
);

test('hand-off in Japanese', { timeout: 600_000 }, () => handOff('ja', 'ja-JP'));
