// The thickness capture (厚み) in Debian chromium at 390×844, for a tenant that turned it on: after
// the licence's sides the flow asks for the card held tilted, with the instructions; the front
// photographed again is refused with a message saying to tilt it (Retake primary, no "send
// anyway"); the tilted card is taken, and the review shows its thumbnail beside the sides'.
// Screenshots in both languages: artifacts/e2e/thickness-*. The photos are synthetic
// (test/fixtures/thickness); the live face check is recorded as passed in the database (its own
// browser walk is in hosted-flow.e2e.test.ts).
// Run: npm run build:web && node --import tsx --test test/e2e/hosted-flow-thickness.e2e.test.ts
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

const PHOTOS = 'test/fixtures/thickness';
const MESSAGES = { ja, en };
type Language = keyof typeof MESSAGES;

let service: FlowService;
let browser: Browser;

before(async () => {
  clearArtifacts(/^thickness-/);
  buildWebApp('web/vite.config.ts');
  // A business under the image method (ホ): the tenant turned the thickness capture on.
  service = await startFlowService({ displayName: 'みらい銀行', thicknessCapture: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await service?.close();
});

async function shot(page: Page, language: Language, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `thickness-${language}-${name}.png`), fullPage: true });
}

async function walk(language: Language, locale: string) {
  const m = MESSAGES[language];
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  const { sessionId, verificationUrl } = await service.newSession();
  await page.goto(verificationUrl);
  await page.getByRole('checkbox', { name: m['consent.checkbox'] }).check();
  await page.getByRole('button', { name: m['consent.submit'] }).click();
  await page.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await page.getByRole('button', { name: m['docType.submit'] }).click();

  await page.getByRole('heading', { name: m['capture.title.front'] }).waitFor();
  // The step count includes the tilted photo: consent, type, front, back, tilted, face, data, review.
  await page.getByText(m['app.progress'].replace('{current}', '3').replace('{total}', '8')).waitFor();
  await page.setInputFiles('#file-front', path.join(PHOTOS, 'front.jpg'));
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await page.getByRole('heading', { name: m['capture.title.back'] }).waitFor({ timeout: 120_000 });
  await page.setInputFiles('#file-back', path.join(PHOTOS, 'back.jpg'));
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();

  // The tilted photo: its instructions, in the user's language.
  await page.getByRole('heading', { name: m['capture.title.tilted'] }).waitFor({ timeout: 120_000 });
  await page.getByText(m['capture.tilted.step2']).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  await shot(page, language, '01-tilted-instructions');

  // The front sent again, flat: refused, saying to tilt it; Retake is the primary action.
  await page.setInputFiles('#file-tilted', path.join(PHOTOS, 'front.jpg'));
  await page
    .getByRole('button', { name: m['capture.use'], exact: true })
    .or(page.getByRole('button', { name: m['capture.useAnyway'] }))
    .first()
    .click();
  await page
    .getByRole('alert')
    .filter({ hasText: m['capture.refused.TiltedCardNotTilted'] })
    .waitFor({ timeout: 60_000 });
  const primary = page.locator('.actions .primary');
  assert.equal(await primary.textContent(), m['capture.retake']);
  assert.equal(await page.getByRole('button', { name: m['capture.useAnyway'] }).count(), 0);
  await shot(page, language, '02-tilted-flat-refused');
  await primary.click();

  await page.setInputFiles('#file-tilted', path.join(PHOTOS, 'tilted-card.jpg'));
  await page.getByText(m['capture.sendToCheck']).waitFor();
  await shot(page, language, '03-tilted-card');
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await page.getByRole('heading', { name: m['face.title'] }).waitFor({ timeout: 60_000 });

  await passLiveness(service.platform, sessionId);
  await page.reload();
  await page.getByRole('heading', { name: m['personal.title'] }).waitFor();
  for (const [label, value] of [
    ['personal.lastName', '佐藤'],
    ['personal.firstName', '花子'],
    ['personal.lastNameKana', 'さとう'],
    ['personal.firstNameKana', 'はなこ'],
    ['personal.birthDate', '1970-03-31'],
    ['personal.address', '北海道札幌市中央区北一条西2丁目17番3号'],
  ] as const) {
    const field = page.getByLabel(m[label], { exact: true });
    if (!(await field.inputValue())) await field.fill(value);
  }
  await page.getByRole('button', { name: m['personal.submit'] }).click();

  // The review shows the three photos; the tilted one is labelled as such.
  await page.getByRole('heading', { name: m['review.title'] }).waitFor();
  await page
    .getByRole('img', { name: m['review.thumbnail'].replace('{side}', m['review.tilted']) })
    .waitFor();
  assert.equal(await page.locator('img.thumb').count(), 3);
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('img.thumb')).every(
      (i) => i.complete && i.naturalWidth > 0,
    ),
  );
  await shot(page, language, '04-review');
  await page.getByRole('button', { name: m['review.submit'] }).click();
  await page.waitForURL((url) => url.href.startsWith(service.callbackBase), { timeout: 30_000 });

  assert.deepEqual(watch.foreign, []);
  assert.deepEqual(watch.failedResponses, ['422 /verify/api/documents/tilted']);
  assert.deepEqual(watch.unexpectedProblems(), []);
  await context.close();
}

test(
  'thickness capture (en): instructions, a flat photo refused, the tilted card taken and reviewed',
  {
    timeout: 600_000,
  },
  () => walk('en', 'en-US'),
);

test('thickness capture in Japanese', { timeout: 600_000 }, () => walk('ja', 'ja-JP'));

/**
 * The capture step's face pre-check in the browser (web/verify/capture/face-in-photo.ts): the
 * corpus's backs raise nothing (the detector finds no portrait on them), and the front sent as the
 * back is told — by the browser when its detector is ready in time, else by the server.
 */
test('backs pass the browser face pre-check; the front as the back is told', {
  timeout: 600_000,
}, async () => {
  const m = MESSAGES.en;
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const { verificationUrl } = await service.newSession();
  await page.goto(verificationUrl);
  await page.getByRole('checkbox', { name: m['consent.checkbox'] }).check();
  await page.getByRole('button', { name: m['consent.submit'] }).click();
  await page.getByRole('radio', { name: m['docType.drivers_license'] }).check();
  await page.getByRole('button', { name: m['docType.submit'] }).click();
  await page.setInputFiles('#file-front', path.join(PHOTOS, 'front.jpg'));
  await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
  await page.getByRole('heading', { name: m['capture.title.back'] }).waitFor({ timeout: 120_000 });
  // Give the detector its chance to load, so the pre-check runs rather than times out.
  await page.waitForTimeout(5000);
  for (const type of ['drivers_license', 'my_number_card', 'residence_card']) {
    await page.setInputFiles('#file-back', `test/fixtures/corpus/${type}-genuine-0/back.jpg`);
    await page.getByText(m['capture.sendToCheck']).waitFor();
    await page.getByRole('button', { name: m['capture.retake'] }).click();
  }
  await page.setInputFiles('#file-back', path.join(PHOTOS, 'front.jpg'));
  const browserSays = page.getByText(m['quality.frontAsBack']);
  const sendToCheck = page.getByText(m['capture.sendToCheck']);
  await browserSays.or(sendToCheck).waitFor();
  if (await sendToCheck.isVisible()) {
    await page.getByRole('button', { name: m['capture.use'], exact: true }).click();
    const serverSays = m['capture.refused.DocumentSideMismatch'].replaceAll(
      '{wanted}',
      m['docType.drivers_license'],
    );
    await page.getByRole('alert').filter({ hasText: serverSays }).waitFor({ timeout: 60_000 });
  } else {
    assert.equal(await page.locator('.actions .primary').textContent(), m['capture.retake']);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, 'thickness-en-05-front-as-back.png'), fullPage: true });
  await context.close();
});
