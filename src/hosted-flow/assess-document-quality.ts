// Server-side quality gate for document photos (blurred, glare, too
// small, no card found — computed in the browser and checked again on the server). Simple,
// explainable measures on a greyscale copy about 640 px wide; thresholds measured on the synthetic
// corpus (docs/hosted-flow-api.md "Quality checks").
import type { ErrorCode } from '../platform/http/errors.ts';

export interface DocumentQuality {
  /** Variance of the 4-neighbour Laplacian: low means no sharp edges (blur). */
  sharpness: number;
  /** Share of the central region's grid cells that are almost all clipped white (specular glare). */
  glare: number;
  /** Share of the central region's pixels on a strong edge (printed text, card border). */
  edgeDensity: number;
  /** Standard deviation of the central region's brightness. */
  contrast: number;
}

export const DOCUMENT_QUALITY_LIMITS = {
  /** Longer and shorter side of the stored picture, in pixels. */
  minLongSide: 600,
  minShortSide: 400,
  minSharpness: 25,
  maxGlare: 0.2,
  minEdgeDensity: 0.03,
  minContrast: 6,
} as const;

/** Central-difference gradient above which a pixel is on an edge (measured: 20 keeps poor captures' text). */
const EDGE_GRADIENT = 20;
/** Glare is judged per cell of a 16×12 grid: paper white has texture, a blown-out highlight has none. */
const GLARE_GRID = { columns: 16, rows: 12, clippedShare: 0.95 };

type Grey = { data: Buffer; width: number; height: number };

export function measureDocumentQuality(grey: Grey): DocumentQuality {
  const { data, width: w, height: h } = grey;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const lap =
        (data[i - 1] ?? 0) +
        (data[i + 1] ?? 0) +
        (data[i - w] ?? 0) +
        (data[i + w] ?? 0) -
        4 * (data[i] ?? 0);
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  const mean = n ? sum / n : 0;
  const sharpness = n ? sumSq / n - mean * mean : 0;

  // The central region: where a framed card lies (the browser's guide is centred).
  const x0 = Math.floor(w * 0.15);
  const x1 = Math.ceil(w * 0.85);
  const y0 = Math.floor(h * 0.15);
  const y1 = Math.ceil(h * 0.85);
  const cellClipped = new Uint32Array(GLARE_GRID.columns * GLARE_GRID.rows);
  const cellPixels = new Uint32Array(GLARE_GRID.columns * GLARE_GRID.rows);
  let edges = 0;
  let count = 0;
  let bSum = 0;
  let bSq = 0;
  for (let y = Math.max(1, y0); y < Math.min(h - 1, y1); y++) {
    for (let x = Math.max(1, x0); x < Math.min(w - 1, x1); x++) {
      const i = y * w + x;
      const v = data[i] ?? 0;
      const cell =
        Math.min(GLARE_GRID.rows - 1, Math.floor(((y - y0) / (y1 - y0)) * GLARE_GRID.rows)) *
          GLARE_GRID.columns +
        Math.min(GLARE_GRID.columns - 1, Math.floor(((x - x0) / (x1 - x0)) * GLARE_GRID.columns));
      cellPixels[cell]!++;
      if (v >= 250) cellClipped[cell]!++;
      const gx = (data[i + 1] ?? 0) - (data[i - 1] ?? 0);
      const gy = (data[i + w] ?? 0) - (data[i - w] ?? 0);
      if (gx * gx + gy * gy > EDGE_GRADIENT * EDGE_GRADIENT) edges++;
      bSum += v;
      bSq += v * v;
      count++;
    }
  }
  const bMean = count ? bSum / count : 0;
  let blown = 0;
  for (let c = 0; c < cellPixels.length; c++) {
    if ((cellPixels[c] ?? 0) > 0 && (cellClipped[c] ?? 0) >= GLARE_GRID.clippedShare * (cellPixels[c] ?? 0))
      blown++;
  }
  return {
    sharpness,
    glare: blown / cellPixels.length,
    edgeDensity: count ? edges / count : 0,
    contrast: count ? Math.sqrt(Math.max(0, bSq / count - bMean * bMean)) : 0,
  };
}

/** The first problem found, as the error code the browser shows, or null when the photo is usable. */
export function documentQualityProblem(
  size: { width: number; height: number },
  quality: DocumentQuality,
  limits = DOCUMENT_QUALITY_LIMITS,
): ErrorCode | null {
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  if (long < limits.minLongSide || short < limits.minShortSide) return 'ImageTooSmall';
  if (quality.contrast < limits.minContrast) return 'DocumentNotFound';
  if (quality.glare > limits.maxGlare) return 'ImageGlare';
  // Before the edge count: blur also wipes out edges, and a blurred card (contrast, no sharp
  // edges) was told "no card found" — the blurred backs of the corpus all were.
  if (quality.sharpness < limits.minSharpness) return 'ImageBlurred';
  if (quality.edgeDensity < limits.minEdgeDensity) return 'DocumentNotFound';
  return null;
}
