import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  assertTrainedData,
  createOcrEngine,
  getOcrEngine,
  type OcrEngine,
  type OcrLanguage,
  PAGE_SEGMENTATION,
  terminateOcrEngine,
  WORKER_THREADS,
} from '../../../src/checks/ocr/ocr-engine.ts';
import { parseJapaneseDate } from '../../../src/japanese/index.ts';
import { renderTextImage } from './render-text-image.ts';
import { compact, levenshtein } from './text-accuracy.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const modelsDir = join(repoRoot, 'models', 'tesseract');

// A card-sized page (1000x630) with the kinds of lines an ID card has.
const LINES = [
  { text: '氏名 山田 太郎', x: 40, y: 90, size: 40 },
  { text: '昭和63年12月31日生', x: 40, y: 160, size: 36 },
  { text: '住所 東京都千代田区霞が関1丁目2番3号', x: 40, y: 230, size: 32 },
  { text: 'No. 123456789012 DRIVER', x: 40, y: 300, size: 32 },
];

describe('OCR engine (tesseract.js, jpn+eng from local files)', () => {
  let engine: OcrEngine;
  let card: Buffer;
  let modelsBefore: string[];

  before(async () => {
    card = await renderTextImage(LINES, 1000, 630);
    modelsBefore = readdirSync(modelsDir).sort();
    engine = await createOcrEngine({ languages: ['jpn', 'eng'] });
  });

  after(() => engine?.terminate());

  it('reads Japanese, digits and Latin on one card-sized image', async () => {
    const result = await engine.recognize(card);
    const lines = result.lines.map((l) => compact(l.text));
    assert.equal(lines.length, 4, `lines: ${JSON.stringify(lines)}`);
    assert.equal(lines[0], '氏名山田太郎');
    assert.equal(parseJapaneseDate(lines[1] ?? ''), '1988-12-31');
    assert.match(lines[2] ?? '', /霞が関1丁目2番3号$/u);
    assert.equal(lines[3], 'No.123456789012DRIVER');
    // Whole-page character accuracy (Tesseract's fast jpn model reads 千 as 干 in this font).
    const expected = LINES.map((l) => compact(l.text)).join('');
    const accuracy = 1 - levenshtein(lines.join(''), expected) / [...expected].length;
    assert.ok(accuracy >= 0.95, `character accuracy ${accuracy.toFixed(3)}`);
    assert.ok(result.confidence > 70, `confidence ${result.confidence}`);
  });

  it('gives each word a confidence and a box where the text was drawn', async () => {
    const result = await engine.recognize(card);
    const digits = result.words.find((w) => w.text === '123456789012');
    assert.ok(digits, `words: ${result.words.map((w) => w.text).join(' ')}`);
    assert.ok(digits.confidence > 80);
    // Drawn on the baseline y=300 at 32 px: the box spans roughly y 277–300.
    assert.ok(digits.bbox.y0 > 265 && digits.bbox.y1 < 310, JSON.stringify(digits.bbox));
    assert.ok(digits.bbox.x0 > 80 && digits.bbox.x1 < 400, JSON.stringify(digits.bbox));
    for (const w of result.words) assert.ok(w.bbox.x1 <= 1000 && w.bbox.y1 <= 630);
  });

  it('reads only the given rectangle', async () => {
    const result = await engine.recognize(card, {
      rectangle: { left: 20, top: 260, width: 600, height: 60 },
      psm: PAGE_SEGMENTATION.singleLine,
    });
    assert.equal(compact(result.text), 'No.123456789012DRIVER');
  });

  it('restricts output to a character whitelist for a digits-only field', async () => {
    const result = await engine.recognize(card, {
      rectangle: { left: 90, top: 260, width: 230, height: 60 },
      psm: PAGE_SEGMENTATION.singleLine,
      charWhitelist: '0123456789',
    });
    assert.match(compact(result.text), /^\d+$/u);
    assert.ok(compact(result.text).includes('123456789012'), result.text);
  });

  it('runs concurrent calls with different settings without mixing them up', async () => {
    const digitsOnly = {
      rectangle: { left: 90, top: 260, width: 230, height: 60 },
      psm: PAGE_SEGMENTATION.singleLine,
      charWhitelist: '0123456789',
    };
    const [digits, page, digitsAgain] = await Promise.all([
      engine.recognize(card, digitsOnly),
      engine.recognize(card),
      engine.recognize(card, digitsOnly),
    ]);
    assert.match(compact(digits.text), /^\d+$/u);
    assert.match(compact(digitsAgain.text), /^\d+$/u);
    // The page call came between two whitelisted calls and must not inherit their whitelist.
    assert.ok(compact(page.text).startsWith('氏名山田太郎'), page.text);
  });

  it('readLines re-reads each line and gets the "1" between kanji that a page pass drops', async () => {
    const lines = [
      '氏名 高橋 恵子',
      '昭和55年7月15日生',
      '住所 愛知県名古屋市中村区名駅4丁目7番1号',
      '番号 555512345678',
    ];
    const png = await renderTextImage(
      lines.map((text, k) => ({ text, x: 40, y: 80 + k * 70, size: k === 0 ? 40 : 32 })),
      1000,
      630,
      '#f4f1e8',
    );
    const result = await engine.readLines(png);
    assert.deepEqual(
      result.lines.map((l) => compact(l.text)),
      lines.map(compact),
    );
    assert.equal(parseJapaneseDate(result.lines[1]?.text ?? ''), '1980-07-15');
    // Word boxes are in whole-image coordinates, on the line they belong to.
    const number = result.words.find((w) => w.text === '555512345678');
    assert.ok(number && number.bbox.y0 > 250 && number.bbox.y1 < 300, JSON.stringify(number?.bbox));
  });

  it('reports zero confidence when there is no text at all', async () => {
    const blank = await renderTextImage([], 1000, 630, '#f4f1e8');
    const result = await engine.recognize(blank);
    assert.equal(result.words.length, 0);
    assert.equal(result.confidence, 0);
  });

  it('leaves the models directory as it was (read-only cache)', () => {
    assert.deepEqual(readdirSync(modelsDir).sort(), modelsBefore);
  });

  it('refuses work after terminate', async () => {
    const short = await createOcrEngine({ languages: ['eng'] });
    const result = await short.recognize(card, {
      rectangle: { left: 20, top: 260, width: 600, height: 60 },
      psm: PAGE_SEGMENTATION.singleLine,
    });
    assert.ok(compact(result.text).includes('123456789012'));
    await short.terminate();
    await assert.rejects(short.recognize(card), /terminated/);
  });
});

describe('language data checks', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mimoto-ocr-data-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts the committed jpn file and the npm eng file', () => {
    assertTrainedData('jpn', join(modelsDir, 'jpn.traineddata'));
    const eng = join(repoRoot, 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz');
    assertTrainedData('eng', eng);
  });

  it('rejects a Git LFS pointer, random bytes and a missing file with the file named', () => {
    const pointer = join(dir, 'pointer.traineddata');
    writeFileSync(pointer, 'version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 2471260\n');
    assert.throws(
      () => assertTrainedData('jpn', pointer),
      /pointer\.traineddata is not Tesseract language data/,
    );
    const noise = join(dir, 'noise.traineddata');
    writeFileSync(noise, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) % 256)));
    assert.throws(() => assertTrainedData('jpn', noise), /not Tesseract language data/);
    assert.throws(() => assertTrainedData('jpn', join(dir, 'absent.traineddata')), /is missing/);
  });

  it('fails to start, instead of hanging, when a language has no data', async () => {
    await assert.rejects(
      createOcrEngine({ languages: ['fra' as OcrLanguage] }),
      /failed to load \(fra\).*missing/,
    );
  });
});

describe('getOcrEngine', () => {
  after(() => terminateOcrEngine());

  it('loads one engine per process and hands out the same one', async () => {
    const [a, b] = await Promise.all([getOcrEngine(), getOcrEngine()]);
    assert.equal(a, b);
    assert.equal(await getOcrEngine(), a);
    assert.match(a.model, /jpn\+eng/);
  });

  it('fails calls in flight when a worker thread dies, then replaces the engine', async () => {
    const engine = await getOcrEngine();
    const png = await renderTextImage([{ text: '山田 123', x: 20, y: 60, size: 40 }], 300, 90);
    const inFlight = engine.recognize(png);
    await Promise.all(engine[WORKER_THREADS].map((thread) => thread.terminate()));
    await assert.rejects(inFlight, /worker thread/);
    assert.equal(engine.isHealthy, false);
    await assert.rejects(engine.recognize(png), /lost a worker thread/);
    const fresh = await getOcrEngine();
    assert.notEqual(fresh, engine);
    assert.equal(compact((await fresh.recognize(png)).text), '山田123');
  });
});

describe('OCR engine in a fresh process', () => {
  // `unshare -n` gives the child an empty network namespace (needs root or user namespaces).
  const canIsolate = spawnSync('unshare', ['-n', 'true']).status === 0;
  // tesseract.js's worker thread inherits `--import tsx`, which resolves from the cwd: pass it by path.
  const tsxLoader = import.meta.resolve('tsx');
  let workDir: string;
  let scriptDir: string;
  before(() => {
    workDir = mkdtempSync(join(tmpdir(), 'mimoto-ocr-cwd-'));
    scriptDir = mkdtempSync(join(tmpdir(), 'mimoto-ocr-script-'));
  });
  after(() => {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(scriptDir, { recursive: true, force: true });
  });

  function runChild(prefix: string[]) {
    const script = `
      const { createOcrEngine } = await import(${JSON.stringify(join(repoRoot, 'src/checks/ocr/ocr-engine.ts'))});
      const { renderTextImage } = await import(${JSON.stringify(join(repoRoot, 'test/checks/ocr/render-text-image.ts'))});
      const png = await renderTextImage([{ text: '山田 123', x: 20, y: 60, size: 40 }], 300, 90);
      const engine = await createOcrEngine();
      const r = await engine.recognize(png);
      await engine.terminate();
      console.log(JSON.stringify(r.text.replace(/\\s+/g, '')));
    `;
    // A file, not -e: the worker thread inherits execArgv, and --input-type breaks it.
    const scriptFile = join(scriptDir, 'read-card.mts');
    writeFileSync(scriptFile, script);
    const [command, ...args] = [...prefix, process.execPath, '--import', tsxLoader, scriptFile];
    return spawnSync(command as string, args, { cwd: workDir, encoding: 'utf8', timeout: 60_000 });
  }

  it('loads and reads with the network unreachable', {
    skip: canIsolate ? false : 'unshare -n not permitted here',
  }, () => {
    const child = runChild(['unshare', '-n']);
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), '"山田123"');
  });

  it('writes nothing into the working directory', () => {
    // tesseract.js's default cacheMethod would leave jpn.traineddata and eng.traineddata here.
    const child = runChild([]);
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(readdirSync(workDir), []);
  });
});
