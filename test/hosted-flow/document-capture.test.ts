// The right document at capture: a selfie, another type than the one chosen, or the front sent as
// the back is refused with a message naming what was seen, and nothing is stored; an accepted
// front's confident OCR reading becomes the form's suggestion (and unsure fields stay empty).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { OcrCheckResult } from '../../src/checks/ocr/index.ts';
import { judgeCapture, readingOf } from '../../src/hosted-flow/identify-document-capture.ts';
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

  test('a poor capture whose type cannot be read is taken (the pipeline judges it)', () => {
    assert.deepEqual(judgeCapture({ ...front, ocr: ocr(undefined) }), { refusal: null, reading: null });
    assert.deepEqual(judgeCapture({ ...front, ocr: null }), { refusal: null, reading: null });
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
