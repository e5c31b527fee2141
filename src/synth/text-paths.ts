// Text drawn as SVG paths from Noto Sans JP (Gothic) or Noto Serif JP (Mincho), both SIL OFL and
// shipped by @expo-google-fonts, so the output does not depend on fonts installed on the machine.
// Real cards print their values in either face; the serif face also draws the registry variants
// (髙, 﨑, 𠮷) a Gothic-only corpus would never show the reader in Mincho.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import opentype, { type Font, type Path } from 'opentype.js';

const require = createRequire(import.meta.url);

export type FontWeight = 'regular' | 'bold';
export type Typeface = 'gothic' | 'mincho';

const FILES: Record<Typeface, { package: string; files: Record<FontWeight, string> }> = {
  gothic: {
    package: '@expo-google-fonts/noto-sans-jp',
    files: { regular: '400Regular/NotoSansJP_400Regular.ttf', bold: '700Bold/NotoSansJP_700Bold.ttf' },
  },
  mincho: {
    package: '@expo-google-fonts/noto-serif-jp',
    files: { regular: '400Regular/NotoSerifJP_400Regular.ttf', bold: '700Bold/NotoSerifJP_700Bold.ttf' },
  },
};

const fonts = new Map<string, Font>();

function loadFont(weight: FontWeight, family: Typeface = 'gothic'): Font {
  const key = `${family}:${weight}`;
  const cached = fonts.get(key);
  if (cached) return cached;
  const source = FILES[family];
  const dir = path.dirname(require.resolve(`${source.package}/package.json`));
  const buffer = readFileSync(path.join(dir, source.files[weight]));
  const font = opentype.parse(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
  fonts.set(key, font);
  return font;
}

export type TextStyle = {
  size: number;
  weight?: FontWeight;
  /** Gothic (the default) or Mincho. */
  family?: Typeface;
  fill?: string;
  /** Where x is: the start (default), the middle or the end of the text. */
  anchor?: 'start' | 'middle' | 'end';
  /** Extra space between characters, in px; also used to set fixed-pitch MRZ text. */
  letterSpacing?: number;
  /** Squeeze or stretch horizontally (1 = natural). */
  scaleX?: number;
  /** Draw each character in a cell of this width (monospace), centred in the cell. */
  monospace?: number;
};

/** Width of `text` in px at `style`. */
export function measureText(text: string, style: TextStyle): number {
  const font = loadFont(style.weight ?? 'regular', style.family);
  if (style.monospace) return style.monospace * [...text].length;
  const spacing = (style.letterSpacing ?? 0) * Math.max(0, [...text].length - 1);
  return (font.getAdvanceWidth(text, style.size) + spacing) * (style.scaleX ?? 1);
}

/** An SVG `<path>` drawing `text` with its baseline at (x, y). */
export function textPath(text: string, x: number, y: number, style: TextStyle): string {
  const font = loadFont(style.weight ?? 'regular', style.family);
  const fill = style.fill ?? '#1a1a1a';
  const width = measureText(text, style);
  const left = style.anchor === 'middle' ? x - width / 2 : style.anchor === 'end' ? x - width : x;
  const scaleX = style.scaleX ?? 1;
  let d = '';
  if (style.monospace || style.letterSpacing) {
    let cursor = 0;
    for (const ch of text) {
      const advance = font.getAdvanceWidth(ch, style.size);
      const cellX = style.monospace ? cursor + (style.monospace - advance) / 2 : cursor;
      d += pathData(font.getPath(ch, cellX, 0, style.size));
      cursor += style.monospace ?? advance + (style.letterSpacing ?? 0);
    }
  } else {
    d = pathData(font.getPath(text, 0, 0, style.size));
  }
  const transform = `translate(${round(left)} ${round(y)})${scaleX !== 1 ? ` scale(${round(scaleX)} 1)` : ''}`;
  return `<path transform="${transform}" fill="${fill}" d="${d}"/>`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * SVG path data from glyph outline commands. opentype.js 2.0's own toPathData emits NaN for some
 * glyphs (its optimiser divides by zero on repeated points), which makes librsvg drop the rest.
 */
function pathData(path: Path): string {
  const n = (v: number) => (Math.round(v * 100) / 100).toString();
  let d = '';
  for (const c of path.commands) {
    if (c.type === 'Z') d += 'Z';
    else if (c.type === 'M' || c.type === 'L') d += `${c.type}${n(c.x)} ${n(c.y)}`;
    else if (c.type === 'Q') d += `Q${n(c.x1)} ${n(c.y1)} ${n(c.x)} ${n(c.y)}`;
    else d += `C${n(c.x1)} ${n(c.y1)} ${n(c.x2)} ${n(c.y2)} ${n(c.x)} ${n(c.y)}`;
  }
  return d;
}
