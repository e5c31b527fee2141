import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { cutBand, decodeForMrz, rankMrzBands, lineRows } from '../src/checks/ocr/locate-mrz.ts';
const img = await sharp(readFileSync(process.argv[2]!)).rotate(Number(process.argv[3])).jpeg({ quality: 92 }).toBuffer();
const photo = await decodeForMrz(img);
const { band } = rankMrzBands(photo)[0]!;
const cut = cutBand(photo, band, false, 4);
console.log(lineRows(cut));
await sharp(Buffer.from(cut.data), { raw: { width: cut.width, height: cut.height, channels: 1 } }).png().toFile('/tmp/h42/cut180.png');
