// A crop's pixels prepared before Tesseract reads them: cut out, thresholded, its rules erased,
// stretched.
import sharp from 'sharp';
import type { GreyImage } from './find-document.ts';

/** Otsu's threshold over 8-bit values. */
export function otsuThreshold(values: Uint8Array): number {
  const histogram = new Array<number>(256).fill(0);
  for (const v of values) histogram[v] = (histogram[v] ?? 0) + 1;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (histogram[i] ?? 0);
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    below += histogram[t] ?? 0;
    if (below === 0 || below === total) continue;
    sumBelow += t * (histogram[t] ?? 0);
    const m0 = sumBelow / below;
    const m1 = (sum - sumBelow) / (total - below);
    const between = below * (total - below) * (m0 - m1) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** The pixels of `box` (clamped to the image, at least one pixel) as a grey image of their own. */
export function cutGrey(
  image: GreyImage,
  box: { left: number; top: number; width: number; height: number },
): { data: Uint8Array; width: number; height: number } {
  const left = Math.max(0, Math.round(box.left));
  const top = Math.max(0, Math.round(box.top));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box.height)));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(
      image.data.subarray((top + y) * image.width + left, (top + y) * image.width + left + width),
      y * width,
    );
  return { data, width, height };
}

/**
 * A crop prepared for a line Tesseract read as nothing: the ruled lines around the value whitened
 * (a dark run across most of a row, a box's top or bottom rule; a dark run down most of a column,
 * its sides — glyph strokes are shorter), and blank gaps wider than half a glyph shortened. The
 * official licence boxes its name in rules and spreads it over the box (見　本　　花　子, gaps of
 * one to three glyphs): the jpn model reads such a line as nothing at most scales, and reads it
 * at every scale once the gaps are closed. A gap keeps part of its width beyond half a glyph, so
 * the one between surname and given name stays the widest (splitNameLine).
 */
export async function cropWithoutRules(
  image: GreyImage,
  box: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const { data: out, width, height } = cutGrey(image, box);
  const threshold = otsuThreshold(out);
  const sorted = Uint8Array.from(out).sort();
  const paper = sorted[Math.floor(sorted.length * 0.6)] ?? 255;
  const dark = (i: number) => (out[i] ?? 255) <= threshold;
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    if (n > width * 0.5) out.fill(paper, y * width, (y + 1) * width);
  }
  const ink = new Array<number>(width).fill(0);
  for (let x = 0; x < width; x++) {
    let run = 0;
    let longest = 0;
    for (let y = 0; y < height; y++) {
      if (dark(y * width + x)) {
        ink[x] = (ink[x] ?? 0) + 1;
        longest = Math.max(longest, ++run);
      } else run = 0;
    }
    if (longest > height * 0.7) {
      for (let y = 0; y < height; y++) out[y * width + x] = paper;
      ink[x] = 0;
    }
  }
  // The glyphs' height: the rows that hold ink once the rules are gone.
  let first = height;
  let last = -1;
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) if (dark(y * width + x)) n++;
    if (n >= 2) {
      first = Math.min(first, y);
      last = y;
    }
  }
  const glyph = Math.max(8, last - first + 1);
  const keep: number[] = [];
  let gap: number[] = [];
  const closeGap = () => {
    const allowed = Math.round(
      Math.min(gap.length, glyph * 0.5 + Math.max(0, gap.length - glyph * 0.5) * 0.25),
    );
    keep.push(...gap.slice(0, allowed));
    gap = [];
  };
  for (let x = 0; x < width; x++) {
    if ((ink[x] ?? 0) < 2) gap.push(x);
    else {
      closeGap();
      keep.push(x);
    }
  }
  closeGap();
  const squeezed = new Uint8Array(keep.length * height);
  for (let y = 0; y < height; y++)
    for (let i = 0; i < keep.length; i++)
      squeezed[y * keep.length + i] = out[y * width + (keep[i] ?? 0)] ?? paper;
  return sharp(Buffer.from(squeezed.buffer), {
    raw: { width: Math.max(1, keep.length), height, channels: 1 },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function stretch(png: Buffer, factor: number): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(png).metadata();
  return sharp(png)
    .resize({ width: Math.round(width * factor), height, fit: 'fill' })
    .png()
    .toBuffer();
}
