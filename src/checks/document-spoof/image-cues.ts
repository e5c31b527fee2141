// Image measurements behind the document spoof cues. Each function takes the
// decoded photo and returns plain numbers; the thresholds that turn them into cues live in
// document-spoof.check.ts with the calibration that chose them (docs/spoof-checks.md).
import sharp from 'sharp';
import { connectedComponents } from '../../platform/image/components.ts';
import {
  convexHull,
  type DocumentOutline,
  decodePhoto,
  downscale,
  type GreyImage,
  type Point,
  polygonArea,
  warpDocument,
} from '../ocr/find-document.ts';
import { powerSpectrum2d } from './fft.ts';

/** RGB pixels, 3 channels, row-major. */
export interface RgbPhoto {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decodeRgbPhoto(image: Buffer): Promise<RgbPhoto> {
  const { data, info } = await sharp(image)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * The photo in grey as the OCR check decodes it (decodePhoto), made from its RGB decode: libvips
 * brings both decodes to 8-bit sRGB first (ICC profile, CMYK, palette, alpha dropped), so the grey
 * of the RGB pixels is the grey of the file, without decoding it again (the same bytes on JPEG,
 * PNG with and without alpha, WebP, CMYK and grey files). A 16-bit file is not: its grey is
 * decoded from the file.
 */
export async function decodeGreyPhoto(image: Buffer, photo: RgbPhoto): Promise<GreyImage> {
  const { depth } = await sharp(image).metadata();
  if (depth !== 'uchar') return decodePhoto(image);
  const { data, info } = await sharp(photo.data, {
    raw: { width: photo.width, height: photo.height, channels: 3 },
  })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** The part of the photo the card covers in every capture the corpus draws (centre 40 %). */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function centralRegion(photo: RgbPhoto, fraction = 0.4): Region {
  const width = Math.round(photo.width * fraction);
  const height = Math.round(photo.height * fraction);
  return {
    left: Math.round((photo.width - width) / 2),
    top: Math.round((photo.height - height) / 2),
    width,
    height,
  };
}

/** Tile size for the spectra: about a tenth of the photo width, so the cue reads the same at 640 and 1280 px. */
export function tileSizeFor(photo: RgbPhoto): number {
  let n = 32;
  while (n * 2 <= photo.width / 8) n *= 2;
  return n;
}

type Plane = 'luma' | 'chroma';

function planeValue(data: Uint8Array, o: number, plane: Plane): number {
  const r = data[o] as number;
  const g = data[o + 1] as number;
  const b = data[o + 2] as number;
  if (plane === 'luma') return 0.299 * r + 0.587 * g + 0.114 * b;
  // Red-green opponent channel: a screen's RGB stripes alias into colour fringes here.
  return r - g;
}

export interface SpectralPeaks {
  /** Strongest bin over the median of its ring, among periods 2–16 px (log10). */
  peakRatio: number;
  /** Mean of the 8 strongest such ratios (log10): many peaks = a grid, not one stray edge. */
  topRatio: number;
  /** Share of the AC power at periods under 4 px. */
  highShare: number;
  /** The 8 strongest bins (fx, fy) of the tile's spectrum, strongest first. */
  bins: [number, number][];
  /** The tile size the bins are of (px). */
  tile: number;
}

/**
 * Welch-averaged power spectrum of Hann-windowed tiles over `region`, then how far the strongest
 * bins stand above the median of their frequency ring. Text and edges spread power along lines;
 * pixel grids, halftone screens and moiré put it in isolated peaks.
 */
export function measureSpectralPeaks(photo: RgbPhoto, region: Region, plane: Plane): SpectralPeaks {
  const n = tileSizeFor(photo);
  const window = new Float64Array(n);
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  const sum = new Float64Array(n * n);
  let tiles = 0;
  const tile = new Float64Array(n * n);
  // The plane over the region once: the tiles overlap by half, so each pixel lies in up to four.
  const { left, top, width: rw, height: rh } = region;
  const values = new Float64Array(rw * rh);
  for (let y = 0; y < rh; y++)
    for (let x = 0; x < rw; x++)
      values[y * rw + x] = planeValue(photo.data, ((top + y) * photo.width + left + x) * 3, plane);
  for (let ty = region.top; ty + n <= region.top + region.height; ty += n / 2) {
    for (let tx = region.left; tx + n <= region.left + region.width; tx += n / 2) {
      let mean = 0;
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = values[(ty - top + y) * rw + tx - left + x] as number;
          tile[y * n + x] = v;
          mean += v;
        }
      }
      mean /= n * n;
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++)
          tile[y * n + x] =
            ((tile[y * n + x] as number) - mean) * (window[x] as number) * (window[y] as number);
      const p = powerSpectrum2d(tile, n);
      for (let i = 0; i < n * n; i++) sum[i] = (sum[i] as number) + (p[i] as number);
      tiles++;
    }
  }
  if (tiles === 0) return { peakRatio: 0, topRatio: 0, highShare: 0, bins: [], tile: n };
  return { ...spectralPeaksOf(sum, n), tile: n };
}

/**
 * Peaks of an averaged power spectrum: each bin against the median of the bins around it (a
 * 9×9 neighbourhood without its own 3×3 centre). Text strokes and edges spread power smoothly
 * along lines through the spectrum; a pixel grid, halftone screen or moiré makes isolated spikes.
 */
function spectralPeaksOf(power: Float64Array, n: number): Omit<SpectralPeaks, 'tile'> {
  const half = n / 2;
  // n is a power of two (the FFT's): a mask wraps a negative frequency as the modulo did.
  const mask = n - 1;
  const at = (fx: number, fy: number) => power[(fy & mask) * n + (fx & mask)] as number;
  const ratios: number[] = [];
  const where: [number, number][] = [];
  let total = 0;
  let high = 0;
  // The 72 neighbours of a bin, of which only the median is read (selected in place: the value
  // a full sort would put there).
  const around = new Float64Array(9 * 9 - 3 * 3);
  const axis = new Float64Array(6);
  for (let ky = -half + 1; ky < half; ky++) {
    for (let fx = 0; fx < half; fx++) {
      if (fx === 0 && ky <= 0) continue; // half plane: the spectrum of a real tile is symmetric
      const r = Math.hypot(fx, ky);
      if (r > half - 1) continue;
      const v = at(fx, ky);
      total += v;
      if (r >= n / 4) high += v;
      if (r < n / 16) continue;
      let k = 0;
      for (let dy = -4; dy <= 4; dy++)
        for (let dx = -4; dx <= 4; dx++)
          if (Math.abs(dx) > 1 || Math.abs(dy) > 1) around[k++] = at(fx + dx, ky + dy);
      let median = selectInPlace(around, around.length >> 1);
      // On an axis, against the axis itself: a page's rows of text and rule lines, upright in a
      // flat scan, put their power all along the axis (a ridge, not a spike), which the square
      // around a bin, mostly off the axis, would take for a grid's peak.
      if (fx === 0 || ky === 0) {
        let k2 = 0;
        for (const d of [-4, -3, -2, 2, 3, 4]) axis[k2++] = fx === 0 ? at(0, ky + d) : at(fx + d, 0);
        axis.sort();
        median = Math.max(median, (axis[2] as number) / 2 + (axis[3] as number) / 2);
      }
      ratios.push(Math.log10((v + 1e-9) / (median + 1e-9)));
      where.push([fx, ky]);
    }
  }
  const order = ratios.map((_, i) => i).sort((a, b) => (ratios[b] as number) - (ratios[a] as number));
  const top = order.slice(0, 8).map((i) => ratios[i] as number);
  return {
    peakRatio: top[0] ?? 0,
    topRatio: top.reduce((a, b) => a + b, 0) / Math.max(1, top.length),
    highShare: total > 0 ? high / total : 0,
    bins: order.slice(0, 8).map((i) => where[i] as [number, number]),
  };
}

/**
 * The value a numeric sort of `values` would put at index `k` (Hoare's selection; reorders
 * `values`). For finite numbers.
 */
export function selectInPlace(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k] as number;
}

export interface BorderStats {
  /** Whether a document outline was found at all. */
  found: boolean;
  /** Ink-free band at each side of the outline, as a fraction of its height (top, bottom) or width (left, right). */
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** Fraction of the outline's quadrilateral the bright region fills (rounded card corners < 1). */
  solidity: number;
}

const WARP_W = 428;
const WARP_H = 270;

/**
 * How wide the blank band is inside the outline of the bright object. A card prints its title
 * and fields up to a few per cent of its edges; a photocopy lies on a sheet with a paper margin
 * of 12–30 % of the card width around it, so the object found is the sheet and every side is
 * blank for a long way.
 */
export function measureBorders(grey: GreyImage, outline: DocumentOutline | undefined): BorderStats {
  if (!outline) return { found: false, top: 0, bottom: 0, left: 0, right: 0, solidity: 0 };
  const flat = warpDocument(grey, outline.corners, WARP_W, WARP_H);
  // Ink: clearly darker than the local paper level (a wide box blur), so that a lighting falloff
  // across the object (poor captures: the dark side at half the brightness) is not read as ink.
  const plane = Float64Array.from(flat.data);
  const paper = boxBlur(plane, WARP_W, WARP_H, 20);
  const rowInk = new Float64Array(WARP_H);
  const colInk = new Float64Array(WARP_W);
  const inset = 3; // the warp's own edge pixels mix in the surface
  for (let y = inset; y < WARP_H - inset; y++) {
    for (let x = inset; x < WARP_W - inset; x++) {
      const i = y * WARP_W + x;
      if ((plane[i] as number) < (paper[i] as number) * 0.72) {
        rowInk[y] = (rowInk[y] as number) + 1;
        colInk[x] = (colInk[x] as number) + 1;
      }
    }
  }
  const firstInk = (counts: Float64Array, from: number, step: number, length: number, minCount: number) => {
    let i = from;
    let run = 0;
    for (let k = 0; k < length; k++, i += step) {
      if ((counts[i] as number) >= minCount) {
        run++;
        if (run >= 2) return (k - 1) / length;
      } else run = 0;
    }
    return 1;
  };
  return {
    found: true,
    top: firstInk(rowInk, inset, 1, WARP_H - 2 * inset, 3),
    bottom: firstInk(rowInk, WARP_H - inset - 1, -1, WARP_H - 2 * inset, 3),
    left: firstInk(colInk, inset, 1, WARP_W - 2 * inset, 3),
    right: firstInk(colInk, WARP_W - inset - 1, -1, WARP_W - 2 * inset, 3),
    solidity: outline.solidity,
  };
}

/** Box blur of a plane (w×h) with radius r, through an integral image. */
export function boxBlur(plane: Float64Array, w: number, h: number, r: number): Float64Array {
  return boxBlurOf(integralImage(plane, w, h), w, h, r);
}

/** The integral image of a plane (w×h): (w + 1)×(h + 1), a zero row and column first. */
function integralImage(plane: Float64Array, w: number, h: number): Float64Array {
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += plane[y * w + x] as number;
      integral[(y + 1) * (w + 1) + x + 1] = (integral[y * (w + 1) + x + 1] as number) + row;
    }
  }
  return integral;
}

/** Box blur with radius r of the plane whose integral image is given (one image, several radii). */
function boxBlurOf(integral: Float64Array, w: number, h: number, r: number): Float64Array {
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const s =
        (integral[y1 * (w + 1) + x1] as number) -
        (integral[y0 * (w + 1) + x1] as number) -
        (integral[y1 * (w + 1) + x0] as number) +
        (integral[y0 * (w + 1) + x0] as number);
      out[y * w + x] = s / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}

export interface ChromaTexture {
  /** 90th percentile over blocks of band-pass colour energy over band-pass luminance energy. */
  p90: number;
  /** Fraction of blocks where colour ripples without matching luminance structure. */
  rippleShare: number;
}

/**
 * Colour fringes: a screen's RGB stripes photographed through a camera's colour filter alias
 * into rainbow ripples, colour that oscillates over a few pixels with little luminance change.
 * Printed colour elements change luminance at their edges too; sensor noise is mostly luminance.
 */
export function measureChromaTexture(photo: RgbPhoto, region: Region): ChromaTexture {
  const { width: w, height: h } = region;
  const luma = new Float64Array(w * h);
  const rg = new Float64Array(w * h);
  const by = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = ((region.top + y) * photo.width + region.left + x) * 3;
      const r = photo.data[o] as number;
      const g = photo.data[o + 1] as number;
      const b = photo.data[o + 2] as number;
      luma[y * w + x] = 0.299 * r + 0.587 * g + 0.114 * b;
      rg[y * w + x] = r - g;
      by[y * w + x] = b - (r + g) / 2;
    }
  }
  const scale = Math.max(1, Math.round(photo.width / 640));
  // Band-pass: the fine blur less the coarse one; the coarse blur of a colour plane is its local
  // mean too (one integral image per plane for both).
  const bandPass = (p: Float64Array) => {
    const integral = integralImage(p, w, h);
    const fine = boxBlurOf(integral, w, h, scale);
    const coarse = boxBlurOf(integral, w, h, 5 * scale);
    const band = new Float64Array(fine.length);
    for (let i = 0; i < fine.length; i++) band[i] = (fine[i] as number) - (coarse[i] as number);
    return { band, coarse };
  };
  const l = bandPass(luma).band;
  const { band: c1, coarse: m1 } = bandPass(rg);
  const { band: c2, coarse: m2 } = bandPass(by);
  const block = 16 * scale;
  const ratios: number[] = [];
  for (let by0 = 0; by0 + block <= h; by0 += block) {
    for (let bx0 = 0; bx0 + block <= w; bx0 += block) {
      let le = 0;
      let ce = 0;
      let me = 0;
      for (let y = by0; y < by0 + block; y++)
        for (let x = bx0; x < bx0 + block; x++) {
          const i = y * w + x;
          le += (l[i] as number) ** 2;
          ce += (c1[i] as number) ** 2 + (c2[i] as number) ** 2;
          me += Math.hypot(m1[i] as number, m2[i] as number);
        }
      const count = block * block;
      // Colour ripple on a neutral (white or grey) area: printed colour areas have a colour of their own.
      ratios.push(Math.sqrt(ce / count) / (Math.sqrt(le / count) + 0.25 * (me / count) + 1.5));
    }
  }
  ratios.sort((a, b) => a - b);
  return {
    p90: ratios[Math.floor(ratios.length * 0.9)] ?? 0,
    rippleShare: ratios.filter((r) => r > 1).length / Math.max(1, ratios.length),
  };
}

export interface ScreenFrame {
  /** Share of the photo inside the convex hull of the largest dark region off the photo's edge (0 when none). */
  hullShare: number;
  /** That hull's area over the dark region's own: a bezel is a thin ring (3–10), a dark blot solid (1–2.6). */
  hollowness: number;
}

/**
 * Length of the photo's longer side the frame search works at: a bezel is 6–12 px wide there, a
 * printed line of text 1–2. The longer side, so that a photo stored turned (portrait) is searched
 * at the scale of the same photo landscape: at 320 px across its shorter side a genuine card's
 * rules and lettering stay dark and joined into a wide, hollow net (a real licence turned 270°
 * read as a bezel).
 */
const FRAME_WORK_SIDE = 320;
/** Dark: under this share of the photo's median grey (a bezel reads 0.13–0.29 of it). */
const FRAME_DARK = 0.35;
/** Dark regions smaller than this share of the photo are text, hair or shadow specks. */
const FRAME_MIN_REGION = 0.0007;

/**
 * A display's bezel: the dark region with the largest convex hull that does not reach the photo's
 * edge. A card on a table has no dark ring around it; a photographed phone or monitor shows one,
 * and blur, noise and JPEG keep it where they erase the moiré and the colour fringes. Glare can
 * wash out a side, leaving a U or an L: still hollow, its hull still wide.
 */
export function measureScreenFrame(grey: GreyImage): ScreenFrame {
  const scale = Math.min(1, FRAME_WORK_SIDE / Math.max(grey.width, grey.height));
  const small = downscale(grey, Math.max(1, Math.round(grey.width * scale)));
  const { data, width: w, height: h } = small;
  const sorted = Uint8Array.from(data).sort();
  const threshold = (sorted[sorted.length >> 1] as number) * FRAME_DARK;
  const dark = new Uint8Array(w * h);
  for (let i = 0; i < dark.length; i++) dark[i] = (data[i] as number) < threshold ? 1 : 0;
  let best: ScreenFrame = { hullShare: 0, hollowness: 0 };
  for (const pixels of connectedComponents(dark, w, h)) {
    if (pixels.length < FRAME_MIN_REGION * w * h) continue;
    const points = pixels.map((i): Point => [i % w, Math.floor(i / w)]);
    // A region reaching the photo's edge is a dark surface or sleeve, not a frame.
    const touchesEdge = points.some(([x, y]) => x === 0 || y === 0 || x === w - 1 || y === h - 1);
    if (touchesEdge) continue;
    const hull = convexHull(points);
    const hullArea = polygonArea(hull);
    if (hullArea / (w * h) <= best.hullShare) continue;
    best = { hullShare: hullArea / (w * h), hollowness: hullArea / points.length };
  }
  return best;
}

/**
 * How far apart in phase the red, green and blue channels swing at the strongest peaks of a
 * spectrum (0–1; `peaks` from measureSpectralPeaks, their bins and tiles). A display's sub-pixels
 * stand side by side, so its grid, and the colour moiré it makes with the camera's own grid, raise
 * red, green and blue a third of a period apart; printed ink, of whatever colour, darkens the three
 * together where it lies (in phase), as guilloche, fine lines, microtext and rainbow printing do.
 * The cross-spectra of the channel pairs, summed over the tiles, give the share of their magnitude
 * that is out of phase (|Im| over |C|), weighted by the bins' power.
 */
export function measureColourPhase(photo: RgbPhoto, region: Region, peaks: SpectralPeaks): number {
  const n = peaks.tile;
  const bins = peaks.bins;
  if (bins.length === 0) return 0;
  const window = new Float64Array(n);
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  // e^{-2πi f x / n} per bin and position, for x and for y.
  const cosX = bins.map(([fx]) =>
    Float64Array.from({ length: n }, (_, x) => Math.cos((2 * Math.PI * fx * x) / n)),
  );
  const sinX = bins.map(([fx]) =>
    Float64Array.from({ length: n }, (_, x) => -Math.sin((2 * Math.PI * fx * x) / n)),
  );
  const cosY = bins.map(([, fy]) =>
    Float64Array.from({ length: n }, (_, y) => Math.cos((2 * Math.PI * fy * y) / n)),
  );
  const sinY = bins.map(([, fy]) =>
    Float64Array.from({ length: n }, (_, y) => -Math.sin((2 * Math.PI * fy * y) / n)),
  );
  // Per bin: cross-spectra rg, gb, rb (re, im) and the channel powers.
  const acc = bins.map(() => new Float64Array(9));
  const tile = [new Float64Array(n * n), new Float64Array(n * n), new Float64Array(n * n)];
  for (let ty = region.top; ty + n <= region.top + region.height; ty += n / 2) {
    for (let tx = region.left; tx + n <= region.left + region.width; tx += n / 2) {
      for (let c = 0; c < 3; c++) {
        const t = tile[c] as Float64Array;
        let mean = 0;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++) {
            const v = photo.data[((ty + y) * photo.width + tx + x) * 3 + c] as number;
            t[y * n + x] = v;
            mean += v;
          }
        mean /= n * n;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++)
            t[y * n + x] = ((t[y * n + x] as number) - mean) * (window[x] as number) * (window[y] as number);
      }
      bins.forEach((_, b) => {
        const f: [number, number][] = [];
        for (let c = 0; c < 3; c++) {
          const t = tile[c] as Float64Array;
          let re = 0;
          let im = 0;
          const cx = cosX[b] as Float64Array;
          const sx = sinX[b] as Float64Array;
          const cy = cosY[b] as Float64Array;
          const sy = sinY[b] as Float64Array;
          for (let y = 0; y < n; y++) {
            let rowRe = 0;
            let rowIm = 0;
            for (let x = 0; x < n; x++) {
              const v = t[y * n + x] as number;
              rowRe += v * (cx[x] as number);
              rowIm += v * (sx[x] as number);
            }
            const yr = cy[y] as number;
            const yi = sy[y] as number;
            re += rowRe * yr - rowIm * yi;
            im += rowRe * yi + rowIm * yr;
          }
          f.push([re, im]);
        }
        const a = acc[b] as Float64Array;
        const pairs: [number, number][] = [
          [0, 1],
          [1, 2],
          [0, 2],
        ];
        pairs.forEach(([i, j], k) => {
          const [ar, ai] = f[i] as [number, number];
          const [br, bi] = f[j] as [number, number];
          a[2 * k] = (a[2 * k] as number) + ar * br + ai * bi;
          a[2 * k + 1] = (a[2 * k + 1] as number) + ai * br - ar * bi;
        });
        for (let c = 0; c < 3; c++) {
          const [re, im] = f[c] as [number, number];
          a[6 + c] = (a[6 + c] as number) + re * re + im * im;
        }
      });
    }
  }
  let out = 0;
  let weight = 0;
  for (const a of acc) {
    let imag = 0;
    let mag = 0;
    for (let k = 0; k < 3; k++) {
      imag += Math.abs(a[2 * k + 1] as number);
      mag += Math.hypot(a[2 * k] as number, a[2 * k + 1] as number);
    }
    const power = (a[6] as number) + (a[7] as number) + (a[8] as number);
    if (mag <= 0) continue;
    out += (imag / mag) * power;
    weight += power;
  }
  return weight > 0 ? out / weight : 0;
}
