// A small zone's unchecked letters compared with its own glyphs: a cell takes a look-alike only
// when the zone's other cells of that letter match it clearly better. The zone is rendered by the
// test at a 22 px pitch, then blurred to about 5.5 px a character and back (as a small capture
// cut at 4× looks).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { GreyImage } from '../../../src/checks/ocr/find-document.ts';
import { type GlyphLine, reviseByZoneGlyphs } from '../../../src/checks/ocr/mrz-glyphs.ts';
import { renderTextImage } from './render-text-image.ts';

const PITCH = 22;
const LEFT = 20;
const BASELINE = 40;
const TEXT = 'DOODOQDODOODDO';

async function smallZone(text: string): Promise<{ image: GreyImage; line: GlyphLine }> {
  const width = LEFT * 2 + text.length * PITCH;
  const height = 60;
  const png = await renderTextImage(
    [...text].map((c, i) => ({ text: c, x: LEFT + 2 + i * PITCH, y: BASELINE, size: 30 })),
    width,
    height,
  );
  // Down to a quarter (5.5 px a character) and back: the strokes telling D from O blur.
  const small = await sharp(png)
    .resize(Math.round(width / 4), Math.round(height / 4))
    .png()
    .toBuffer();
  const { data, info } = await sharp(small)
    .resize(width, height)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: { data: new Uint8Array(data), width: info.width, height: info.height },
    line: { top: BASELINE - 26, bottom: BASELINE + 4, origin: LEFT, pitch: PITCH },
  };
}

const everyCell = (n: number): [number, number][] => Array.from({ length: n }, (_, i) => [0, i]);
const swap = (s: string, i: number, c: string) => s.slice(0, i) + c + s.slice(i + 1);

describe('reviseByZoneGlyphs', () => {
  let zone: { image: GreyImage; line: GlyphLine };
  before(async () => {
    zone = await smallZone(TEXT);
  });

  it('leaves a reading that matches its glyphs as read', () => {
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [TEXT], everyCell(TEXT.length));
    assert.deepEqual(out.revisions, []);
    assert.equal(out.chars[0], TEXT);
  });

  it("gives a D read as O back its letter, from the zone's other D's", () => {
    const misread = swap(TEXT, 8, 'O');
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [misread], everyCell(TEXT.length));
    assert.equal(out.chars[0], TEXT);
    assert.deepEqual(out.revisions, [{ line: 0, index: 8, from: 'O', to: 'D' }]);
  });

  it('gives an O read as D back its letter', () => {
    const misread = swap(TEXT, 2, 'D');
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [misread], everyCell(TEXT.length));
    assert.equal(out.chars[0], TEXT);
  });

  it('changes only the cells it is asked about', () => {
    const misread = swap(TEXT, 8, 'O');
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [misread], [[0, 3]]);
    assert.equal(out.chars[0], misread);
  });

  it('fills a cell where nothing was read with the letter its glyph matches', () => {
    const unread = swap(TEXT, 4, '?');
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [unread], everyCell(TEXT.length));
    assert.equal(out.chars[0], TEXT);
  });

  it('leaves a letter no other cell holds as read: there is nothing to compare it with', () => {
    // The zone's one Q, and an O read as a look-alike that appears nowhere else.
    const out = reviseByZoneGlyphs(zone.image, [zone.line], [swap(TEXT, 9, 'G')], everyCell(TEXT.length));
    assert.equal(out.chars[0]?.[5], 'Q');
    assert.equal(out.chars[0]?.[9], 'G');
  });
});
