// The right document at capture: a selfie, another type than the one chosen, the front sent as
// the back, a photo of no document, or a front the OCR cannot read surely (or in time) is refused
// with a message naming what was seen or what to fix, and nothing is stored; an accepted front's
// confident OCR reading becomes the form's suggestion (and unsure fields stay empty).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { OcrCheckResult } from '../../src/checks/ocr/index.ts';
import { decodeUploadImage } from '../../src/hosted-flow/decode-upload-image.ts';
import {
  identifyDocumentCapture,
  judgeCapture,
  outlineTilt,
  readingOf,
} from '../../src/hosted-flow/identify-document-capture.ts';
import { closeInferencePool } from '../../src/inference/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const CORPUS = 'test/fixtures/corpus';
const licenceFront = readFileSync(`${CORPUS}/drivers_license-genuine-0/front.jpg`);
const passportFront = readFileSync(`${CORPUS}/passport-genuine-0/front.jpg`);
const selfie = readFileSync('test/fixtures/selfie-as-front/selfie.jpg');

/** An OCR result as the check reports it, with the fields and type given. */
function ocr(
  detected: string | undefined,
  fields: Record<string, { value?: string; confidence: number }> = {},
  extra: Partial<OcrCheckResult['result']> = {},
): OcrCheckResult {
  return {
    result: {
      success: true,
      confidence: 0.9,
      status: 'success',
      reason: 'ok',
      provider: 'mimoto',
      model: 'test',
      payload: { lastName: '藤原', firstName: '美咲', birthDate: '1983-09-08', address: '北海道旭川市' },
      ...(detected ? { detectedDocumentType: detected, detectedDocumentTypeConfidence: 0.9 } : {}),
      ...extra,
    } as OcrCheckResult['result'],
    extras: { documentTypeMismatch: false, fields: fields as never, timingsMs: {} },
  };
}

describe('judging a capture (no models)', () => {
  const front = { side: 'front' as const, chosen: 'drivers_license', faceShare: 0.03 };

  test('a large face and no document read is a selfie', () => {
    assert.deepEqual(judgeCapture({ ...front, faceShare: 0.3, ocr: ocr(undefined) }), {
      refusal: 'DocumentIsSelfie',
      seen: null,
    });
  });

  test('another type read surely is refused and named', () => {
    assert.deepEqual(judgeCapture({ ...front, ocr: ocr('passport') }), {
      refusal: 'DocumentTypeMismatch',
      seen: 'passport',
    });
  });

  test('a front read on the back photo is refused as the wrong side', () => {
    const verdict = judgeCapture({ ...front, side: 'back', ocr: ocr('drivers_license') });
    assert.deepEqual(verdict, { refusal: 'DocumentSideMismatch', seen: 'drivers_license' });
    // An issuer-layout licence's title reads unsure on a small capture; its fields read in full
    // still say it is a front. An unsure type with nothing read is taken (the pipeline judges it).
    const unsure = { detectedDocumentTypeConfidence: 0.47 };
    const readInFull = judgeCapture({ ...front, side: 'back', ocr: ocr('drivers_license', {}, unsure) });
    assert.equal(readInFull.refusal, 'DocumentSideMismatch');
    const notRead = judgeCapture({
      ...front,
      side: 'back',
      faceShare: 0,
      ocr: ocr('drivers_license', {}, { ...unsure, success: false, status: 'low_confidence' }),
    });
    assert.deepEqual(notRead, { refusal: null, reading: null });
  });

  test('a printed portrait on the back photo is the front sent again, without reading it', () => {
    // The upload route no longer reads a back with the OCR check: its face decides.
    const back = { side: 'back' as const, chosen: 'drivers_license', ocr: null };
    assert.deepEqual(judgeCapture({ ...back, faceShare: 0.04 }), {
      refusal: 'DocumentSideMismatch',
      seen: null,
    });
    assert.deepEqual(judgeCapture({ ...back, faceShare: 0 }), { refusal: null, reading: null });
    assert.equal(judgeCapture({ ...back, faceShare: 0.3 }).refusal, 'DocumentIsSelfie');
  });

  test('no supported document found is refused', () => {
    const verdict = judgeCapture({
      ...front,
      ocr: ocr(undefined, {}, { unsupportedDocumentType: 'unknown' }),
    });
    assert.equal(verdict.refusal, 'DocumentNotRecognised');
  });

  test('a front whose type was not read on it is refused, whatever was chosen', () => {
    // The OCR reads such a capture as the type chosen, without naming a detected type.
    assert.deepEqual(judgeCapture({ ...front, ocr: ocr(undefined) }), {
      refusal: 'DocumentUnreadable',
      seen: null,
    });
    // A reading that failed or ran out of time is no acceptance either.
    assert.equal(judgeCapture({ ...front, ocr: null }).refusal, 'DocumentUnreadable');
  });

  test('the type read but its key fields unsure is refused: the pipeline could not decide on it', () => {
    const unsure = ocr('drivers_license', {}, { success: false, status: 'low_confidence', confidence: 0.6 });
    assert.equal(judgeCapture({ ...front, ocr: unsure }).refusal, 'DocumentUnreadable');
    assert.equal(judgeCapture({ ...front, ocr: ocr('drivers_license') }).refusal, null);
  });

  test('the refusal says what to fix: glare, tilt, distance, blur, or no document at all', () => {
    const square: [number, number][] = [
      [100, 100],
      [500, 100],
      [500, 350],
      [100, 350],
    ];
    const turned: [number, number][] = [
      [100, 140],
      [500, 100],
      [525, 350],
      [125, 390],
    ];
    const unread = ocr(undefined, {}, { success: false, status: 'low_confidence', confidence: 0 });
    const quality = { sharpness: 200, glare: 0, edgeDensity: 0.1, contrast: 40 };
    const seen = (outline: [number, number][], coverage: number, confidentWords = 20) => ({
      outline: { corners: outline, coverage, width: 640, height: 480 },
      confidentWords,
    });
    const fix = (facts: Partial<Parameters<typeof judgeCapture>[0]>) =>
      judgeCapture({ ...front, ocr: unread, quality, ...facts }).refusal;
    assert.equal(fix({ quality: { ...quality, glare: 0.02 }, sight: seen(square, 0.5) }), 'ImageGlare');
    assert.equal(fix({ sight: seen(turned, 0.5) }), 'DocumentTilted');
    assert.equal(fix({ sight: seen(square, 0.1) }), 'DocumentTooFar');
    assert.equal(fix({ quality: { ...quality, sharpness: 30 }, sight: seen(square, 0.5) }), 'ImageBlurred');
    assert.equal(fix({ sight: seen(square, 0.5) }), 'DocumentUnreadable');
    // Next to no word read surely, in any pass: people, a room — no document.
    assert.equal(fix({ sight: seen(square, 0.5, 3) }), 'DocumentNotRecognised');
    // A reading cut short that found a card's outline: the card, unread.
    assert.equal(fix({ ocr: null, sight: seen(square, 0.5, 3) }), 'DocumentUnreadable');
    // An outline reaching out of the photo is no card seen: nothing to say about its tilt.
    const outside: [number, number][] = [
      [598, -293],
      [650, 563],
      [95, 677],
      [74, -186],
    ];
    assert.equal(fix({ ocr: null, sight: seen(outside, 0.19, 3) }), 'DocumentNotRecognised');
    assert.ok(outlineTilt(square) < 0.01);
    assert.ok(Math.abs(outlineTilt(turned) - 5.7) < 0.1);
  });

  test('a back whose face search did not finish in time is not taken', () => {
    const back = { side: 'back' as const, chosen: 'drivers_license', ocr: null };
    assert.equal(judgeCapture({ ...back, faceShare: null }).refusal, 'DocumentUnreadable');
  });

  test('the reading keeps only the fields read with confidence', () => {
    const reading = readingOf(
      ocr('drivers_license', {
        name: { value: '藤原 美咲', confidence: 0.88 },
        birthDate: { value: '1983-09-08', confidence: 0.5 },
        address: { value: '北海道旭川市', confidence: 0.87 },
      }),
      'drivers_license',
    );
    assert.deepEqual(reading, { lastName: '藤原', firstName: '美咲', address: '北海道旭川市' });
  });
});

describe('uploads judged at capture (OCR check and face detector)', () => {
  const t = useTestApi({ env: dataDirEnv() });
  after(() => closeInferencePool());
  const ready = async (documentType = 'drivers_license') => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    await a.send('PUT', '/verify/api/document-type', { documentType });
    return a;
  };
  const documents = async (a: { sessionId: string }) =>
    (await t.api.getSession(a.sessionId)).json().documents;

  test('a selfie uploaded as the front → 422 DocumentIsSelfie in the user language, nothing stored', async () => {
    const a = await ready();
    const res = await a.upload(
      '/verify/api/documents/front',
      [{ field: 'image', bytes: selfie }],
      {},
      {
        'accept-language': 'en',
      },
    );
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'DocumentIsSelfie');
    assert.match(res.json().message, /shows a face, not an identity document/);
    assert.equal((await documents(a))?.frontUploaded, false);
  });

  test('a passport uploaded as a driving licence → 422 naming both types', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: passportFront }]);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'DocumentTypeMismatch');
    assert.deepEqual(res.json().details, [
      { path: '/documentType', message: 'drivers_license' },
      { path: '/seen', message: 'passport' },
    ]);
    assert.equal((await documents(a))?.frontUploaded, false);
  });

  test('the front uploaded as the back → 422 DocumentSideMismatch', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/back', [{ field: 'image', bytes: licenceFront }]);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'DocumentSideMismatch');
    assert.equal((await documents(a))?.backUploaded, false);
  });

  test('a group photo uploaded as a licence front → 422 DocumentNotRecognised, nothing stored', async () => {
    // A photo of people in an installed package (no document anywhere in it).
    const group = readFileSync('node_modules/@vladmandic/face-api/demo/sample1.jpg');
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: group }]);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'DocumentNotRecognised');
    assert.equal((await documents(a))?.frontUploaded, false);
  });

  test('a reading that runs out of time is refused', async () => {
    // The licence front that is accepted below, given no time to be read.
    const image = await decodeUploadImage(licenceFront);
    const verdict = await identifyDocumentCapture(image, 'front', 'drivers_license', { budgetMs: 1 });
    assert.notEqual(verdict.refusal, null);
  });

  test('the right front is stored and its confident reading is offered for the form', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: licenceFront }]);
    assert.equal(res.statusCode, 201, res.body);
    const state = (await a.state()).json();
    assert.deepEqual(state.documentReading, {
      lastName: '藤原',
      firstName: '美咲',
      birthDate: '1983-09-08',
      address: '北海道旭川市三条通5丁目21番1号',
    });
    // Kana is never read, so never offered.
    assert.equal(state.documentReading.lastNameKana, undefined);
  });
});
