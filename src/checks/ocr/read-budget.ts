// The read budget of one document: each Tesseract pass counted, the same pass made once.
import { createHash } from 'node:crypto';
import type { OcrEngine, OcrRecognition } from './ocr-engine.ts';

/** An engine of one step of a document's reading: `spare` while that step's read budget lasts. */
export type BudgetedEngine = OcrEngine & { readonly spare: boolean };
export type Engines = { jpn: BudgetedEngine; eng: BudgetedEngine };
export type Tally = { reads: number; budget: number };

/**
 * Tesseract passes the document's sequential steps may spend (telling the type: the title, the
 * top strip, the card turned, the whole photo; then the fields' corrections). A capture nothing
 * reads costs a bounded time instead of every fallback.
 */
export const READ_BUDGET = 24;
/**
 * Passes one field may spend: its first reading and its fallbacks (another scale, a local
 * threshold, a wider search), tried best first (readRegion), so what the budget cuts off is what
 * pays off least. Each field has its own, never a share of one pool: the fields are read side by
 * side on two threads, and a pool would leave the last fallbacks to whichever field's passes
 * finished first — the same image read differently under another load.
 */
export const FIELD_READ_BUDGET = 6;
/**
 * Passes per field when nothing on the capture named its type and it is read as the type the
 * user chose: a reading held below the threshold whatever it gives, so it gets its first two
 * fallbacks only (a blank or unreadable card costs a bounded time).
 */
export const ASSUMED_TYPE_FIELD_READ_BUDGET = 3;
/** Passes one field of a back may spend (the My Number: four scales and a local threshold). */
export const BACK_FIELD_READ_BUDGET = 6;

/**
 * The engine with each reading kept for one document: the same crop read the same way is read
 * once (a licence number's zone searched when telling the type, then again as the field; a front
 * value read again at 1× before a disagreement with the back counts). `made` counts the passes
 * Tesseract actually ran (extras.reads); budgets are counted by the views of budgeted().
 */
export function readingOnce(engine: OcrEngine, made: { passes: number }): OcrEngine {
  const readings = new Map<string, Promise<OcrRecognition>>();
  const recognize: OcrEngine['recognize'] = (image, options = {}) => {
    const key = `${options.psm ?? ''}|${options.charWhitelist ?? ''}|${options.binarization ?? ''}|${JSON.stringify(options.rectangle ?? null)}|${createHash('sha1').update(image).digest('hex')}`;
    let reading = readings.get(key);
    if (!reading) {
      made.passes++;
      reading = engine.recognize(image, options);
      readings.set(key, reading);
      reading.catch(() => readings.delete(key));
    }
    return reading;
  };
  return Object.defineProperties(Object.create(engine) as OcrEngine, { recognize: { value: recognize } });
}

/**
 * A view of the engine that counts every pass asked of it against `tally` — one kept from an
 * earlier step included, so what a step may still read depends on its own passes alone, never on
 * whether a read side by side with it came first.
 */
export function budgeted(engine: OcrEngine, tally: Tally): BudgetedEngine {
  const recognize: OcrEngine['recognize'] = (image, options) => {
    tally.reads++;
    return engine.recognize(image, options);
  };
  return Object.defineProperties(Object.create(engine) as BudgetedEngine, {
    recognize: { value: recognize },
    spare: { get: () => tally.reads < tally.budget },
  });
}

/** Both languages with a budget of their own (one field, the back's fields, the MRZ search). */
export function withOwnBudget(engines: { jpn: OcrEngine; eng: OcrEngine }, budget: number): Engines {
  const tally: Tally = { reads: 0, budget };
  return { jpn: budgeted(engines.jpn, tally), eng: budgeted(engines.eng, tally) };
}
