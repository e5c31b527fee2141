// The second recogniser (PaddleOCR's Japanese line model, in a thread of its own) reads a printed
// field line as printed, and a field the two recognisers read differently is not passed as sure.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { recogniseLine, terminateLineRecogniser } from '../../../src/checks/ocr/line-recogniser.ts';
import type { OcrEngine } from '../../../src/checks/ocr/ocr-engine.ts';
import { readRegion } from '../../../src/checks/ocr/read-region.ts';
import { renderTextImage } from './render-text-image.ts';

after(() => terminateLineRecogniser());

const line = (text: string, width = 900) => renderTextImage([{ text, x: 12, y: 44, size: 36 }], width, 60);

describe('the line recogniser', () => {
  it('reads an address line and a date as printed, digits half width', async () => {
    const address = await recogniseLine(await line('東京都千代田区霞が関2丁目1番1号'));
    assert.equal(address.text, '東京都千代田区霞が関2丁目1番1号');
    assert.ok(address.confidence > 80, `confidence ${address.confidence}`);
    const date = await recogniseLine(await line('昭和40年4月12日生', 500));
    assert.equal(date.text, '昭和40年4月12日生');
  });

  it("gives each glyph its place on the line, so a name's widest gap is where the surname ends", async () => {
    const r = await recogniseLine(await line('山田　　太郎', 400));
    assert.equal(r.text.replace(/\s/g, ''), '山田太郎');
    const gaps = r.words.slice(1).map((w, i) => w.bbox.x0 - (r.words[i] as (typeof r.words)[0]).bbox.x1);
    assert.equal(gaps.indexOf(Math.max(...gaps)), 1, `gaps ${gaps.join(', ')}`);
  });

  it('reads a blank crop as nothing', async () => {
    const blank = await sharp({ create: { width: 300, height: 50, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    assert.equal((await recogniseLine(blank)).text, '');
  });

  it('starts a new thread after it was stopped, and reads the same', async () => {
    const png = await line('大阪府大阪市北区梅田1丁目', 600);
    const before = await recogniseLine(png);
    await terminateLineRecogniser();
    const again = await recogniseLine(png);
    assert.deepEqual(again, before);
  });
});

describe('a field read by two recognisers', () => {
  const page = { data: new Uint8Array(100 * 20).fill(255), width: 100, height: 20 };
  const layout = { width: 100, height: 20, scale: 1 };
  const kanji = (t: string) => /^\p{Script=Han}{2,8}$/u.test(t.replace(/\s/g, ''));
  const confirm = { below: 0.7, value: (r: { text: string }) => r.text.replace(/\s/g, '') || undefined };
  // Tesseract reads the crop by its width (100 px at 1×, 140 at 1.4×, 75 at 0.75×, 170 at 1.7×).
  const engine = (tesseract: Record<number, string>, second: string, confidence = 92) =>
    ({
      model: 'fake',
      isHealthy: true,
      recognize: async (png: Buffer) => {
        const { width = 0 } = await sharp(png).metadata();
        return { text: tesseract[width] ?? '', confidence, words: [], lines: [] };
      },
      secondOpinion: async () => ({ text: second, confidence: 95, words: [], lines: [] }),
    }) as unknown as OcrEngine;

  it('is confirmed when both read it alike', async () => {
    const r = await readRegion(engine({ 100: '佐藤 花子' }, '佐藤花子'), page, [0, 0, 100, 20], layout, {
      accept: kanji,
      confirm,
    });
    assert.equal(r.text, '佐藤 花子');
    assert.equal(r.confidence, 0.95);
    assert.equal(r.confirmation?.text, '佐藤花子');
  });

  it('is unsure when they differ and no other reading agrees with either', async () => {
    const r = await readRegion(
      engine({ 100: '吉田 凛', 140: '吉田 凜', 75: '吉田 漂', 170: '吉田 澟' }, '吉田源'),
      page,
      [0, 0, 100, 20],
      layout,
      { accept: kanji, confirm },
    );
    assert.equal(r.text, '吉田 凛');
    assert.ok(r.confidence <= 0.65, `confidence ${r.confidence}`);
    assert.equal(r.confirmation, null);
  });

  it("takes the second recogniser's reading where another reading agrees with it", async () => {
    const r = await readRegion(
      engine({ 100: '五白旗頭 千尋', 140: '五百旗頭 千尋' }, '五百旗頭千尋'),
      page,
      [0, 0, 100, 20],
      layout,
      { accept: kanji, confirm },
    );
    assert.equal(r.text, '五百旗頭千尋');
    assert.equal(r.confirmation?.text, '五百旗頭 千尋');
  });

  it('holds a key value only the second recogniser reads below the confirm threshold', async () => {
    const r = await readRegion(engine({}, '島川舞'), page, [0, 0, 100, 20], layout, {
      accept: kanji,
      confirm,
    });
    assert.equal(r.text, '島川舞');
    assert.ok(r.confidence <= 0.65, `confidence ${r.confidence}`);
  });

  it("takes the second recogniser's fitting reading of a line Tesseract could not read", async () => {
    const r = await readRegion(engine({}, '村田真由美'), page, [0, 0, 100, 20], layout, { accept: kanji });
    assert.equal(r.text, '村田真由美');
  });
});
