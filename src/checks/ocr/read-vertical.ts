// A vertically printed title read as one horizontal line.
import sharp from 'sharp';
import { CARD_LAYOUT, type Region, toPixels } from './document-regions.ts';
import type { GreyImage } from './find-document.ts';
import { type OcrEngine, PAGE_SEGMENTATION } from './ocr-engine.ts';
import { cutGrey, otsuThreshold } from './prepare-crop.ts';

/**
 * Text printed vertically (the official licence's 運転免許証 beside the photo), read as one line:
 * the column is cut into its character cells, laid side by side with paper between them (the jpn
 * model reads only horizontal lines; each glyph stands upright in both). Dark runs down most of
 * the column (the photo's edge, a rule) are whitened first, and the cells divide the column's
 * inked extent rather than the zone: a card rectified a little off its outline shifts the title
 * by a third of a glyph, which cut every glyph in two.
 */
export async function readVertical(engine: OcrEngine, card: GreyImage, region: Region, cells: number) {
  const box = toPixels(region, CARD_LAYOUT);
  const { data: column, width, height } = cutGrey(card, box);
  const threshold = otsuThreshold(column);
  const sorted = Uint8Array.from(column).sort();
  const paper = sorted[Math.floor(sorted.length * 0.7)] ?? 255;
  const dark = (i: number) => (column[i] ?? 255) <= threshold;
  const erase = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    let run = 0;
    let longest = 0;
    for (let y = 0; y < height; y++) {
      run = dark(y * width + x) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    // A glyph's stroke is at most a cell tall; the photo's edge or a rule runs down most of the column.
    if (longest > (height / cells) * 1.5) erase[x] = 1;
  }
  // The photo's edge is a dark band several pixels wide: its anti-aliased neighbours go too.
  for (let x = 0; x < width; x++)
    if (erase[x] || erase[x - 1] || erase[x + 1])
      for (let y = 0; y < height; y++) column[y * width + x] = paper;
  // The title's own column: the band a glyph wide (a cell's height) that holds the most ink. What
  // lies beside it — the portrait's light background, a rule's stub, the licence-class table's
  // column — goes to paper: on a card read as the whole frame (a scan the card fills) the zone
  // catches them, and the jpn model read them as marks among the glyphs (| | 1 許証).
  const inkOf = new Array<number>(width).fill(0);
  for (let x = 0; x < width; x++)
    for (let y = 0; y < height; y++) if (dark(y * width + x)) inkOf[x] = (inkOf[x] ?? 0) + 1;
  const band = Math.min(width, Math.round((height / cells) * 1.15));
  let from = 0;
  let most = -1;
  for (let x = 0; x + band <= width; x++) {
    let sum = 0;
    for (let i = x; i < x + band; i++) sum += inkOf[i] ?? 0;
    if (sum > most) {
      most = sum;
      from = x;
    }
  }
  for (let x = 0; x < width; x++)
    if (x < from - 2 || x >= from + band + 2) for (let y = 0; y < height; y++) column[y * width + x] = paper;
  // The glyphs: runs of inked rows (a gap of a few rows inside a glyph does not split it). When
  // there are as many as cells, each is a cell; otherwise the inked extent is divided evenly.
  const inked = Array.from({ length: height }, (_, y) => {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    return n >= 2;
  });
  const runs: { from: number; to: number }[] = [];
  for (let y = 0; y < height; y++) {
    if (!inked[y]) continue;
    const previous = runs[runs.length - 1];
    if (previous && y - previous.to <= 3) previous.to = y + 1;
    else runs.push({ from: y, to: y + 1 });
  }
  const glyphs = runs.filter((r) => r.to - r.from >= height / cells / 4);
  const first = glyphs[0]?.from ?? 0;
  const last = glyphs[glyphs.length - 1]?.to ?? height;
  const extent = last - first > height * 0.5 ? { from: first, to: last } : { from: 0, to: height };
  const even = (extent.to - extent.from) / cells;
  const boxes =
    glyphs.length === cells
      ? glyphs.map((g) => ({ from: Math.max(0, g.from - 3), to: Math.min(height, g.to + 3) }))
      : Array.from({ length: cells }, (_, i) => ({
          from: Math.round(extent.from + i * even),
          to: Math.max(Math.round(extent.from + i * even) + 1, Math.round(extent.from + (i + 1) * even)),
        }));
  const h = Math.max(1, ...boxes.map((box) => box.to - box.from));
  const gap = Math.round(width * 0.4);
  const cleaned = sharp(Buffer.from(column.buffer), { raw: { width, height, channels: 1 } });
  const crops = await Promise.all(
    boxes.map((box) =>
      cleaned
        .clone()
        .extract({ left: 0, top: box.from, width, height: Math.min(height - box.from, box.to - box.from) })
        .png()
        .toBuffer(),
    ),
  );
  const line = await sharp({
    create: {
      width: (width + gap) * cells + width,
      height: h + 20,
      channels: 3,
      background: { r: paper, g: paper, b: paper },
    },
  })
    .composite(crops.map((input, i) => ({ input, left: Math.round(width / 2) + i * (width + gap), top: 10 })))
    .greyscale()
    .png()
    .toBuffer();
  const r = await engine.recognize(line, { psm: PAGE_SEGMENTATION.singleLine as never });
  return { text: r.text.trim(), confidence: r.confidence / 100 };
}
