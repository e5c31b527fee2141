// The read budget of one document: each Tesseract pass counted, the same pass made once.
import { createHash } from 'node:crypto';
import type { OcrEngine, OcrRecognition } from './ocr-engine.ts';

/** An engine of one document's reading: `spare` while the document's read budget lasts (readingOnce). */
export type BudgetedEngine = OcrEngine & { readonly spare: boolean };
export type Engines = { jpn: BudgetedEngine; eng: BudgetedEngine };

/**
 * Tesseract passes one document may spend (both languages together). A real card reads in 7–16
 * (the title, the top strip, one pass per field, a confirmation or two); every pass beyond the
 * first reading of a field is a fallback — another scale, a local threshold, a wider search, the
 * card turned, another type's evidence — and those stop once the budget is spent, so a capture
 * nothing reads costs a bounded time instead of every fallback of every field. The fallbacks are
 * tried best first (readRegion), so what the budget cuts off is what pays off least.
 */
export const READ_BUDGET = 24;
/** Further passes for a back (the My Number card's: its number at four scales, name, birth date). */
export const BACK_READ_BUDGET = 12;

/**
 * The engine with each reading kept for one document: the same crop read the same way is read
 * once (a licence number's zone searched when telling the type, then again as the field; a front
 * value read again at 1× before a disagreement with the back counts). The passes are counted
 * against the document's budget (`spare` while it lasts; `tally` is shared by both languages).
 */
export function readingOnce(engine: OcrEngine, tally: { reads: number; budget: number }): BudgetedEngine {
  const readings = new Map<string, Promise<OcrRecognition>>();
  const recognize: OcrEngine['recognize'] = (image, options = {}) => {
    const key = `${options.psm ?? ''}|${options.charWhitelist ?? ''}|${options.binarization ?? ''}|${JSON.stringify(options.rectangle ?? null)}|${createHash('sha1').update(image).digest('hex')}`;
    let reading = readings.get(key);
    if (!reading) {
      tally.reads++;
      reading = engine.recognize(image, options);
      readings.set(key, reading);
      reading.catch(() => readings.delete(key));
    }
    return reading;
  };
  return Object.defineProperties(Object.create(engine) as BudgetedEngine, {
    recognize: { value: recognize },
    spare: { get: () => tally.reads < tally.budget },
  });
}
