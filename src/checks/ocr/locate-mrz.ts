// Finding a machine-readable zone anywhere in a photo, without the document's outline (a flat
// scan, a booklet photographed open, a screenshot): ICAO 9303 prints the MRZ as two or three lines
// of OCR-B at a fixed pitch with no word spaces (fillers `<` are printed glyphs), so once dark
// glyphs are merged along a line each MRZ line is one long, thin, straight blob, and the zone is
// two or three such blobs, parallel, of equal length, one line pitch apart. This is looked for at
// 0° and 90° (the blob's own axis gives the skew); which way up the band reads is left to the
// reader, which tries both (read-mrz.ts checks the lines it gets).
import sharp from 'sharp';
import { connectedComponents } from '../../platform/image/components.ts';
import type { GreyImage } from './find-document.ts';
import { reviseByZoneGlyphs, sampleGrey } from './mrz-glyphs.ts';
import type { OcrEngine, OcrWord } from './ocr-engine.ts';
import { type MrzFormat, type MrzReading, mergeMrzReadings, readMrzLines } from './read-mrz.ts';

/** A band of MRZ lines in the photo: a rotated rectangle, its lines running along `angle`. */
export interface MrzBand {
  /** Centre of the band, photo pixels. */
  cx: number;
  cy: number;
  /** Direction the lines run, radians, in (−π/2, π/2] (image y downwards); ±π/2 for a vertical zone. */
  angle: number;
  /** Along the lines and across them, photo pixels. */
  length: number;
  thickness: number;
  /** Line blobs found in the band (1 when the lines merged under skew). */
  lines: number;
  score: number;
  /** A run of the lines of a band of more than three (findMrzBands). */
  part?: boolean;
}

/**
 * Photo pixels a character of the zone must span at least for Tesseract to tell OCR-B's
 * look-alikes apart (8 B E, 5 S, 0 O D, N M): they differ by strokes a tenth of the pitch wide,
 * which a smaller zone blurs into each other — specimen passports scanned 272–275 px wide
 * (5.4–5.6 px a character) read document numbers and names wrong with every check digit
 * holding, the sharp ones (7.7 px and more) right. Below it the zone's unchecked letters are
 * compared with its own glyphs, and its check digits are not trusted (mrz-result.ts).
 */
export const MIN_MRZ_PITCH_PX = 6.5;

/** Longer side of the working image (px): MRZ glyphs then span about 6–30 px. */
const WORK_SIZE = 900;

/** Photo decoded once, EXIF orientation applied; ink as the darkest channel's complement. */
export async function decodeForMrz(image: Buffer): Promise<GreyImage> {
  // The brightest channel keeps black ink dark and turns coloured print (a red box drawn around the
  // zone, a blue tint, guilloche) light.
  const { data, info } = await sharp(image)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const out = new Uint8Array(info.width * info.height);
  for (let i = 0, j = 0; i < out.length; i++, j += channels) {
    let m = data[j] as number;
    for (let c = 1; c < Math.min(3, channels); c++) m = Math.max(m, data[j + c] as number);
    out[i] = m;
  }
  return { data: out, width: info.width, height: info.height };
}

/**
 * Running max (`max`) or min of `len` samples along one line of `src` (van Herk / Gil–Werman:
 * three comparisons per sample whatever the window), centred, edges clamped.
 */
function runLine(
  src: Uint8Array,
  dst: Uint8Array,
  start: number,
  stride: number,
  count: number,
  len: number,
  max: boolean,
  g: Uint8Array,
  h: Uint8Array,
): void {
  const r = Math.floor(len / 2);
  const n = count + 2 * r;
  const at = (i: number) => src[start + stride * Math.min(count - 1, Math.max(0, i - r))] as number;
  for (let b = 0; b < n; b += len) {
    const e = Math.min(n, b + len);
    let v = at(b);
    g[b] = v;
    for (let i = b + 1; i < e; i++) {
      const x = at(i);
      v = max ? (x > v ? x : v) : x < v ? x : v;
      g[i] = v;
    }
    v = at(e - 1);
    h[e - 1] = v;
    for (let i = e - 2; i >= b; i--) {
      const x = at(i);
      v = max ? (x > v ? x : v) : x < v ? x : v;
      h[i] = v;
    }
  }
  // Window [i, i + len − 1] of the padded line is output i.
  for (let i = 0; i < count; i++) {
    const a = h[i] as number;
    const c = g[Math.min(n - 1, i + len - 1)] as number;
    dst[start + stride * i] = max ? (a > c ? a : c) : a < c ? a : c;
  }
}

/** Separable running max (dilate) or min (erode) over a w×h window (odd sizes). */
function filter(
  src: Uint8Array,
  width: number,
  height: number,
  w: number,
  h: number,
  max: boolean,
): Uint8Array {
  const size = Math.max(width, height) + Math.max(w, h) + 2;
  const g = new Uint8Array(size);
  const hh = new Uint8Array(size);
  const tmp = w > 1 ? new Uint8Array(src.length) : src;
  if (w > 1) for (let y = 0; y < height; y++) runLine(src, tmp, y * width, 1, width, w | 1, max, g, hh);
  if (h <= 1) return tmp;
  const out = new Uint8Array(src.length);
  for (let x = 0; x < width; x++) runLine(tmp, out, x, width, height, h | 1, max, g, hh);
  return out;
}

/** Otsu's threshold over a histogram of 0–255 values. */
function otsu(values: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[v] = (hist[v] as number) + 1;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (hist[i] as number);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 0;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] as number;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] as number);
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

interface Blob {
  cx: number;
  cy: number;
  angle: number;
  length: number;
  thickness: number;
  fill: number;
  /** Its ends along its axis, from the centre (px). */
  lo: number;
  hi: number;
}

function blobOf(pixels: number[], width: number): Blob {
  let sx = 0;
  let sy = 0;
  for (const p of pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const n = pixels.length;
  const cx = sx / n;
  const cy = sy / n;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (const p of pixels) {
    const dx = (p % width) - cx;
    const dy = Math.floor(p / width) - cy;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  xx /= n;
  yy /= n;
  xy /= n;
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  const common = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
  const major = (xx + yy) / 2 + common;
  const minor = Math.max(0, (xx + yy) / 2 - common);
  // A filled rectangle of side s has variance s²/12 along it.
  const length = Math.sqrt(12 * major);
  const thickness = Math.max(1, Math.sqrt(12 * minor));
  // Where the blob ends along its axis: a line's fillers are lighter than its capitals, so its
  // mass, and the length its spread gives, stop short of its last glyphs.
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  let lo = 0;
  let hi = 0;
  for (const p of pixels) {
    const u = ((p % width) - cx) * ux + (Math.floor(p / width) - cy) * uy;
    if (u < lo) lo = u;
    if (u > hi) hi = u;
  }
  return { cx, cy, angle, length, thickness, fill: n / (length * thickness), lo, hi };
}

/** Long, thin, solid blobs of merged glyphs along one direction of the working image. */
function lineBlobs(ink: Uint8Array, width: number, height: number, horizontal: boolean, gap: number): Blob[] {
  // Closing along the line merges a line's glyphs (and fillers) into one blob; a short opening
  // across it removes the thin strokes that join lines (a ruled box around the zone).
  const [w, h] = horizontal ? [gap, 1] : [1, gap];
  const closed = filter(filter(ink, width, height, w, h, true), width, height, w, h, false);
  const blobs: Blob[] = [];
  const minLength = 0.18 * Math.max(width, height);
  for (const pixels of connectedComponents(closed, width, height)) {
    if (pixels.length < minLength * 3) continue;
    const b = blobOf(pixels, width);
    const along = horizontal ? Math.abs(b.angle) : Math.PI / 2 - Math.abs(b.angle);
    if (b.length < minLength || along > (35 * Math.PI) / 180) continue;
    if (b.length / b.thickness < 5 || b.fill < 0.45 || b.thickness < 4) continue;
    blobs.push(b);
  }
  return blobs;
}

/**
 * Candidate MRZ bands in a photo, best first. Each is two or three parallel line blobs of about
 * equal length (or one thick blob: lines merged under skew or blur).
 */
export function findMrzBands(photo: GreyImage, workSize = WORK_SIZE): MrzBand[] {
  const scale = workSize / Math.max(photo.width, photo.height);
  const width = Math.max(1, Math.round(photo.width * scale));
  const height = Math.max(1, Math.round(photo.height * scale));
  const grey = resample(photo, width, height);
  // Black-hat: how much darker each pixel is than its neighbourhood's closing — glyph ink, on any
  // background and under uneven light.
  const closed = filter(filter(grey, width, height, 15, 15, true), width, height, 15, 15, false);
  const hat = new Uint8Array(grey.length);
  for (let i = 0; i < hat.length; i++) hat[i] = (closed[i] as number) - (grey[i] as number);
  const t = Math.max(25, otsu(hat));
  const ink = new Uint8Array(hat.length);
  for (let i = 0; i < ink.length; i++) ink[i] = (hat[i] as number) > t ? 1 : 0;
  const bands: MrzBand[] = [];
  for (const horizontal of [true, false]) {
    const blobs = lineBlobs(ink, width, height, horizontal, 17);
    for (const seed of blobs) {
      // Parallel blobs of about the seed's length whose centres lie on its normal, close by.
      const nx = -Math.sin(seed.angle);
      const ny = Math.cos(seed.angle);
      const ux = Math.cos(seed.angle);
      const uy = Math.sin(seed.angle);
      const members = blobs.filter((b) => {
        if (b === seed) return true;
        const dAngle =
          Math.abs(Math.atan2(Math.sin(2 * (b.angle - seed.angle)), Math.cos(2 * (b.angle - seed.angle)))) /
          2;
        if (dAngle > (6 * Math.PI) / 180) return false;
        if (Math.abs(b.length / seed.length - 1) > 0.3) return false;
        const dx = b.cx - seed.cx;
        const dy = b.cy - seed.cy;
        const across = Math.abs(dx * nx + dy * ny);
        const along = Math.abs(dx * ux + dy * uy);
        return along < 0.15 * seed.length && across < 4 * Math.max(seed.thickness, b.thickness) * 1.2;
      });
      // More than three parallel lines hold the zone and something beside it (a card's edge, a
      // line of print above): each run of three and of two adjacent lines is a band too, and the
      // zone's pitch picks among them (rankMrzBands).
      const across = (m: Blob) => (m.cx - seed.cx) * nx + (m.cy - seed.cy) * ny;
      const sorted = [...members].sort((a, b) => across(a) - across(b));
      const subsets = [members];
      if (members.length > 3)
        for (const w of [3, 2])
          for (let i = 0; i + w <= sorted.length; i++) subsets.push(sorted.slice(i, i + w));
      for (const subset of subsets) {
        // The band spans its members: extent along the normal and along the line.
        let minN = Number.POSITIVE_INFINITY;
        let maxN = Number.NEGATIVE_INFINITY;
        let minU = Number.POSITIVE_INFINITY;
        let maxU = Number.NEGATIVE_INFINITY;
        for (const m of subset) {
          const n = across(m);
          const u = (m.cx - seed.cx) * ux + (m.cy - seed.cy) * uy;
          minN = Math.min(minN, n - m.thickness / 2);
          maxN = Math.max(maxN, n + m.thickness / 2);
          minU = Math.min(minU, u + m.lo);
          maxU = Math.max(maxU, u + m.hi);
        }
        const midN = (minN + maxN) / 2;
        const midU = (minU + maxU) / 2;
        const lines = Math.min(3, subset.length);
        const thick = maxN - minN;
        const length = maxU - minU;
        // Two or three lines, or one blob as thick as two or three merged lines (length/thickness
        // about 44/3 for TD3, 30/5 for TD1).
        const merged = subset.length === 1 && length / thick < 18;
        const score = length * (subset.length >= 2 ? lines : merged ? 1.5 : 0.5);
        bands.push({
          cx: (seed.cx + midN * nx + midU * ux) / scale,
          cy: (seed.cy + midN * ny + midU * uy) / scale,
          angle: seed.angle,
          length: length / scale,
          thickness: thick / scale,
          lines: subset.length,
          score,
          ...(subset !== members ? { part: true } : {}),
        });
      }
    }
  }
  bands.sort((a, b) => b.score - a.score);
  // The same band is found once per member: keep the best of overlapping ones.
  const kept: MrzBand[] = [];
  for (const b of bands) {
    // (A run of a band's lines is not the band: another thickness.)
    const same = kept.some(
      (k) =>
        Math.hypot(k.cx - b.cx, k.cy - b.cy) < Math.max(k.thickness, b.thickness) &&
        Math.abs(Math.sin(k.angle - b.angle)) < 0.1 &&
        Math.abs(k.thickness / b.thickness - 1) < 0.15,
    );
    if (!same) kept.push(b);
  }
  return kept;
}

function resample(photo: GreyImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const sx = photo.width / width;
  const sy = photo.height / height;
  if (sx >= 1) {
    // Box average when shrinking.
    for (let y = 0; y < height; y++) {
      const y0 = Math.floor(y * sy);
      const y1 = Math.min(photo.height, Math.max(y0 + 1, Math.floor((y + 1) * sy)));
      for (let x = 0; x < width; x++) {
        const x0 = Math.floor(x * sx);
        const x1 = Math.min(photo.width, Math.max(x0 + 1, Math.floor((x + 1) * sx)));
        let sum = 0;
        for (let yy = y0; yy < y1; yy++)
          for (let xx = x0; xx < x1; xx++) sum += photo.data[yy * photo.width + xx] as number;
        out[y * width + x] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
      }
    }
    return out;
  }
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      out[y * width + x] = sampleBilinear(photo, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5);
  return out;
}

const sampleBilinear = (img: GreyImage, x: number, y: number) => Math.round(sampleGrey(img, x, y));

/**
 * The band cut out of the photo, rotated so its lines run left to right (`flip`: turned half a
 * turn more), with a margin, scaled so the band is `targetHeight` px tall at most 4× up.
 */
export function cutBand(photo: GreyImage, band: MrzBand, flip: boolean, pxPerThickness = 1): GreyImage {
  const margin = 0.2 * band.thickness;
  // Generous along the lines: the blob can stop short of a last glyph standing apart.
  const len = band.length * 1.06 + 2 * margin;
  const thick = band.thickness + 2 * margin;
  const k = pxPerThickness;
  const width = Math.max(8, Math.round(len * k));
  const height = Math.max(8, Math.round(thick * k));
  let ux = Math.cos(band.angle);
  let uy = Math.sin(band.angle);
  // Lines read left to right: a vertical zone (angle ±90°) is first turned so it reads upwards…
  if (ux < 0 || (Math.abs(ux) < 1e-6 && uy > 0)) {
    ux = -ux;
    uy = -uy;
  }
  if (flip) {
    ux = -ux;
    uy = -uy;
  }
  // …the normal points down the page.
  const nx = -uy;
  const ny = ux;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / k - thick / 2;
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) / k - len / 2;
      const px = band.cx + u * ux + v * nx;
      const py = band.cy + u * uy + v * ny;
      out[y * width + x] =
        px < 0 || py < 0 || px > photo.width - 1 || py > photo.height - 1
          ? 255
          : sampleBilinear(photo, px, py);
    }
  }
  return { data: out, width, height };
}

// ── Lines and character cells of a cut band ────────────────────────────────────────────────────

/** One MRZ line of a cut band: its rows and the fixed-pitch cells of its characters. */
export interface MrzLineCells {
  top: number;
  bottom: number;
  /** Left edge of cell 0 and the pitch, px. */
  origin: number;
  pitch: number;
  /** Per cell: a filler's shape (shorter than the capitals, centred, its vertex at the left). */
  filler: boolean[];
  /** Per cell: a filler's shape turned half a turn (the band is upside down). */
  turned: boolean[];
  /** Ink on the cell edges against the line's mean (lower: the glyphs fit this many cells better). */
  fit: number;
  /** Per cell: ink share of its glyph's top-left and bottom-left corners (D's square ones, O's round). */
  corners: number[];
  /** Per cell: ink share of its glyph's bottom rows (E's foot bar, which F has not). */
  foot: number[];
}

function inkOf(band: GreyImage): Uint8Array {
  const t = otsu(band.data);
  const ink = new Uint8Array(band.data.length);
  for (let i = 0; i < ink.length; i++) ink[i] = (band.data[i] as number) <= t ? 1 : 0;
  return ink;
}

/** Text lines of the band: runs of rows with ink, the tall ones kept (small print around a zone is not MRZ). */
export function lineRows(band: GreyImage): { top: number; bottom: number; left: number; right: number }[] {
  const ink = inkOf(band);
  const { width, height } = band;
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) n += ink[y * width + x] as number;
    rows[y] = n;
  }
  const peak = Math.max(...rows);
  const runs: { top: number; bottom: number }[] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    const on = y < height && (rows[y] as number) > 0.12 * peak;
    if (on && start < 0) start = y;
    if (!on && start >= 0) {
      runs.push({ top: start, bottom: y });
      start = -1;
    }
  }
  const tallest = Math.max(0, ...runs.map((r) => r.bottom - r.top));
  const lines = runs
    .filter((r) => r.bottom - r.top >= 0.7 * tallest)
    .map((r) => {
      // The line is the widest cluster of inked columns: glyphs stand less than a glyph's height
      // apart, whatever lies beyond (a card edge, the page's other print) further.
      const h = r.bottom - r.top;
      let left = 0;
      let right = -1;
      let runStart = -1;
      let last = -1;
      for (let x = 0; x <= width; x++) {
        let n = 0;
        if (x < width) for (let y = r.top; y < r.bottom; y++) n += ink[y * width + x] as number;
        if (x < width && n >= 2) {
          if (runStart < 0 || x - last > h) runStart = x;
          last = x;
          if (last - runStart > right - left) {
            left = runStart;
            right = last;
          }
        }
      }
      return { ...r, left, right };
    });
  const widest = Math.max(0, ...lines.map((l) => l.right - l.left));
  return lines.filter((l) => l.right - l.left >= 0.85 * widest);
}

/** The line's `count` cells: pitch and origin fitted so cell edges fall between glyphs. */
export function cellsOf(
  band: GreyImage,
  line: { top: number; bottom: number; left: number; right: number },
  count: number,
): MrzLineCells {
  const ink = inkOf(band);
  const { width } = band;
  const column = new Float64Array(width);
  for (let y = line.top; y < line.bottom; y++)
    for (let x = 0; x < width; x++) column[x] = (column[x] as number) + (ink[y * width + x] as number);
  const at = (x: number) => column[Math.max(0, Math.min(width - 1, Math.round(x)))] as number;
  const p0 = (line.right - line.left) / (count - 0.3);
  let best = { cost: Number.POSITIVE_INFINITY, pitch: p0, origin: line.left - 0.15 * p0 };
  for (let f = 0.97; f <= 1.03; f += 0.005) {
    const pitch = p0 * f;
    for (let o = -0.35; o <= 0.35; o += 0.05) {
      const origin = line.left - 0.15 * pitch + o * pitch;
      let cost = 0;
      for (let i = 1; i < count; i++) cost += at(origin + i * pitch);
      // The line's ink must lie inside the cells.
      if (line.left < origin || line.right > origin + count * pitch) cost += 1e6;
      if (cost < best.cost) best = { cost, pitch, origin };
    }
  }
  const { pitch, origin } = best;
  // Each cell's ink box.
  const boxes = Array.from({ length: count }, (_, i) => {
    const x0 = Math.max(0, Math.round(origin + i * pitch));
    const x1 = Math.min(width, Math.round(origin + (i + 1) * pitch));
    let top = line.bottom;
    let bottom = line.top - 1;
    let left = x1;
    let right = x0 - 1;
    for (let y = line.top; y < line.bottom; y++)
      for (let x = x0; x < x1; x++)
        if (ink[y * width + x]) {
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
    return { x0, x1, top, bottom, left, right };
  });
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const inked = boxes.filter((b) => b.bottom >= b.top);
  const cap = Math.max(1, median(inked.map((b) => b.bottom - b.top)));
  // Where a glyph's ink sits across its width, in a band of its rows (−1 left … 1 right).
  const lean = (b: (typeof boxes)[number], from: number, to: number) => {
    const y0 = Math.round(b.top + from * (b.bottom - b.top));
    const y1 = Math.max(y0 + 1, Math.round(b.top + to * (b.bottom - b.top)));
    let sum = 0;
    let n = 0;
    for (let y = y0; y < y1; y++)
      for (let x = b.left; x <= b.right; x++)
        if (ink[y * width + x]) {
          sum += x;
          n++;
        }
    const mid = (b.left + b.right) / 2;
    return n === 0 ? 0 : (sum / n - mid) / Math.max(1, (b.right - b.left) / 2);
  };
  const filler: boolean[] = [];
  const turned: boolean[] = [];
  const corners: number[] = [];
  const foot: number[] = [];
  for (const b of boxes) {
    // `<` (as tall as the capitals in some OCR-B cuts, shorter in others): its vertex, in the
    // middle rows, at the left; its arms' ends, in the top and bottom rows, at the right. K, L, C,
    // E carry ink at the left of their top and bottom rows too.
    const inked = b.bottom > b.top + 2 && b.bottom - b.top > 0.5 * cap;
    const middle = inked ? lean(b, 0.4, 0.6) : 0;
    const ends = inked ? (lean(b, 0, 0.2) + lean(b, 0.8, 1)) / 2 : 0;
    filler.push(middle < -0.3 && ends > 0.3);
    turned.push(middle > 0.3 && ends < -0.3);
    if (!inked) {
      corners.push(Number.NaN);
      foot.push(Number.NaN);
      continue;
    }
    // Ink share of a part of the glyph's box (fractions of its width and height).
    const share = (x0: number, x1: number, y0: number, y1: number) => {
      const w = b.right - b.left + 1;
      const h = b.bottom - b.top + 1;
      const xa = b.left + Math.floor(x0 * w);
      const xb = Math.max(xa + 1, b.left + Math.round(x1 * w));
      const ya = b.top + Math.floor(y0 * h);
      const yb = Math.max(ya + 1, b.top + Math.round(y1 * h));
      let n = 0;
      for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) n += ink[y * width + x] as number;
      return n / ((xb - xa) * (yb - ya));
    };
    corners.push((share(0, 0.2, 0, 0.15) + share(0, 0.2, 0.85, 1)) / 2);
    foot.push(share(0, 1, 0.85, 1));
  }
  let mean = 0;
  for (let x = line.left; x <= line.right; x++) mean += column[x] as number;
  mean /= Math.max(1, line.right - line.left + 1);
  const fit = best.cost / Math.max(1, count - 1) / Math.max(1e-6, mean);
  return { top: line.top, bottom: line.bottom, origin, pitch, filler, turned, fit, corners, foot };
}

// ── Reading the zone ───────────────────────────────────────────────────────────────────────────

const MRZ_WHITELIST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** Cap height the band is cut at for Tesseract and the cell shapes, px. */
const CHAR_HEIGHT = 32;

/** Bands read at most (best first): a page's other long lines are tried when the first is not a zone. */
const MAX_BANDS = 3;

export interface MrzFound {
  reading: MrzReading;
  /** Where the zone is in the photo. */
  band: MrzBand;
}

function toPng(img: GreyImage): Promise<Buffer> {
  return sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 1 },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

type Symbol = NonNullable<OcrWord['symbols']>[number];

/**
 * One line's characters: each cell takes the filler its shape shows, else the surest symbol
 * Tesseract read inside it, else `?` (a glyph it dropped, which a check digit may restore).
 * `read`: Tesseract's symbol alone per cell, for positions where a filler cannot stand.
 */
function charsOf(cells: MrzLineCells, symbols: Symbol[]): { chars: string; read: string } {
  const count = cells.filler.length;
  const chosen: (Symbol | undefined)[] = new Array(count).fill(undefined);
  for (const s of symbols) {
    const cx = (s.bbox.x0 + s.bbox.x1) / 2;
    const at = (cx - cells.origin) / cells.pitch;
    // Half a cell beyond either end still belongs to the end cell (the fitted grid is that loose).
    if (at < -0.5 || at >= count + 0.5) continue;
    const i = Math.max(0, Math.min(count - 1, Math.floor(at)));
    const current = chosen[i];
    // Two symbols in one cell (`<K` for one filler): a filler's own glyph or the surer one.
    if (!current || (current.text !== '<' && (s.text === '<' || s.confidence > current.confidence)))
      chosen[i] = s;
  }
  // The shape decides between a filler and the letters Tesseract reads for one (K, L, C, X, E,
  // S, Z); any other glyph it read stands.
  const chars = chosen
    .map((s, i) =>
      cells.filler[i] && (!s || /[<KLCXESZ]/.test(s.text))
        ? '<'
        : s
          ? byStroke(s.text, cells.corners[i] ?? Number.NaN, cells.foot[i] ?? Number.NaN)
          : cells.filler[i]
            ? '<'
            : '?',
    )
    .join('');
  return { chars, read: chosen.map((s) => s?.text ?? '?').join('') };
}

/**
 * OCR-B letters Tesseract takes for one another that one stroke tells apart (names carry no
 * check digit to catch them): D has square left corners where O is round; E has a foot bar F
 * lacks. Measured on the real specimen zones of the bench:real set: O's corners at most 0.22 ink on
 * average, D's at least 0.28 but for one cell cut off its glyph; E's foot at least 0.43, F's at
 * most 0.52 (0.39 but once). Only a clear shape overrules the reading.
 */
function byStroke(text: string, corners: number, foot: number): string {
  if (text === 'D' && corners <= 0.2) return 'O';
  if (text === 'O' && corners >= 0.45) return 'D';
  if (text === 'F' && foot >= 0.65) return 'E';
  if (text === 'E' && foot <= 0.35) return 'F';
  return text;
}

/**
 * Photo pixels a character below which a zone is read in several passes (the MRZ model and eng,
 * each at two scales) merged position by position (`mergeMrzReadings`): at 5–9 px a character one
 * pass misreads a glyph or two another pass reads right, and a check digit holding by chance on
 * one pass's misread field is outvoted by the passes that read it otherwise.
 */
export const SMALL_MRZ_PITCH_PX = 9;

/**
 * A band whose cut fits a zone's fixed pitch this well (`zoneFit`; clean zones 0–0.1, a page's
 * paragraphs 0.66–0.9 on the tuning captures) is read even where its fillers' shapes are too
 * small to tell which way up it lies: both ways are tried.
 */
const ZONE_FIT_MAX = 0.3;

const charsPerLine = (format: MrzFormat | undefined) =>
  format === 'TD1' ? 30 : format === 'TD2' || format === 'MRVB' ? 36 : 44;

/** A band's reading and whether several passes agreed on every character of it. */
interface BandReading {
  reading: MrzReading;
  agreed: boolean;
}

/**
 * Reads one band, turned as its fillers point; undefined when it holds no MRZ-like lines. With
 * `retry`, where check digits fail: the same engine again on the band cut a quarter larger
 * (Tesseract reads small glyphs differently at another scale: a zone of 5–6 photo px a character
 * is cut at 4×, then 5×), then the `second` engine; the best-checking reading stands, the
 * earlier one on a tie. A small zone (`SMALL_MRZ_PITCH_PX`) is read in every pass, and the passes
 * merged.
 */
async function readBand(
  engine: OcrEngine,
  second: OcrEngine | undefined,
  photo: GreyImage,
  band: MrzBand,
  retry: boolean,
  zoneLike: boolean,
): Promise<BandReading | undefined> {
  const k = Math.min(4, (CHAR_HEIGHT * 29) / band.length);
  const first = await readBandAt(engine, photo, band, k, zoneLike);
  const attempts: [OcrEngine, number][] = [[engine, k * 1.25]];
  if (second && second !== engine) attempts.push([second, k], [second, k * 1.25]);
  const small = !!first && band.length / charsPerLine(first.format) < SMALL_MRZ_PITCH_PX;
  if (first && small && retry && zoneLike) {
    const passes = [first];
    for (const [e, scale] of attempts) {
      const again = await readBandAt(e, photo, band, scale, zoneLike);
      if (again) passes.push(again);
    }
    // Kept only when the passes agree: a majority of garbled passes, or a check digit holding by
    // chance on one of them, must not outvote a reading.
    const merged = mergeMrzReadings(passes);
    if (merged?.agreed) return merged;
    let best = first;
    for (const again of passes.slice(1, 3)) if (badness(again) < badness(best)) best = again;
    return { reading: best, agreed: false };
  }
  if (!first || first.valid || !retry) return first && { reading: first, agreed: false };
  let best = first;
  for (const [e, scale] of attempts.slice(0, 2)) {
    const again = await readBandAt(e, photo, band, scale, zoneLike);
    if (again && badness(again) < badness(best)) best = again;
    if (best.valid) break;
  }
  return { reading: best, agreed: false };
}

/** One OCR pass over a cut band: per line, the characters its cells take and what Tesseract read. */
interface BandCells {
  format: MrzFormat;
  chars: string[];
  read: string[];
  /** The fillers' shapes did not say which way up the band lies: read as cut (`flip` false). */
  wayUpUnsure?: boolean;
}

/**
 * The band cut at `k` output px a photo px and read by one engine, cell by cell; undefined when it
 * holds no MRZ-like lines. `flip`: turned half a turn; undefined, as the fillers' shapes point
 * (on a band that fits a zone's pitch, `zoneLike`, as cut when they are too small to point).
 */
async function readBandCells(
  engine: OcrEngine,
  photo: GreyImage,
  band: MrzBand,
  k: number,
  zoneLike: boolean,
  flip?: boolean,
): Promise<BandCells | undefined> {
  let cut = cutBand(photo, band, flip ?? false, k);
  let rows = lineRows(cut);
  if (rows.length < 2 || rows.length > 3) return undefined;
  let wayUpUnsure = false;
  if (flip === undefined) {
    const guess = rows.length === 3 ? 30 : 44;
    const up = rows.map((r) => cellsOf(cut, r, guess));
    const fillers = up.reduce((n, c) => n + c.filler.filter(Boolean).length, 0);
    const turned = up.reduce((n, c) => n + c.turned.filter(Boolean).length, 0);
    if (Math.max(fillers, turned) < 2) {
      if (!zoneLike) return undefined;
      wayUpUnsure = true;
    } else if (turned > fillers) {
      cut = cutBand(photo, band, true, k);
      rows = lineRows(cut);
      if (rows.length < 2 || rows.length > 3) return undefined;
    }
  }
  const ocr = await engine.recognize(await toPng(cut), { psm: '6', charWhitelist: MRZ_WHITELIST });
  // Tesseract's lines matched to the band's rows by their vertical centre.
  const symbolsOf = rows.map((r) =>
    ocr.lines
      .filter((l) => {
        const cy = (l.bbox.y0 + l.bbox.y1) / 2;
        return cy >= r.top && cy < r.bottom;
      })
      .flatMap((l) => l.words.flatMap((w) => w.symbols ?? [])),
  );
  let format: MrzFormat | undefined;
  let count = 30;
  if (rows.length === 2) {
    // 36 or 44 characters a line: the count whose cell edges fall between the glyphs.
    const fitFor = (n: number) => rows.reduce((sum, r) => sum + cellsOf(cut, r, n).fit, 0);
    const visa = symbolsOf[0]?.[0]?.text === 'V';
    count = fitFor(36) < fitFor(44) ? 36 : 44;
    format = count === 44 ? (visa ? 'MRVA' : 'TD3') : visa ? 'MRVB' : 'TD2';
  } else format = 'TD1';
  const cells = rows.map((r) => cellsOf(cut, r, count));
  const read = cells.map((c, i) => charsOf(c, symbolsOf[i] ?? []));
  let chars = read.map((r) => r.chars);
  // A zone too small for the engine to tell look-alikes apart: the letters no check digit
  // covers are compared with the zone's own glyphs (mrz-glyphs.ts). Above that size the engine
  // reads them better than a comparison on a coarse grid.
  if (band.length / count < MIN_MRZ_PITCH_PX)
    chars = reviseByZoneGlyphs(cut, cells, chars, uncheckedLetters(format, count)).chars;
  return { format, chars, read: read.map((r) => r.read), ...(wayUpUnsure ? { wayUpUnsure } : {}) };
}

/** The cells no check digit covers that hold letters: the issuing state and the names (ICAO 9303). */
function uncheckedLetters(format: MrzFormat, count: number): [number, number][] {
  const at: [number, number][] = [];
  for (let i = 2; i < (format === 'TD1' ? 5 : count); i++) at.push([0, i]);
  if (format === 'TD1') for (let i = 0; i < count; i++) at.push([2, i]);
  return at;
}

async function readBandAt(
  engine: OcrEngine,
  photo: GreyImage,
  band: MrzBand,
  k: number,
  zoneLike: boolean,
): Promise<MrzReading | undefined> {
  const cells = await readBandCells(engine, photo, band, k, zoneLike);
  const reading = cells && readMrzLines(cells.chars, cells.format, cells.read);
  if (!cells?.wayUpUnsure || reading?.valid) return reading;
  // Which way up was not told by the shapes: the other way, if its check digits say more.
  const turned = await readBandCells(engine, photo, band, k, zoneLike, true);
  const other = turned && readMrzLines(turned.chars, turned.format, turned.read);
  return other && (!reading || badness(other) < badness(reading)) ? other : reading;
}

/** Failing checks, fewer is better; a reading with no check passing is no reading. */
const badness = (r: MrzReading) =>
  r.valid ? 0 : r.invalidFields.length + (r.lines.join('').split('?').length - 1);

/** Candidate bands looked at for their pitch, best first by blob score, before any is read. */
const MAX_CANDIDATES = 12;

/**
 * How far a band is from an MRZ's print (lower is closer; infinite when it does not cut into two
 * or three lines): ICAO 9303 Part 3 prints the zone's 30, 36 or 44 characters a line at one fixed
 * pitch, so the band's columns fall empty between glyphs at exactly that pitch (`cellsOf`'s fit,
 * ink on the cell edges over the line's mean: 0 on a clean zone), where a paragraph's
 * proportional type, however long its lines, leaves ink on some edges of any grid. A page's
 * paragraphs outscore the zone as blobs (longer lines, more of them); by pitch they do not.
 */
export function zoneFit(photo: GreyImage, band: MrzBand): number {
  const k = Math.min(4, (CHAR_HEIGHT * 29) / band.length);
  const cut = cutBand(photo, band, false, k);
  const rows = lineRows(cut);
  if (rows.length < 2 || rows.length > 3) return Number.POSITIVE_INFINITY;
  const counts = rows.length === 3 ? [30] : [36, 44];
  return Math.min(
    ...counts.map((n) => rows.reduce((sum, r) => sum + cellsOf(cut, r, n).fit, 0) / rows.length),
  );
}

/**
 * Candidate bands at two working sizes — glyphs of a zone filling the frame merge into lines at
 * half the size, those of a zone on a whole page at the full one — ranked by how well they fit a
 * zone's fixed pitch (`zoneFit`), the blob score breaking ties.
 */
export function rankMrzBands(photo: GreyImage): { band: MrzBand; fit: number }[] {
  const all = [...findMrzBands(photo), ...findMrzBands(photo, WORK_SIZE / 2)].sort(
    (a, b) => b.score - a.score,
  );
  const kept: MrzBand[] = [];
  for (const b of all) {
    const same = kept.some(
      (k) =>
        Math.hypot(k.cx - b.cx, k.cy - b.cy) < 0.5 * Math.max(k.thickness, b.thickness) &&
        Math.abs(Math.sin(k.angle - b.angle)) < 0.1 &&
        Math.abs(k.length / b.length - 1) < 0.15 &&
        Math.abs(k.thickness / b.thickness - 1) < 0.15,
    );
    if (!same) kept.push(b);
  }
  // The runs of many-line bands apart: a page's paragraphs yield many, which must not crowd out
  // the whole bands.
  return [
    ...kept.filter((b) => !b.part).slice(0, MAX_CANDIDATES),
    ...kept.filter((b) => b.part).slice(0, MAX_CANDIDATES),
  ]
    .map((band, i) => ({ band, i, fit: zoneFit(photo, band) }))
    .sort((a, b) => a.fit - b.fit || a.i - b.i)
    .map(({ band, fit }) => ({ band, fit }));
}

/**
 * The MRZ anywhere in a photo (any orientation, skew up to about 30°), read and checked; undefined
 * when no band of MRZ lines is found. The first band whose check digits all hold wins, else the
 * best-checking one. `engine` reads first; `second`, when given, reads the likeliest band again
 * where the first engine's check digits fail.
 */
export async function findMrz(
  engine: OcrEngine,
  image: Buffer | GreyImage,
  second?: OcrEngine,
): Promise<MrzFound | undefined> {
  const photo = Buffer.isBuffer(image) ? await decodeForMrz(image) : image;
  let best: MrzFound | undefined;
  for (const [i, { band, fit }] of rankMrzBands(photo).slice(0, MAX_BANDS).entries()) {
    // The second read (another scale) is for the likeliest band only: time.
    const read = await readBand(engine, second, photo, band, i === 0, fit <= ZONE_FIT_MAX);
    if (!read) continue;
    // Passes agreeing is no proof: a look-alike one engine confuses at every scale reads alike in
    // each (N for M in a name), so a small zone's doubt stands (mrz-result.ts `mrzDoubt`).
    const { reading } = read;
    if (!best || badness(reading) < badness(best.reading)) best = { reading, band };
    if (reading.valid) break;
  }
  return best;
}
