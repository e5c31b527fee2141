// The OCR engine: tesseract.js 7 running Tesseract's LSTM models in wasm worker threads, with
// jpn + eng loaded from local files only (design.md, "OCR": no network at run time, nothing
// written into the cwd).
//
// Where the language data comes from:
// - jpn: models/tesseract/jpn.traineddata, the uncompressed file from Debian's tesseract-ocr-jpn
//   (see models/tesseract/README.md).
// - eng: @tesseract.js-data/eng, 4.0.0_best_int/eng.traineddata.gz, resolved from node_modules.
//
// tesseract.js takes a single `langPath` (and its per-language `{ code, data }` form is broken in
// 7.0.0: `initialize` joins `data` instead of `code`). So the two files are found this way:
// tesseract.js first looks for `${cachePath}/${lang}.traineddata`, so `cachePath` points at
// models/tesseract with `cacheMethod: 'readOnly'` (jpn is found there, and never written or
// deleted: with the default 'write' method a failed init would delete the cached file); eng is
// not there, so it falls through to `${langPath}/eng.traineddata.gz` in the npm package
// (`gzip: true`). tesseract.js gunzips by magic number, so the uncompressed jpn file is read as is.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

/** Languages this engine can load (the only traineddata shipped with mimoto). */
export type OcrLanguage = 'jpn' | 'eng';

/** Tesseract page segmentation modes we use (the full list: tesseract.js `PSM`). */
export const PAGE_SEGMENTATION = {
  auto: '3',
  singleBlock: '6',
  singleLine: '7',
  singleWord: '8',
  sparseText: '11',
} as const;
export type PageSegmentationMode = (typeof PAGE_SEGMENTATION)[keyof typeof PAGE_SEGMENTATION];

export interface BoundingBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** 0–100, Tesseract's own confidence. */
  confidence: number;
  bbox: BoundingBox;
}

export interface OcrLine {
  text: string;
  confidence: number;
  bbox: BoundingBox;
  words: OcrWord[];
}

export interface OcrRecognition {
  text: string;
  /** 0–100, Tesseract's mean word confidence for the page (or rectangle). */
  confidence: number;
  words: OcrWord[];
  lines: OcrLine[];
}

export interface RecognizeOptions {
  /** Only read this part of the image (pixels). */
  rectangle?: { left: number; top: number; width: number; height: number };
  /** Page segmentation mode; default `PAGE_SEGMENTATION.auto`. */
  psm?: PageSegmentationMode;
  /** Restrict the characters Tesseract may output (e.g. digits for a date field). */
  charWhitelist?: string;
}

export interface OcrEngine {
  /** The languages and model files, to record with a result (interface §2.6: model). */
  readonly model: string;
  recognize(image: Buffer, options?: RecognizeOptions): Promise<OcrRecognition>;
  terminate(): Promise<void>;
}

export interface CreateOcrEngineOptions {
  /** Default `['jpn', 'eng']`. Order matters: the first is Tesseract's primary language. */
  languages?: readonly OcrLanguage[];
  /** Worker threads in the pool; default 1. Each holds its own copy of the models (~100 MB for jpn+eng). */
  workers?: number;
}

const MODELS_DIR = fileURLToPath(new URL('../../../models/tesseract', import.meta.url));

function resolveEnglishLangPath(): string {
  // The package's index.js says `langPath: <dir>/4.0.0` (legacy+LSTM, 11 MB); the LSTM-only
  // integer model sits next to it and is what tesseract.js itself uses for OEM.LSTM_ONLY.
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

function resolveWorkerPath(): string {
  return join(
    dirname(require.resolve('tesseract.js/package.json')),
    'src',
    'worker-script',
    'node',
    'index.js',
  );
}

function resolveCorePath(): string {
  // Node ignores corePath (the worker `require`s tesseract.js-core); set anyway so no code path
  // can fall back to the CDN default.
  return dirname(require.resolve('tesseract.js-core/package.json'));
}

export const MODEL_DESCRIPTION =
  'tesseract.js 7 LSTM; jpn: tessdata_fast via Debian tesseract-ocr-jpn 1:4.1.0-2; eng: @tesseract.js-data/eng 4.0.0_best_int';

interface PooledWorker {
  worker: Tesseract.Worker;
  /** Calls on one worker run one after another, so a psm set for one call never leaks into another. */
  queue: Promise<unknown>;
  pending: number;
}

function toBox(b: Tesseract.Bbox): BoundingBox {
  return { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
}

function collectLines(page: Tesseract.Page): OcrLine[] {
  const lines: OcrLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push({
          text: line.text.replace(/\n$/, ''),
          confidence: line.confidence,
          bbox: toBox(line.bbox),
          words: line.words.map((w) => ({ text: w.text, confidence: w.confidence, bbox: toBox(w.bbox) })),
        });
      }
    }
  }
  return lines;
}

async function startWorker(languages: readonly OcrLanguage[]): Promise<Tesseract.Worker> {
  return Tesseract.createWorker([...languages], Tesseract.OEM.LSTM_ONLY, {
    langPath: resolveEnglishLangPath(),
    gzip: true,
    cachePath: MODELS_DIR,
    cacheMethod: 'readOnly',
    workerPath: resolveWorkerPath(),
    corePath: resolveCorePath(),
    // Tesseract's wasm build prints warnings through console.error when this is on; the errors that
    // matter reject the promise anyway.
    errorHandler: () => {},
  });
}

/**
 * Starts `workers` Tesseract worker threads with the given languages, all from local files.
 * Load once per process and reuse (see `getOcrEngine`); terminate when the process stops.
 */
export async function createOcrEngine(options: CreateOcrEngineOptions = {}): Promise<OcrEngine> {
  const languages = options.languages ?? (['jpn', 'eng'] as const);
  if (languages.length === 0) throw new Error('createOcrEngine: at least one language is needed');
  const count = Math.max(1, options.workers ?? 1);
  const pool: PooledWorker[] = [];
  try {
    // Sequentially: two wasm compiles at once only compete for the same cores.
    for (let i = 0; i < count; i++) {
      pool.push({ worker: await startWorker(languages), queue: Promise.resolve(), pending: 0 });
    }
  } catch (error) {
    await Promise.allSettled(pool.map((p) => p.worker.terminate()));
    throw new Error(`OCR engine failed to load (${languages.join('+')}): ${String(error)}`);
  }
  let terminated = false;

  async function recognizeOn(
    slot: PooledWorker,
    image: Buffer,
    opts: RecognizeOptions,
  ): Promise<OcrRecognition> {
    await slot.worker.setParameters({
      tessedit_pageseg_mode: (opts.psm ?? PAGE_SEGMENTATION.auto) as Tesseract.PSM,
      tessedit_char_whitelist: opts.charWhitelist ?? '',
      // Tesseract's DPI guess on a bare PNG is poor and it warns; ID cards are scanned near 300.
      user_defined_dpi: '300',
    });
    const { data } = await slot.worker.recognize(image, opts.rectangle ? { rectangle: opts.rectangle } : {}, {
      text: true,
      blocks: true,
    });
    const lines = collectLines(data);
    return {
      text: data.text,
      confidence: data.confidence,
      words: lines.flatMap((l) => l.words),
      lines,
    };
  }

  return {
    model: `${MODEL_DESCRIPTION} (${languages.join('+')})`,
    recognize(image, opts = {}) {
      if (terminated) return Promise.reject(new Error('OCR engine was terminated'));
      let slot = pool[0] as PooledWorker;
      for (const p of pool) if (p.pending < slot.pending) slot = p;
      slot.pending++;
      const run = slot.queue.then(() => recognizeOn(slot, image, opts));
      slot.queue = run
        .catch(() => {})
        .finally(() => {
          slot.pending--;
        });
      return run;
    },
    async terminate() {
      if (terminated) return;
      terminated = true;
      await Promise.allSettled(pool.map((p) => p.worker.terminate()));
    },
  };
}

let shared: Promise<OcrEngine> | undefined;

/**
 * The process-wide engine (issue 6: models load once per worker process). The first call loads
 * it; later calls get the same engine. A failed load is not cached, so the next call retries.
 */
export function getOcrEngine(): Promise<OcrEngine> {
  if (!shared) {
    shared = createOcrEngine();
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

/** Stops the process-wide engine if it was started (for shutdown hooks and tests). */
export async function terminateOcrEngine(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current).terminate();
}
