// The same image gives the same reading whatever order the side-by-side Tesseract passes finish in
// (the fields of a front, the fields of a back, the MRZ search beside the type's reading).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createOcrCheck } from '../../../src/checks/ocr/ocr.check.ts';
import {
  getOcrEngineFor,
  type OcrEngine,
  type OcrLanguage,
  type RecognizeOptions,
  terminateOcrEngine,
} from '../../../src/checks/ocr/ocr-engine.ts';
import type { OcrCheckResult } from '../../../src/checks/ocr/ocr-result.ts';
import { budgeted, readingOnce, withOwnBudget } from '../../../src/checks/ocr/read-budget.ts';

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
