// The fine print security documents carry behind their fields (ICAO 9303 Part 2 §5: background
// security printing): guilloche (interlaced sine waves), fine-line tints, microtext rows and
// rainbow (split-fountain) printing, drawn on a card-sized sheet with a few dark blocks where its
// fields and MRZ would stand. What the document check's screen cue must not take for a display:
// printed ink darkens red, green and blue together, at whatever period the print has.

import { Random } from './random.ts';
import type { FlatImage } from './render-document.ts';

export const SECURITY_PATTERNS = ['guilloche', 'fine_lines', 'microtext', 'rainbow'] as const;
export type SecurityPattern = (typeof SECURITY_PATTERNS)[number];

/** Hue (0–1) to an RGB ink, lightened towards the paper by `pale` (0–1). */
function hueInk(h: number, pale: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return 1 - Math.max(0, Math.min(1, Math.min(k, 4 - k)));
  };
  return [f(5), f(3), f(1)].map((v) => Math.round(255 * (v * (1 - pale) + pale))) as [number, number, number];
}

/**
 * A card-sized sheet (`width` × 0.63 `width`, RGBA) printed with one security pattern. `period` is
 * the print's line spacing in sheet pixels (2.5–7: photographed on a phone at 1280 px across, the
 * sheet some 700 px wide, 2–5 photo pixels).
 */
export function drawSecurityPrint(pattern: SecurityPattern, seed: number, width = 1000): FlatImage {
  const random = new Random(`security-print:${pattern}:${seed}`);
  const height = Math.round(width * 0.63);
  const data = Buffer.alloc(width * height * 4);
  const period = random.range(2.5, 7);
  const hue = random.range(0, 1);
  const ink = hueInk(hue, random.range(0.2, 0.55));
  const amplitude = random.range(0.5, 3) * period;
  const wave = random.range(40, 160);
  const angle = random.range(0, Math.PI);
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const paper: [number, number, number] = [random.int(238, 250), random.int(236, 248), random.int(228, 244)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const u = x * ux + y * uy;
      const v = -x * uy + y * ux;
      let cover = 0;
      let colour = ink;
      if (pattern === 'guilloche') {
        // Two families of sine waves crossing: the interlaced mesh of a banknote's or passport's border.
        const a = Math.cos((2 * Math.PI * (v + amplitude * Math.sin((2 * Math.PI * u) / wave))) / period);
        const b = Math.cos((2 * Math.PI * (v - amplitude * Math.sin((2 * Math.PI * u) / wave))) / period);
        cover = Math.max(a, b) > 0.7 ? 0.8 : 0;
      } else if (pattern === 'fine_lines') {
        cover = Math.cos((2 * Math.PI * v) / period) > 0.5 ? 0.7 : 0;
      } else if (pattern === 'microtext') {
        // Rows of glyphs a period tall: strokes of one pixel, spaced as letters are.
        const row = Math.floor(v / (period * 1.6));
        const inRow = v - row * period * 1.6 < period;
        const cell = Math.floor(u / (period * 0.7));
        const h = Math.sin(row * 12.9898 + cell * 78.233) * 43758.5453;
        cover = inRow && h - Math.floor(h) > 0.45 ? 0.85 : 0;
      } else {
        // Split-fountain: the ink's hue runs across the sheet, printed as fine lines on a tint.
        colour = hueInk((hue + x / width) % 1, 0.35);
        cover = Math.cos((2 * Math.PI * v) / period) > 0.3 ? 0.75 : 0.25;
      }
      for (let c = 0; c < 3; c++)
        data[o + c] = Math.round((paper[c] as number) * (1 - cover) + (colour[c] as number) * cover);
      data[o + 3] = 255;
    }
  }
  // The fields and the MRZ: dark blocks of text height at a document's places.
  const block = (x0: number, y0: number, w: number, h: number) => {
    for (let y = Math.round(y0); y < Math.min(height, y0 + h); y++)
      for (let x = Math.round(x0); x < Math.min(width, x0 + w); x++) {
        const o = (y * width + x) * 4;
        // Glyph-like gaps so the blocks read as words, not bars.
        if ((x - Math.round(x0)) % 11 < 8) data[o] = data[o + 1] = data[o + 2] = 30;
      }
  };
  for (let i = 0; i < 5; i++)
    block(width * 0.36, height * (0.14 + 0.11 * i), width * random.range(0.25, 0.5), height * 0.04);
  block(width * 0.05, height * 0.8, width * 0.9, height * 0.045);
  block(width * 0.05, height * 0.89, width * 0.9, height * 0.045);
  return { data, width, height };
}
