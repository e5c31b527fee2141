// Telling look-alike glyphs of one small zone apart by the zone's own print. Every glyph of an MRZ
// is printed in the same OCR-B, at the same size, by the same printer and captured by the same
// camera, so the zone's other cells read as D are the best picture of what a D looks like in this
// photo — better than a model trained on other prints when glyphs span 5–6 photo pixels and the
// stroke that tells D from O, N from M or R from B is one pixel wide. The names and the issuing
// state carry no check digit, so nothing else in the zone can confirm their letters.
import type { GreyImage } from './find-document.ts';

/**
 * The grid a glyph is compared on: about the photo's own resolution at the sizes this is used
 * for (5–6.5 px a character), since sampling finer only adds interpolation noise.
 */
const GRID_W = 8;
const GRID_H = 12;

/** Shifts tried, in grid steps (the fitted cells are loose by a pixel or two). */
const SHIFTS: [number, number][] = [];
for (let dy = -1; dy <= 1; dy++) for (let dx = -2; dx <= 2; dx++) SHIFTS.push([dx, dy]);
const UNSHIFTED = SHIFTS.findIndex(([dx, dy]) => dx === 0 && dy === 0);

/**
 * How much closer to the other letter's cells than to its own reading's a glyph must be, and how
 * close to them at least (normalised correlation). Chosen on synthetic TD3 zones (the tests'
 * renderer, 4.8–6.4 px a character, blurred, JPEG; a scratch study, names rich in D O M N B R):
 * names exact 3 → 10 of 18 zones read, 25 letters restored, 1 correct letter changed; on a second
 * draw, not tuned on, 3 → 8 of 20, 20 restored, none changed (without the floor, 9 changed).
 * The bench:real zones under 6.5 px keep it (27_pass-gbr restored, 25_pass-uto unchanged).
 */
const MARGIN = 0.04;
const FLOOR = 0.85;

/**
 * Letters a blurred OCR-B glyph of 5–6 px passes for: round shapes; a stem with bowls or bars;
 * a stem with diagonals; narrow strokes; S and Z; the filler and the letters with arms at the right.
 */
const LOOKALIKES = ['ODQUCG', 'BRPEF', 'MNHW', 'ILTJ', 'SZ', 'KXCLE<', 'VYU'];

/** Whether a cell read as `from` may be `to`: a look-alike, or anything where no letter was read. */
function mayBe(from: string, to: string): boolean {
  if (!/[A-Z<]/.test(from)) return true;
  return LOOKALIKES.some((g) => g.includes(from) && g.includes(to));
}

/** One line's fixed-pitch cells (as `cellsOf` in locate-mrz.ts fits them). */
export interface GlyphLine {
  top: number;
  bottom: number;
  origin: number;
  pitch: number;
}

/** The grey level at (x, y) by bilinear interpolation, coordinates clamped to the image. */
export function sampleGrey(img: GreyImage, x: number, y: number): number {
  const x0 = Math.max(0, Math.min(img.width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(img.height - 1, Math.floor(y)));
  const x1 = Math.min(img.width - 1, x0 + 1);
  const y1 = Math.min(img.height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const d = img.data;
  const w = img.width;
  const top = (d[y0 * w + x0] as number) * (1 - fx) + (d[y0 * w + x1] as number) * fx;
  const bottom = (d[y1 * w + x0] as number) * (1 - fx) + (d[y1 * w + x1] as number) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** The cell's ink on the grid, shifted by (dx, dy) grid steps: zero mean, unit norm; undefined when blank. */
function glyphAt(
  img: GreyImage,
  line: GlyphLine,
  i: number,
  dx: number,
  dy: number,
): Float32Array | undefined {
  const x0 = line.origin + i * line.pitch;
  const sx = line.pitch / GRID_W;
  const sy = (line.bottom - line.top) / GRID_H;
  const out = new Float32Array(GRID_W * GRID_H);
  let mean = 0;
  for (let y = 0; y < GRID_H; y++)
    for (let x = 0; x < GRID_W; x++) {
      const v = 255 - sampleGrey(img, x0 + (x + 0.5 + dx) * sx - 0.5, line.top + (y + 0.5 + dy) * sy - 0.5);
      out[y * GRID_W + x] = v;
      mean += v;
    }
  mean /= out.length;
  let norm = 0;
  for (let k = 0; k < out.length; k++) {
    const v = (out[k] as number) - mean;
    out[k] = v;
    norm += v * v;
  }
  if (norm < 1e-6) return undefined;
  const s = 1 / Math.sqrt(norm);
  for (let k = 0; k < out.length; k++) out[k] = (out[k] as number) * s;
  return out;
}

/** A cell's glyph at every shift. */
type Glyph = Float32Array[];

function glyphOf(img: GreyImage, line: GlyphLine, i: number): Glyph | undefined {
  const at: Glyph = [];
  for (const [dx, dy] of SHIFTS) {
    const g = glyphAt(img, line, i, dx, dy);
    if (!g) return undefined;
    at.push(g);
  }
  return at;
}

/** Best correlation of `a` at any shift with `b` unshifted. */
function likeness(a: Glyph, b: Glyph): number {
  const centre = b[UNSHIFTED] as Float32Array;
  let best = -1;
  for (const g of a) {
    let dot = 0;
    for (let k = 0; k < g.length; k++) dot += (g[k] as number) * (centre[k] as number);
    if (dot > best) best = dot;
  }
  return best;
}

export interface GlyphRevision {
  line: number;
  index: number;
  from: string;
  to: string;
}

/**
 * The letters of `positions` (cells no check digit covers) re-read against the zone's own glyphs:
 * a cell takes a look-alike letter when its glyph is closer to the zone's other cells read as
 * that letter (the mean of the best two) than to those read as its own, by `MARGIN`, and close to
 * them (`FLOOR`). A letter no other cell holds cannot be judged and stays; a cell where nothing
 * was read (`?`) or a digit was takes the closest letter or filler. The surest change is made
 * first and the zone's readings updated before the next (a D misread as O would otherwise pull
 * a true O's glyph towards D).
 */
export function reviseByZoneGlyphs(
  img: GreyImage,
  lines: GlyphLine[],
  chars: string[],
  positions: [number, number][],
): { chars: string[]; revisions: GlyphRevision[] } {
  const glyphs = lines.map((line, l) => [...(chars[l] ?? '')].map((_, i) => glyphOf(img, line, i)));
  const labels = chars.map((line) => [...line]);
  const cache = new Map<string, number>();
  const like = (l: number, i: number, m: number, j: number): number => {
    const key = `${l},${i},${m},${j}`;
    let v = cache.get(key);
    if (v === undefined) {
      v = likeness(glyphs[l]?.[i] as Glyph, glyphs[m]?.[j] as Glyph);
      cache.set(key, v);
    }
    return v;
  };
  const scoreOf = (c: string, l: number, i: number): number | undefined => {
    const s: number[] = [];
    labels.forEach((line, m) => {
      line.forEach((d, j) => {
        if (d === c && (m !== l || j !== i) && glyphs[m]?.[j]) s.push(like(l, i, m, j));
      });
    });
    if (s.length === 0) return undefined;
    s.sort((a, b) => b - a);
    return s.length === 1 ? (s[0] as number) : ((s[0] as number) + (s[1] as number)) / 2;
  };
  const revisions: GlyphRevision[] = [];
  const revised = new Set<string>();
  for (let round = 0; round < positions.length; round++) {
    const present = new Set(labels.flat().filter((c) => /[A-Z<]/.test(c)));
    let pick: (GlyphRevision & { gain: number }) | undefined;
    for (const [l, i] of positions) {
      const from = labels[l]?.[i];
      if (!from || !glyphs[l]?.[i] || revised.has(`${l},${i}`)) continue;
      const own = from === '?' ? undefined : scoreOf(from, l, i);
      if (own === undefined && from !== '?') continue;
      let best: { c: string; s: number } | undefined;
      for (const c of present) {
        if (c === from || !mayBe(from, c)) continue;
        const s = scoreOf(c, l, i);
        if (s !== undefined && (!best || s > best.s)) best = { c, s };
      }
      if (!best || best.s < FLOOR) continue;
      const gain = own === undefined ? 1 : best.s - own;
      if (gain >= MARGIN && (!pick || gain > pick.gain)) pick = { line: l, index: i, from, to: best.c, gain };
    }
    if (!pick) break;
    (labels[pick.line] as string[])[pick.index] = pick.to;
    revised.add(`${pick.line},${pick.index}`);
    revisions.push({ line: pick.line, index: pick.index, from: pick.from, to: pick.to });
  }
  return { chars: labels.map((line) => line.join('')), revisions };
}
