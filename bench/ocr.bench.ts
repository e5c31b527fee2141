// OCR engine figures: load time, time per recognition (p50/p95) and character accuracy on
// card-sized (1000x630) images of Japanese identity text, clean and degraded (640 px, blur, noise, JPEG).
//
//   node --import tsx bench/ocr.bench.ts [--images N] [--workers N] [--corpus]
//
// --corpus also runs the raw engine on the front image of every sample in
// test/fixtures/corpus/manifest.json (made by `mimoto synth`): photographs, not rectified, so the
// figures are a baseline for what the OCR check's own preprocessing has to add.
//
// Images are rendered with Noto Sans JP (npm) so the figures do not depend on system fonts.

import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { createOcrEngine, type OcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { findJapaneseDates, normalizeJapaneseText } from '../src/japanese/index.ts';
import { percentile } from '../src/platform/math/percentile.ts';
import { renderTextImage } from '../test/checks/ocr/render-text-image.ts';
import { compact, levenshtein } from '../test/checks/ocr/text-accuracy.ts';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '8' },
    workers: { type: 'string', default: '2' },
    corpus: { type: 'boolean', default: false },
  },
});
const imageCount = Number(values.images);
const poolSize = Number(values.workers);

const LAST = ['山田', '佐藤', '鈴木', '高橋', '田中', '渡辺', '伊藤', '中村', '小林', '加藤'];
const FIRST = ['太郎', '花子', '健一', '美咲', '大輔', '陽子', '翔太', '恵子', '直樹', '由美'];
const ERA_DATES = [
  '昭和63年12月31日',
  '平成2年4月1日',
  '昭和55年7月15日',
  '平成11年11月3日',
  '昭和47年2月29日',
];
const ADDRESSES = [
  '東京都千代田区霞が関1丁目2番3号',
  '大阪府大阪市北区梅田3丁目1番1号',
  '神奈川県横浜市中区本町6丁目50番地',
  '愛知県名古屋市中村区名駅4丁目7番1号',
  '北海道札幌市中央区北1条西2丁目',
];

interface Card {
  lines: string[];
  png: Buffer;
}

function cardLines(i: number): string[] {
  const pick = <T>(list: readonly T[], k: number) => list[k % list.length] as T;
  const number = String(100000000000 + ((i * 7919 * 104729) % 899999999999)).padStart(12, '0');
  return [
    `氏名 ${pick(LAST, i)} ${pick(FIRST, i * 3 + 1)}`,
    `${pick(ERA_DATES, i)}生`,
    `住所 ${pick(ADDRESSES, i * 2)}`,
    `番号 ${number}`,
    `No. ${number} DRIVER LICENSE`,
  ];
}

async function renderCard(lines: string[]): Promise<Buffer> {
  return renderTextImage(
    lines.map((text, k) => ({ text, x: 40, y: 80 + k * 70, size: k === 0 ? 40 : 32 })),
    1000,
    630,
    '#f4f1e8',
  );
}

/** A phone capture, roughly: 640 px wide (text ~20 px high), slight blur, sensor noise, JPEG at quality 60. */
async function degrade(png: Buffer, seed: number): Promise<Buffer> {
  const { data, info } = await sharp(png).resize(640).blur(0.8).raw().toBuffer({ resolveWithObject: true });
  let state = seed * 2654435761;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  for (let k = 0; k < data.length; k++) {
    const noise = (random() + random() + random() - 1.5) * 24;
    data[k] = Math.max(0, Math.min(255, (data[k] as number) + noise));
  }
  return sharp(data, { raw: info }).jpeg({ quality: 60 }).toBuffer();
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

async function measure(engine: OcrEngine, cards: Card[], mode: 'page' | 'lines') {
  const times: number[] = [];
  let chars = 0;
  let errors = 0;
  let exactLines = 0;
  let lineCount = 0;
  for (const card of cards) {
    const t = performance.now();
    const result = mode === 'page' ? await engine.recognize(card.png) : await engine.readLines(card.png);
    times.push(performance.now() - t);
    const read = result.lines.map((l) => compact(l.text));
    const expected = card.lines.map(compact);
    errors += levenshtein(read.join(''), expected.join(''));
    chars += [...expected.join('')].length;
    lineCount += expected.length;
    exactLines += expected.filter((line) => read.includes(line)).length;
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    characterAccuracy: 1 - errors / chars,
    lineExactRate: exactLines / lineCount,
  };
}

async function main() {
  const clean: Card[] = [];
  const degraded: Card[] = [];
  for (let i = 0; i < imageCount; i++) {
    const lines = cardLines(i);
    const png = await renderCard(lines);
    clean.push({ lines, png });
    degraded.push({ lines, png: await degrade(png, i + 1) });
  }

  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const engine = await createOcrEngine({ languages: ['jpn', 'eng'] });
  const loadMs = performance.now() - t;
  const rssAfterLoad = process.memoryUsage().rss;

  t = performance.now();
  await engine.recognize(clean[0]?.png as Buffer);
  const firstMs = performance.now() - t;

  const c = await measure(engine, clean, 'page');
  const d = await measure(engine, degraded, 'page');
  const cl = await measure(engine, clean, 'lines');
  const dl = await measure(engine, degraded, 'lines');
  const rssAfter = process.memoryUsage().rss;
  await engine.terminate();

  // Throughput with a pool: every image at once.
  t = performance.now();
  const pool = await createOcrEngine({ languages: ['jpn', 'eng'], workers: poolSize });
  const poolLoadMs = performance.now() - t;
  await Promise.all(clean.slice(0, poolSize).map((card) => pool.recognize(card.png)));
  const all = [...clean, ...degraded];
  t = performance.now();
  await Promise.all(all.map((card) => pool.recognize(card.png)));
  const poolSeconds = (performance.now() - t) / 1000;
  await pool.terminate();

  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
  console.log(
    `OCR engine bench — tesseract.js 7, jpn+eng, ${imageCount} card images 1000x630 (clean) and 640 px (degraded)`,
  );
  console.log(`  engine load (1 worker, cold):     ${ms(loadMs)}`);
  console.log(`  first recognition (warm-up):      ${ms(firstMs)}`);
  const row = (label: string, r: Awaited<ReturnType<typeof measure>>) =>
    console.log(
      `  ${label.padEnd(30)} p50 ${ms(r.p50)}, p95 ${ms(r.p95)}; character accuracy ${(r.characterAccuracy * 100).toFixed(1)} %, lines read exactly ${(r.lineExactRate * 100).toFixed(1)} %`,
    );
  row('recognize (page), clean:', c);
  row('recognize (page), degraded:', d);
  row('readLines, clean:', cl);
  row('readLines, degraded:', dl);
  console.log(
    `  pool of ${poolSize} workers (recognize): load ${ms(poolLoadMs)}, ${all.length} images in ${poolSeconds.toFixed(1)} s = ${(all.length / poolSeconds).toFixed(2)} images/s`,
  );
  console.log(
    `  RSS: ${mb(rssBefore)} before, ${mb(rssAfterLoad)} after load, ${mb(rssAfter)} after the runs (1 worker)`,
  );
}

interface CorpusSample {
  id: string;
  quality: string;
  files: { front: string };
  truth: { lastName: string; firstName: string; birthDate: string; documentNumber: string };
}

/** Share of corpus fronts whose raw OCR text contains each true field, by capture quality. */
async function corpusBaseline() {
  const root = new URL('../test/fixtures/corpus/', import.meta.url);
  const manifestUrl = new URL('manifest.json', root);
  if (!existsSync(manifestUrl)) {
    console.log('  corpus: test/fixtures/corpus/manifest.json not found, skipped');
    return;
  }
  const samples = (JSON.parse(readFileSync(manifestUrl, 'utf8')) as { samples: CorpusSample[] }).samples;
  const engine = await createOcrEngine();
  const tally = new Map<
    string,
    { n: number; last: number; first: number; birth: number; number: number; ms: number[] }
  >();
  for (const sample of samples) {
    const image = readFileSync(new URL(sample.files.front, root));
    const t = performance.now();
    const result = await engine.readLines(image);
    const elapsed = performance.now() - t;
    const text = normalizeJapaneseText(result.text);
    const has = (v: string) => (text.includes(normalizeJapaneseText(v)) ? 1 : 0);
    const row = tally.get(sample.quality) ?? { n: 0, last: 0, first: 0, birth: 0, number: 0, ms: [] };
    row.n++;
    row.last += has(sample.truth.lastName);
    row.first += has(sample.truth.firstName);
    row.birth += findJapaneseDates(result.text).some((d) => d.date === sample.truth.birthDate) ? 1 : 0;
    row.number += has(sample.truth.documentNumber);
    row.ms.push(elapsed);
    tally.set(sample.quality, row);
  }
  await engine.terminate();
  console.log('  corpus fronts, raw readLines (no card detection or rectification):');
  for (const [quality, r] of tally) {
    const pct = (k: number) => `${((k / r.n) * 100).toFixed(0)} %`;
    const sorted = [...r.ms].sort((a, b) => a - b);
    console.log(
      `    ${quality.padEnd(8)} n=${r.n}: lastName ${pct(r.last)}, firstName ${pct(r.first)}, birthDate ${pct(r.birth)}, documentNumber ${pct(r.number)}; p50 ${ms(percentile(sorted, 50))}`,
    );
  }
}

await main();
if (values.corpus) await corpusBaseline();
