// A second recogniser for Japanese field lines: PaddleOCR's PP-OCRv3 Japanese model (SVTR-LCNet,
// CTC; models/paddleocr-japan), trained on far more fonts and photographs than Tesseract's jpn.
// Where the two read a line alike the reading is confirmed by a recogniser that errs differently;
// where they differ, neither is taken as sure (read-region.ts). docs/ocr-engines.md has the figures.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { OcrRecognition, OcrWord } from './ocr-engine.ts';

const MODEL_DIR = fileURLToPath(new URL('../../../models/paddleocr-japan', import.meta.url));
export const LINE_RECOGNISER_MODEL = 'PaddleOCR japan_PP-OCRv3_rec (ONNX, onnxruntime-node 1.31 CPU)';

/** The model's input height; a line is scaled to it, its width following (PaddleOCR's rec_image_shape 3,48,320). */
const HEIGHT = 48;
/** Wider lines are squeezed: 40 glyphs of a 48-px line are more than any field holds. */
const MAX_WIDTH = HEIGHT * 40;
/**
 * Glyphs at a line's ends read less surely than this are the crop's margins (a ruled line, the
 * next field's edge, the card's border), not print: on 13 crops of tuning seed 7 the margins read
 * at 0.06–0.45 and the last printed glyph at ≥ 0.6. A leading glyph needs half of it: a poor
 * capture's first printed glyph read at 0.33 (青 of 青森県) is still the field's start.
 */
const TRAILING_MIN = 0.5;
const LEADING_MIN = 0.25;

/** The classes of the CTC output: blank, the dictionary's characters, then the space. */
function loadCharacters(): string[] {
  const chars = readFileSync(`${MODEL_DIR}/japan_dict.txt`, 'utf8').replace(/\r/g, '').split('\n');
  if (chars.at(-1) === '') chars.pop();
  return ['', ...chars, ' '];
}

type Answer = { id: number; best?: Int32Array; probability?: Float32Array; error?: string };

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>;
}

let thread: Thread | undefined;
let characters: string[] | undefined;
let nextId = 0;

function startThread(): Thread {
  const worker = new Worker(new URL('./line-recogniser-thread.mjs', import.meta.url), {
    workerData: { modelFile: `${MODEL_DIR}/japan_PP-OCRv3_rec_infer.onnx` },
  });
  const pending: Thread['pending'] = new Map();
  const started: Thread = { worker, pending, ready: Promise.resolve() };
  const fail = (error: Error) => {
    if (thread === started) thread = undefined;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  started.ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: Answer & { ready?: boolean }) => {
      if (message.ready) {
        if (pending.size === 0) worker.unref();
        return resolve();
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      // An idle thread must not keep the process alive (a CLI command that has finished).
      if (pending.size === 0) worker.unref();
      waiting.resolve(message);
    });
    worker.once('error', (error) => {
      reject(error);
      fail(new Error(`line recogniser thread failed: ${error.message}`));
    });
    worker.once('exit', (code) => {
      reject(new Error(`line recogniser thread exited (code ${code})`));
      fail(new Error(`line recogniser thread exited (code ${code})`));
    });
  });
  started.ready.catch(() => {});
  return started;
}

async function inferSteps(
  pixels: Float32Array,
  width: number,
): Promise<{ best: Int32Array; probability: Float32Array }> {
  thread ??= startThread();
  const current = thread;
  await current.ready;
  const id = nextId++;
  const answer = await new Promise<Answer>((resolve, reject) => {
    current.pending.set(id, { resolve, reject });
    current.worker.ref();
    current.worker.postMessage({ id, pixels, height: HEIGHT, width }, [pixels.buffer as ArrayBuffer]);
  });
  if (answer.error || !answer.best || !answer.probability)
    throw new Error(`line recogniser: ${answer.error ?? 'no output'}`);
  return { best: answer.best, probability: answer.probability };
}

/** The line scaled to the model's height, grey in all three channels, in [-1, 1] (PaddleOCR's normalisation). */
async function modelInput(
  image: Buffer,
): Promise<{ pixels: Float32Array; width: number; source: { width: number; height: number } }> {
  const meta = await sharp(image).metadata();
  const source = { width: meta.width ?? 1, height: meta.height ?? 1 };
  const width = Math.max(8, Math.min(MAX_WIDTH, Math.round((source.width * HEIGHT) / source.height)));
  const { data, info } = await sharp(image)
    .greyscale()
    .resize({ width, height: HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = HEIGHT * width;
  const pixels = new Float32Array(3 * plane);
  // sharp can hand back a grey picture as three equal channels: step by the channels it reports.
  for (let i = 0; i < plane; i++) {
    const v = (data[i * info.channels] as number) / 127.5 - 1;
    pixels[i] = v;
    pixels[plane + i] = v;
    pixels[2 * plane + i] = v;
  }
  return { pixels, width, source };
}

/**
 * One line read by the recogniser. Each glyph is a word of its own, its box the CTC step it was
 * read at (a kanji name's widest gap between glyphs is where the surname ends: splitNameLine);
 * confidence 0–100, the mean of the glyphs' probabilities, as Tesseract's is a mean of words'.
 */
export async function recogniseLine(image: Buffer): Promise<OcrRecognition> {
  characters ??= loadCharacters();
  const chars = characters;
  const { pixels, width, source } = await modelInput(image);
  const { best, probability } = await inferSteps(pixels, width);
  const read: { text: string; step: number; p: number }[] = [];
  let previous = 0;
  for (let t = 0; t < best.length; t++) {
    const c = best[t] as number;
    if (c !== 0 && c !== previous) read.push({ text: chars[c] ?? '', step: t, p: probability[t] as number });
    previous = c;
  }
  // The dictionary has the ideographic space too: a space either way.
  const space = (g: { text: string }) => g.text.trim() === '';
  const unsure = (g: { text: string; p: number } | undefined, min: number) => !!g && (g.p < min || space(g));
  while (unsure(read[0], LEADING_MIN)) read.shift();
  while (unsure(read.at(-1), TRAILING_MIN)) read.pop();
  const perStep = source.width / best.length;
  const words: OcrWord[] = read
    .filter((g) => !space(g))
    .map((g) => ({
      // The model writes digits and Latin letters full width (８): as Tesseract does, half width.
      text: g.text.normalize('NFKC'),
      confidence: g.p * 100,
      bbox: { x0: g.step * perStep, y0: 0, x1: (g.step + 1) * perStep, y1: source.height },
    }));
  const text = read
    .map((g) => g.text.normalize('NFKC'))
    .join('')
    .trim();
  const confidence = words.length ? words.reduce((sum, w) => sum + w.confidence, 0) / words.length : 0;
  const bbox = { x0: 0, y0: 0, x1: source.width, y1: source.height };
  return { text, confidence, words, lines: text ? [{ text, confidence, bbox, words }] : [] };
}

/** Stops the recogniser's thread (shutdown hooks and tests); the next line starts a new one. */
export async function terminateLineRecogniser(): Promise<void> {
  const current = thread;
  thread = undefined;
  await current?.worker.terminate();
}
