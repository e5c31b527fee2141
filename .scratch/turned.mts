import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { decodeForMrz, findMrz, rankMrzBands } from '../src/checks/ocr/locate-mrz.ts';
import { getOcrEngineFor, terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
const file = process.argv[2]!;
const mrz = await getOcrEngineFor(['mrz']); const eng = await getOcrEngineFor(['eng']);
for (const turn of [0, 90, 180, 270]) {
  const img = await sharp(readFileSync(file)).rotate(turn).jpeg({ quality: 92 }).toBuffer();
  const photo = await decodeForMrz(img);
  const bands = rankMrzBands(photo).slice(0, 4).map(({band, fit}) => `${band.cx.toFixed(0)},${band.cy.toFixed(0)} len ${band.length.toFixed(0)} th ${band.thickness.toFixed(0)} ang ${(band.angle*180/Math.PI).toFixed(0)} lines ${band.lines} fit ${fit.toFixed(2)}`);
  const f = await findMrz(mrz, img, eng);
  console.log(turn, photo.width, photo.height, f?.reading.valid, f?.reading.lines.join(' / '));
  console.log('   ', bands.join('\n    '));
}
await terminateOcrEngine();
