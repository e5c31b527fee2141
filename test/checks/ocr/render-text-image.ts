// Renders lines of text to a PNG for OCR tests, with Noto Sans JP from an npm package turned into
// SVG paths (opentype.js), so the image never depends on the machine's system fonts.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';

const require = createRequire(import.meta.url);

// opentype.js ships no type declarations; this is the part we use.
type PathCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };
interface OpentypeFont {
  getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] };
}
const opentype = require('opentype.js') as { parse(buffer: ArrayBuffer): OpentypeFont };

let font: OpentypeFont | undefined;
function loadFont(): OpentypeFont {
  if (!font) {
    const file = require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf');
    const bytes = readFileSync(file);
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return font;
}

export interface TextLine {
  text: string;
  x: number;
  /** Baseline y. */
  y: number;
  size: number;
}

// Not opentype.js's own toPathData: its rounding cache turns coordinates whose fractional part is
// tiny (e.g. 2.8e-14) into "NaN", which silently drops glyphs from the SVG.
function toSvgPathData(commands: readonly PathCommand[]): string {
  const n = (v: number) => (Math.round(v * 100) / 100).toString();
  return commands
    .map((c) => {
      switch (c.type) {
        case 'M':
        case 'L':
          return `${c.type}${n(c.x)} ${n(c.y)}`;
        case 'Q':
          return `Q${n(c.x1)} ${n(c.y1)} ${n(c.x)} ${n(c.y)}`;
        case 'C':
          return `C${n(c.x1)} ${n(c.y1)} ${n(c.x2)} ${n(c.y2)} ${n(c.x)} ${n(c.y)}`;
        default:
          return 'Z';
      }
    })
    .join('');
}

/** Renders black text on a white (or given) background into a PNG of width×height pixels. */
export async function renderTextImage(
  lines: readonly TextLine[],
  width: number,
  height: number,
  background = '#ffffff',
): Promise<Buffer> {
  const f = loadFont();
  const paths = lines.map(
    (l) => `<path d="${toSvgPathData(f.getPath(l.text, l.x, l.y, l.size).commands)}" fill="#111"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${paths.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
