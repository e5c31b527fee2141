// The same image gives the same reading whatever order the side-by-side Tesseract passes finish in
// (the fields of a front, the fields of a back, the MRZ search beside the type's reading).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createOcrCheck } from '../../../src/checks/ocr/ocr.check.ts';
import {
  createOcrEngine,
  getOcrEngineFor,
  type OcrEngine,
  type OcrLanguage,
  type RecognizeOptions,
  terminateOcrEngine,
} from '../../../src/checks/ocr/ocr-engine.ts';
import type { OcrCheckResult } from '../../../src/checks/ocr/ocr-result.ts';
import { budgeted, readingOnce, withOwnBudget } from '../../../src/checks/ocr/read-budget.ts';
import { drawCaptureParameters, type Quality } from '../../../src/synth/capture-parameters.ts';
import { createDocumentRecord, type DocumentType } from '../../../src/synth/document-record.ts';
import { REFERENCE_DATE } from '../../../src/synth/generate-corpus.ts';
import { photographDocument } from '../../../src/synth/photograph-document.ts';
import { Random } from '../../../src/synth/random.ts';
import { renderDocumentSide } from '../../../src/synth/render-document.ts';
import type { Typeface } from '../../../src/synth/text-paths.ts';
import { createWideIdentityFor } from '../../../src/synth/wide-identity.ts';
import { plainPortrait } from '../../helpers/plain-portrait.ts';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url)));
const reference = new Date('2026-04-01T00:00:00Z');

/**
 * The shared engines with every pass held back by a delay drawn from `seed`: another machine's
 * load, another order in which the passes read side by side complete.
 */
function delayedEngines(seed: number) {
  let state = seed;
  const nextDelay = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % 40;
  };
  return async (languages: readonly OcrLanguage[]): Promise<OcrEngine> => {
    const engine = await getOcrEngineFor(languages);
    return Object.assign(Object.create(engine) as OcrEngine, {
      recognize: async (image: Buffer, options?: RecognizeOptions) => {
        await new Promise((resolve) => setTimeout(resolve, nextDelay()));
        return engine.recognize(image, options);
      },
    });
  };
}

/** What a user of the result sees: status, confidence, every field and the facts checks use (not how long it took). */
function seen(r: OcrCheckResult) {
  const { timingsMs: _timings, ...extras } = r.extras as typeof r.extras & { timingsMs?: unknown };
  return { result: r.result, extras };
}

describe('the same image, read under different timings', () => {
  after(() => terminateOcrEngine());

  const cases: [string, string, string, string?][] = [
    // Poor captures, where the fields' fallbacks run out of passes.
    [
      'a poor residence card (front and back)',
      'residence_card',
      'poor-captures/expiry-misread-front.jpg',
      'poor-captures/expiry-misread-back.jpg',
    ],
    ['a poor licence', 'drivers_license', 'poor-captures/expired-read-twice-front.jpg'],
    [
      'a poor My Number card (front and back)',
      'my_number_card',
      'poor-captures/name-local-threshold-front.jpg',
      'poor-captures/name-local-threshold-back.jpg',
    ],
  ];
  for (const [label, type, front, back] of cases) {
    it(`${label} reads alike`, async () => {
      const input = {
        front: fixture(front),
        ...(back ? { back: fixture(back) } : {}),
        expectedDocumentType: type,
      };
      const runs: OcrCheckResult[] = [];
      for (const seed of [1, 7, 13]) {
        const check = createOcrCheck({ now: () => reference, engine: delayedEngines(seed) });
        runs.push(await check.run(input));
      }
      const [first, ...rest] = runs.map(seen);
      for (const other of rest) assert.deepEqual(other, first);
    });
  }
});

describe('read budgets', () => {
  const fake = (): OcrEngine & { calls: number } => {
    const engine = {
      calls: 0,
      model: 'fake',
      isHealthy: true,
      recognize: async () => {
        engine.calls++;
        return { text: '', confidence: 0, words: [], lines: [] };
      },
    };
    return engine as unknown as OcrEngine & { calls: number };
  };

  it('a pass kept from an earlier step still counts against the step that asks for it', async () => {
    const made = { passes: 0 };
    const base = fake();
    const cached = readingOnce(base, made);
    const image = Buffer.from('same crop');
    await cached.recognize(image);
    const step = budgeted(cached, { reads: 0, budget: 1 });
    assert.equal(step.spare, true);
    await step.recognize(image);
    // Read once by Tesseract, yet spent by the step: what it may still read does not depend on
    // whether another step read the crop first.
    assert.equal(base.calls, 1);
    assert.equal(made.passes, 1);
    assert.equal(step.spare, false);
  });

  it("each field's budget is its own: one field spending all of its passes leaves another's", async () => {
    const cached = { jpn: readingOnce(fake(), { passes: 0 }), eng: readingOnce(fake(), { passes: 0 }) };
    const a = withOwnBudget(cached, 2);
    const b = withOwnBudget(cached, 2);
    await a.jpn.recognize(Buffer.from('1'));
    await a.eng.recognize(Buffer.from('2'));
    assert.equal(a.jpn.spare, false);
    assert.equal(a.eng.spare, false);
    assert.equal(b.jpn.spare, true);
  });
});

/**
 * A capture of a made-up document drawn from the wide identities (src/synth), photographed as a
 * phone does. Seed 41 is a tuning seed (src/synth/seed-ranges.ts): nothing is measured on it.
 */
async function syntheticCapture(
  type: DocumentType,
  quality: Quality,
  typeface: Typeface,
  portrait: Buffer,
): Promise<{ front: Buffer; back: Buffer }> {
  const random = new Random(`41:determinism:${type}:${quality}`);
  const identity = createWideIdentityFor(random.fork('identity'), type, 'F', REFERENCE_DATE);
  const record = createDocumentRecord(random.fork('record'), type, 'F', REFERENCE_DATE, identity);
  const side = async (which: 'front' | 'back') => {
    const flat = await renderDocumentSide(record, which, portrait, { typeface });
    if (!flat) throw new Error(`no ${which} for ${type}`);
    return photographDocument(flat, drawCaptureParameters(random.fork(which), quality, 1280));
  };
  return { front: await side('front'), back: await side('back') };
}

describe('a synthetic card read alone, beside another reading, on one thread or two', () => {
  let licence: { front: Buffer; back: Buffer };
  let myNumber: { front: Buffer; back: Buffer };
  const single = new Map<string, Promise<OcrEngine>>();
  before(async () => {
    const portrait = await plainPortrait();
    licence = await syntheticCapture('drivers_license', 'poor', 'mincho', portrait);
    myNumber = await syntheticCapture('my_number_card', 'typical', 'gothic', portrait);
  });
  after(async () => {
    await Promise.allSettled([...single.values()].map(async (e) => (await e).terminate()));
    await terminateOcrEngine();
  });

  /** Engines of one worker thread each: a machine with one core for Tesseract. */
  const oneThread = (languages: readonly OcrLanguage[]) => {
    const key = languages.join('+');
    let engine = single.get(key);
    if (!engine) {
      engine = createOcrEngine({ languages, workers: 1 });
      single.set(key, engine);
    }
    return engine;
  };

  it('the licence and the My Number card each read the same every way', async () => {
    const licenceInput = { ...licence, expectedDocumentType: 'drivers_license' };
    const cardInput = { ...myNumber, expectedDocumentType: 'my_number_card' };
    const shared = createOcrCheck({ now: () => reference });
    const alone = [await shared.run(licenceInput), await shared.run(cardInput)];
    // Side by side: the two documents' passes interleave on the shared threads, finishing in
    // another order and on other threads than alone.
    const together = await Promise.all([shared.run(cardInput), shared.run(licenceInput)]);
    const threadOne = createOcrCheck({ now: () => reference, engine: oneThread });
    const onOne = [await threadOne.run(licenceInput), await threadOne.run(cardInput)];
    const delayed = createOcrCheck({ now: () => reference, engine: delayedEngines(5) });
    const held = await Promise.all([delayed.run(licenceInput), delayed.run(cardInput)]);
    for (const [i, label] of ['licence', 'My Number card'].entries()) {
      const first = seen(alone[i] as OcrCheckResult);
      assert.deepEqual(seen(together[1 - i] as OcrCheckResult), first, `${label}: beside another reading`);
      assert.deepEqual(seen(onOne[i] as OcrCheckResult), first, `${label}: on one thread`);
      assert.deepEqual(seen(held[i] as OcrCheckResult), first, `${label}: passes held back`);
    }
    // Not vacuous: the readings said something (a field read on each card).
    assert.ok(Object.values(alone[1]?.result.payload ?? {}).some((v) => v));
  });
});
