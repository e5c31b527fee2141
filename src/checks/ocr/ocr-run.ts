// What every step of one document's reading shares: the input, the engines and their read budget,
// the clock, the timings, and the MRZ search made at most once.
import { PROVIDER } from '../check.ts';
import type { Layout } from './document-regions.ts';
import type { DocumentGeometry, DocumentOutline, GreyImage } from './find-document.ts';
import { findMrz, type MrzFound } from './locate-mrz.ts';
import { MODEL_DESCRIPTION, type OcrEngine, type OcrLanguage } from './ocr-engine.ts';
import type { OcrCheckInput } from './ocr-result.ts';
import {
  budgeted,
  type Engines,
  READ_BUDGET,
  readingOnce,
  type Tally,
  withOwnBudget,
} from './read-budget.ts';

/** What the check is built with (createOcrCheck's options, defaults filled in). */
export interface OcrSettings {
  loadEngine: (languages: readonly OcrLanguage[]) => Promise<OcrEngine>;
  now: () => Date;
  geometry: DocumentGeometry;
  version: string;
}

/** One document's reading. */
export interface OcrRun {
  settings: OcrSettings;
  input: OcrCheckInput;
  started: number;
  timingsMs: Record<string, number>;
  /** Passes asked and allowed (READ_BUDGET) of the document's sequential steps, both languages. */
  tally: Tally;
  /** The engines of the sequential steps, counted against `tally`. */
  ocr: Engines;
  /** The same engines without a budget, for a step read side by side with others (withOwnBudget). */
  cached: { jpn: OcrEngine; eng: OcrEngine };
  /** Tesseract passes actually made for the document (extras.reads). */
  made: { passes: number };
  /** The clock read once, for dates and their plausibility. */
  reference: Date;
  base: { provider: typeof PROVIDER; model: string };
  /** The outline the finder returned on the front (null: none); set once it was looked for. */
  documentOutline: DocumentOutline | null;
  mrzSearch?: Promise<MrzFound | undefined>;
}

export async function startRun(settings: OcrSettings, input: OcrCheckInput): Promise<OcrRun> {
  const started = performance.now();
  const tally: Tally = { reads: 0, budget: READ_BUDGET };
  const made = { passes: 0 };
  const cached = {
    jpn: readingOnce(await settings.loadEngine(['jpn']), made),
    eng: readingOnce(await settings.loadEngine(['eng']), made),
  };
  const ocr: Engines = { jpn: budgeted(cached.jpn, tally), eng: budgeted(cached.eng, tally) };
  const reference = settings.now();
  const model = `${MODEL_DESCRIPTION} (jpn for Japanese fields, eng for Latin fields, mrz then eng for an MRZ found anywhere); mimoto ocr pipeline ${settings.version}`;
  return {
    settings,
    input,
    started,
    timingsMs: {},
    tally,
    ocr,
    cached,
    made,
    reference,
    base: { provider: PROVIDER, model },
    documentOutline: null,
  };
}

/** Records how long a step took, from `since`. */
export function lap(run: OcrRun, name: string, since: number): void {
  run.timingsMs[name] = Math.round(performance.now() - since);
}

/** The photo rectified to the layout (the card's or the passport page's). */
export function warpTo(
  run: OcrRun,
  grey: GreyImage,
  corners: [number, number][],
  layout: Layout,
): Promise<GreyImage> {
  return run.settings.geometry.warp(
    grey,
    corners,
    Math.round(layout.width * layout.scale),
    Math.round(layout.height * layout.scale),
  );
}

/**
 * The MRZ anywhere in the photo (locate-mrz.ts), looked for once, when the card's own layout gives
 * no answer: a flat scan with no outline, a passport of another state, an ID card.
 */
export function locatedMrz(run: OcrRun): Promise<MrzFound | undefined> {
  run.mrzSearch ??= (async () => {
    const since = performance.now();
    // The MRZ model first (trained on MRZ lines, it tells 8 from B and 0 from O where eng
    // does not), eng again where its check digits fail.
    // Its own budget: the search runs beside the type's reading, whose budget it must not touch.
    const own = withOwnBudget(run.cached, READ_BUDGET);
    const mrzModel = budgeted(readingOnce(await run.settings.loadEngine(['mrz']), run.made), {
      reads: 0,
      budget: READ_BUDGET,
    });
    const found = await findMrz(mrzModel, run.input.front, own.eng);
    lap(run, 'mrz', since);
    return found;
  })();
  return run.mrzSearch;
}
