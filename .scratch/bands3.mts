import { decodeForMrz, rankMrzBands, cutBand, lineRows, cellsOf } from '/work/h42/src/checks/ocr/locate-mrz.ts';
import { getOcrEngineFor, terminateOcrEngine } from '/work/h42/src/checks/ocr/ocr-engine.ts';
import { mrzCapture } from '/work/h42/src/synth/mrz-captures.ts';
import sharp from 'sharp';
const [seed, scene, width] = process.argv.slice(2);
const c = await mrzCapture(Number(seed), scene as never, Number(width));
const photo = await decodeForMrz(c.image);
const b = rankMrzBands(photo)[0]!;
const mrz = await getOcrEngineFor(['mrz']);
for (const k of [Math.min(4, 32*29/b.length), 4*1.25, 6, 8]) {
  const cut = cutBand(photo, b, false, k);
  const rows = lineRows(cut);
  const cells = rows.map(r => cellsOf(cut, r, rows.length === 3 ? 30 : 44));
  const png = await sharp(Buffer.from(cut.data), { raw: { width: cut.width, height: cut.height, channels: 1 } }).png().toBuffer();
  await sharp(png).toFile(`/tmp/h42/cut-${k.toFixed(1)}.png`);
  const ocr = await mrz.recognize(png, { psm: '6', charWhitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<' });
  console.log(k.toFixed(2), cut.width, cut.height, 'rows', rows.map(r => `${r.top}-${r.bottom}:${r.left}-${r.right}`).join(' '), 'fill', cells.map(c => c.filler.filter(Boolean).length), 'turn', cells.map(c => c.turned.filter(Boolean).length));
  console.log(ocr.lines.map(l => l.text.trim()).join(' / '));
}
await terminateOcrEngine();
