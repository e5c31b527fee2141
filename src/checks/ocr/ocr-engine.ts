// The OCR engine: tesseract.js 7 running Tesseract's LSTM models in wasm worker threads, with
// jpn + eng loaded from local files only (docs/decisions.md, "OCR": no network at run time, nothing
// written into the cwd).
//
// Where the language data comes from:
// - jpn: models/tesseract/jpn.traineddata, the uncompressed file from Debian's tesseract-ocr-jpn
//   (see models/tesseract/README.md).
// - eng: @tesseract.js-data/eng, 4.0.0_best_int/eng.traineddata.gz, resolved from node_modules.
// - mrz: models/tesseract/mrz.traineddata, an LSTM model trained on MRZ lines (OCR-B, A–Z 0–9 <)
//   by DoubangoTelecom/tesseractMRZ (see models/tesseract/README.md), read from the same cache.
//
// tesseract.js takes a single `langPath` (and its per-language `{ code, data }` form is broken in
// 7.0.0: `initialize` joins `data` instead of `code`). So the two files are found this way:
// tesseract.js first looks for `${cachePath}/${lang}.traineddata`, so `cachePath` points at
// models/tesseract with `cacheMethod: 'readOnly'` (jpn is found there, and never written or
// deleted: with the default 'write' method a failed init would delete the cached file); eng is
// not there, so it falls through to `${langPath}/eng.traineddata.gz` in the npm package
// (`gzip: true`). tesseract.js gunzips by magic number, so the uncompressed jpn file is read as is.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { LINE_RECOGNISER_MODEL, recogniseLine, terminateLineRecogniser } from './line-recogniser.ts';

const require = createRequire(import.meta.url);

/** Languages this engine can load (the only traineddata shipped with mimoto). */
export type OcrLanguage = 'jpn' | 'eng' | 'mrz';

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
  /** The word's characters with their boxes (the MRZ reader tells fillers from letters by shape). */
  symbols?: { text: string; confidence: number; bbox: BoundingBox }[];
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
  /**
   * How Tesseract separates ink from paper: one global threshold (Otsu, the default) or a local
   * one per neighbourhood (Sauvola), which keeps faint glyphs under glare or a light falloff.
   */
  binarization?: 'otsu' | 'sauvola';
}

/** Test hook: the engine's node:worker_threads Workers, to simulate a thread dying. */
export const WORKER_THREADS: unique symbol = Symbol('ocr worker threads');

export interface OcrEngine {
  /** The languages and model files, to record with a result (interface §2.6: model). */
  readonly model: string;
  /** One Tesseract pass over the image (or a rectangle of it). */
  recognize(image: Buffer, options?: RecognizeOptions): Promise<OcrRecognition>;
  /**
   * Finds the text lines with a page pass, then reads each line again on its own (a crop with a
   * margin, single-line mode). Slower (one extra small pass per line) but more exact: on a whole
   * page the jpn model drops a "1" standing between kanji (7月15日 → 7月5日, 7番1号 → 7番号),
   * which the line pass reads correctly. Boxes are in the coordinates of the whole image.
   */
  readLines(image: Buffer, options?: ReadLinesOptions): Promise<OcrRecognition>;
  /**
   * A second recogniser's reading of one text line (line-recogniser.ts), where the engine has one:
   * a field read alike by both is confirmed, one read otherwise is unsure (read-region.ts).
   */
  secondOpinion?(image: Buffer): Promise<OcrRecognition>;
  /** False once terminated or once a worker thread has died (calls then reject). */
  readonly isHealthy: boolean;
  readonly [WORKER_THREADS]: readonly NodeWorker[];
  terminate(): Promise<void>;
}

export interface ReadLinesOptions {
  /** Only look for lines inside this part of the image. */
  rectangle?: RecognizeOptions['rectangle'];
  /** Margin around each line box, in pixels; default 8. */
  padding?: number;
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

export const MODEL_DESCRIPTION = `tesseract.js 7 LSTM; jpn: tessdata_fast via Debian tesseract-ocr-jpn 1:4.1.0-2, with ${LINE_RECOGNISER_MODEL} as the Japanese lines' second opinion; eng: @tesseract.js-data/eng 4.0.0_best_int; mrz: DoubangoTelecom/tesseractMRZ tessdata_fast`;

interface PooledWorker {
  worker: Tesseract.Worker;
  /** Calls on one worker run one after another, so a psm set for one call never leaks into another. */
  queue: Promise<unknown>;
  pending: number;
  /** Rejects if the worker thread dies (wasm abort, out of memory): calls in flight fail instead of hanging. */
  died: Promise<never>;
}

function threadOf(worker: Tesseract.Worker): NodeWorker | undefined {
  return (worker as unknown as { worker?: NodeWorker | null }).worker ?? undefined;
}

function watchThread(worker: Tesseract.Worker, onDeath: () => void): Promise<never> {
  // tesseract.js keeps the node:worker_threads Worker on the object it returns but neither types
  // it nor listens for its exit, so a dead thread would leave its promises pending forever.
  const thread = threadOf(worker);
  const died = new Promise<never>((_, reject) => {
    thread?.once('exit', (code) => {
      onDeath();
      reject(new Error(`OCR worker thread exited (code ${code})`));
    });
    thread?.once('error', (error) => {
      onDeath();
      reject(new Error(`OCR worker thread failed: ${error.message}`));
    });
  });
  died.catch(() => {});
  return died;
}

function toBox(b: Tesseract.Bbox): BoundingBox {
  return { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
}

function shiftBox(b: BoundingBox, dx: number, dy: number): BoundingBox {
  return { x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy };
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
          words: line.words.map((w) => ({
            text: w.text,
            confidence: w.confidence,
            bbox: toBox(w.bbox),
            symbols: (w.symbols ?? []).map((s) => ({
              text: s.text,
              confidence: s.confidence,
              bbox: toBox(s.bbox),
            })),
          })),
        });
      }
    }
  }
  return lines;
}

function languageFile(language: OcrLanguage): string {
  // Where tesseract.js will look first (the read-only cache), else the npm package (see the top).
  const committed = join(MODELS_DIR, `${language}.traineddata`);
  return existsSync(committed) ? committed : join(resolveEnglishLangPath(), `${language}.traineddata.gz`);
}

/**
 * Throws unless the file looks like Tesseract language data: a gzip member, or a tessdata header
 * (little-endian int32 entry count, then one int64 offset per entry, -1 or inside the file). This
 * catches a missing, truncated or placeholder file (a Git LFS pointer) before tesseract.js sees it.
 */
export function assertTrainedData(language: OcrLanguage, file: string): void {
  if (!existsSync(file)) throw new Error(`no traineddata for ${language}: ${file} is missing`);
  let data = readFileSync(file);
  if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
  const entries = data.length >= 4 ? data.readUInt32LE(0) : 0;
  const headerEnd = 4 + 8 * entries;
  const isHeaderSane =
    entries >= 1 &&
    entries <= 64 &&
    data.length > headerEnd &&
    Array.from({ length: entries }, (_, i) => data.readBigInt64LE(4 + 8 * i)).every(
      (offset) => offset === -1n || (offset >= BigInt(headerEnd) && offset < BigInt(data.length)),
    );
  if (!isHeaderSane) throw new Error(`${file} is not Tesseract language data (${data.length} bytes)`);
}

async function startWorker(languages: readonly OcrLanguage[]): Promise<Tesseract.Worker> {
  // tesseract.js 7 never settles createWorker when a language fails to load, and when one fails to
  // initialise it sends a second reply that crashes the process in its message listener; so check
  // the files first, with a clear error...
  for (const language of languages) assertTrainedData(language, languageFile(language));
  // ...and turn any other start-up job failure into a rejection through errorHandler (the thread of
  // such a failed start cannot be reached to terminate it).
  let isStarted = false;
  let failStart: (error: Error) => void = () => {};
  const startFailed = new Promise<never>((_, reject) => {
    failStart = reject;
  });
  const starting = Tesseract.createWorker([...languages], Tesseract.OEM.LSTM_ONLY, {
    langPath: resolveEnglishLangPath(),
    gzip: true,
    cachePath: MODELS_DIR,
    cacheMethod: 'readOnly',
    workerPath: resolveWorkerPath(),
    corePath: resolveCorePath(),
    // Without a handler tesseract.js rethrows a failed job inside its message listener, which
    // crashes the process. After start-up the job's own promise carries the error.
    errorHandler: (error: unknown) => {
      if (!isStarted) failStart(new Error(String(error)));
    },
  });
  const worker = await Promise.race([starting, startFailed]);
  isStarted = true;
  return worker;
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
  let terminated = false;
  let isDead = false;
  const markDead = () => {
    if (!terminated) isDead = true;
  };
  try {
    // Sequentially: two wasm compiles at once only compete for the same cores.
    for (let i = 0; i < count; i++) {
      const worker = await startWorker(languages);
      pool.push({
        worker,
        queue: Promise.resolve(),
        pending: 0,
        died: watchThread(worker, () => markDead()),
      });
    }
  } catch (error) {
    await Promise.allSettled(pool.map((p) => p.worker.terminate()));
    throw new Error(`OCR engine failed to load (${languages.join('+')}): ${String(error)}`);
  }

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
      // Tesseract's tprintf chatter ("Detected 20 diacritics", "Estimating resolution") would go to
      // the process's stdout; send it to the wasm file system's /dev/null instead.
      debug_file: '/dev/null',
      thresholding_method: opts.binarization === 'sauvola' ? '2' : '0',
    });
    const { data } = await slot.worker.recognize(image, opts.rectangle ? { rectangle: opts.rectangle } : {}, {
      text: true,
      blocks: true,
    });
    const lines = collectLines(data);
    const words = lines.flatMap((l) => l.words);
    return {
      text: data.text,
      // Tesseract reports 95 for a page where it found nothing at all; nothing read is no confidence.
      confidence: words.length === 0 ? 0 : data.confidence,
      words,
      lines,
    };
  }

  function recognize(image: Buffer, opts: RecognizeOptions = {}): Promise<OcrRecognition> {
    if (terminated) return Promise.reject(new Error('OCR engine was terminated'));
    if (isDead) return Promise.reject(new Error('OCR engine lost a worker thread; create a new engine'));
    let slot = pool[0] as PooledWorker;
    for (const p of pool) if (p.pending < slot.pending) slot = p;
    slot.pending++;
    const run = slot.queue.then(() => Promise.race([recognizeOn(slot, image, opts), slot.died]));
    slot.queue = run
      .catch(() => {})
      .finally(() => {
        slot.pending--;
      });
    return run;
  }

  async function readLines(image: Buffer, opts: ReadLinesOptions = {}): Promise<OcrRecognition> {
    const layout = await recognize(image, opts.rectangle ? { rectangle: opts.rectangle } : {});
    const { width = 0, height = 0 } = await sharp(image).metadata();
    const padding = opts.padding ?? 8;
    const lines = await Promise.all(
      layout.lines.map(async (line) => {
        const left = Math.max(0, line.bbox.x0 - padding);
        const top = Math.max(0, line.bbox.y0 - padding);
        const crop = {
          left,
          top,
          width: Math.min(width, line.bbox.x1 + padding) - left,
          height: Math.min(height, line.bbox.y1 + padding) - top,
        };
        if (crop.width <= 0 || crop.height <= 0) return line;
        // Cropped here rather than passed as `rectangle`: the worker would decode the whole
        // image again for every line.
        const png = await sharp(image).extract(crop).png().toBuffer();
        const reread = await recognize(png, { psm: PAGE_SEGMENTATION.singleLine });
        const words = reread.words.map((w) => ({ ...w, bbox: shiftBox(w.bbox, left, top) }));
        if (words.length === 0) return line;
        return {
          text: reread.text.replace(/\n+$/, ''),
          confidence: reread.confidence,
          bbox: line.bbox,
          words,
        };
      }),
    );
    return {
      text: lines.map((l) => l.text).join('\n'),
      confidence: lines.length === 0 ? 0 : lines.reduce((sum, l) => sum + l.confidence, 0) / lines.length,
      words: lines.flatMap((l) => l.words),
      lines,
    };
  }

  return {
    model: `${MODEL_DESCRIPTION} (${languages.join('+')})`,
    get isHealthy() {
      return !terminated && !isDead;
    },
    get [WORKER_THREADS]() {
      return pool.flatMap((p) => threadOf(p.worker) ?? []);
    },
    recognize,
    readLines,
    // Japanese field lines get PaddleOCR's recogniser as a second opinion.
    ...(languages.length === 1 && languages[0] === 'jpn' ? { secondOpinion: recogniseLine } : {}),
    async terminate() {
      if (terminated) return;
      terminated = true;
      await Promise.allSettled(pool.map((p) => p.worker.terminate()));
    },
  };
}

/**
 * Worker threads of the process-wide engines. A Japanese card's fields are read at once, one
 * `jpn` pass each (ocr.check.ts): with one thread they queue while the second core has nothing
 * to do (the document's face is described by then); two read them side by side. Each thread costs
 * about 35 MB (worker peak RSS, bench:real); the other languages read one line or band at a time.
 */
const WORKERS_FOR: Readonly<Record<string, number>> = { jpn: Math.min(2, os.availableParallelism()) };

/** Process-wide engines, one per language set (`jpn+eng`, and the single-language ones). */
const shared = new Map<string, { loading: Promise<OcrEngine>; engine?: OcrEngine }>();

/**
 * The process-wide engine (models load once per worker process: loading costs seconds). The first
 * call loads it; later calls get the same engine. A failed load is not kept, so the next call
 * retries; an engine that lost a worker thread is replaced by a fresh one.
 */
export function getOcrEngine(): Promise<OcrEngine> {
  return getOcrEngineFor(['jpn', 'eng']);
}

/**
 * The process-wide engine for one language set. The OCR check reads Japanese fields with `jpn`
 * alone and Latin ones (MRZ, passport fields) with `eng` alone: with both loaded Tesseract picks
 * the English model for some kanji words (大輔 → "KH").
 */
export function getOcrEngineFor(languages: readonly OcrLanguage[]): Promise<OcrEngine> {
  const key = languages.join('+');
  const workers = WORKERS_FOR[key] ?? 1;
  const current = shared.get(key);
  if (current?.engine && !current.engine.isHealthy) {
    shared.delete(key);
    void current.engine.terminate();
  } else if (current) {
    return current.loading;
  }
  const loading = createOcrEngine({ languages, workers });
  const entry: { loading: Promise<OcrEngine>; engine?: OcrEngine } = { loading };
  shared.set(key, entry);
  loading.then(
    (engine) => {
      entry.engine = engine;
    },
    () => {
      if (shared.get(key) === entry) shared.delete(key);
    },
  );
  return loading;
}

/** Stops the process-wide engines that were started (for shutdown hooks and tests). */
export async function terminateOcrEngine(): Promise<void> {
  const entries = [...shared.values()];
  shared.clear();
  await Promise.allSettled([
    ...entries.map(async (entry) => (await entry.loading).terminate()),
    terminateLineRecogniser(),
  ]);
}
