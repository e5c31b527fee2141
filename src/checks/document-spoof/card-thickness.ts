// The thickness capture (厚み; 犯罪収益移転防止法 施行規則 6条1項1号ホ): a photo of the card held
// tilted, so that one long edge shows. Three things are measured on it:
//   - the card is there and seen at an angle: its outline is found, and its proportions are
//     foreshortened from the card's 85.6 × 54 mm (a flat re-photo of the front is not);
//   - it is the same card as the front: both are rectified to the card's rectangle and their
//     local contrast compared (normalised cross-correlation, either way up);
//   - the edge: along one long side of the outline, a thin band (under 4 % of the card's apparent
//     height) brighter or darker than both the face and the surface beyond, present along the
//     side's length and not along the opposite side. A sheet of paper (0.1 mm) or a screen shows
//     none; a printed frame line would show on both long sides.
// The cue this gives joins the documentSpoofCheck: no edge on a tilted card of the right
// proportions is a sign of a copy or a screen (review), another card than the front a sign of
// tampering. Thresholds from the synthetic thickness set (bench/card-thickness.bench.ts).
import sharp from 'sharp';
import { solveLinear } from '../../platform/image/homography.ts';
import {
  convexHull,
  type DocumentOutline,
  decodePhoto,
  downscale,
  findDocumentOutline,
  type GreyImage,
  type Point,
  polygonArea,
  segmentDocument,
  warpDocument,
} from '../ocr/find-document.ts';
import type { SpoofCue } from '../spoof-cues.ts';

/** ID-1 card proportions (85.60 × 53.98 mm). */
const CARD_ASPECT = 85.6 / 53.98;

export const CARD_THICKNESS_THRESHOLDS = {
  /** Tilt read from the outline's proportions (degrees) below which the photo is not a tilted card. */
  minTiltDegrees: 18,
  /** Same card: normalised cross-correlation of the rectified faces' local contrast. */
  sameCard: 0.25,
  /** The edge: its contrast with both sides (grey levels), on the median profile… */
  edgeContrast: 10,
  /** …present at this share of the positions along the side… */
  edgeCoverage: 0.55,
  /** …and at most this share of it on the opposite long side. */
  oppositeRatio: 0.4,
  /** The cue's score when no edge shows on a tilted card that is the front's: review. */
  noEdgeScore: 0.5,
  /** …and when the tilted card is not the front's. */
  otherCardScore: 0.8,
} as const;

export interface EdgeBand {
  /** Which long side of the outline (top or bottom, as the card is read). */
  side: 'top' | 'bottom';
  /** Band level minus the nearer of its two flanks, signed: + bright edge, − dark edge. */
  contrast: number;
  /** Band width in pixels and as a share of the card's apparent height. */
  widthPx: number;
  widthShare: number;
  /** Share of positions along the side where the band shows. */
  coverage: number;
  /** The same measure on the opposite long side (its |contrast|). */
  opposite: number;
}

export interface ThicknessEvidence {
  /** The card's outline was found in the tilted photo. */
  found: boolean;
  /** Tilt (degrees) read from the outline's proportions against the card's. */
  tiltDegrees: number;
  /** Normalised cross-correlation with the front (null: the front's outline was not found). */
  sameCard: number | null;
  /** The strongest edge band found (null: none on either long side). */
  edge: EdgeBand | null;
  /** Both conditions for the edge hold (contrast, coverage, one side only). */
  edgeSeen: boolean;
}

/** Why the tilted photo cannot be used (the flow asks for another), or null. */
export type TiltedCaptureProblem = 'TiltedCardNotFound' | 'TiltedCardNotTilted' | 'TiltedCardNotSame';

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/**
 * The outline finder takes landscape shapes up to 2:1; a card tilted 40° about its long axis looks
 * 2.1:1 or flatter, so the photo is also searched stretched upright (corners brought back). Each
 * search may find another bright region (a glare, the tilted edge merged with a light surface):
 * every outline found is a candidate.
 */
async function tiltedOutlines(grey: GreyImage): Promise<DocumentOutline[]> {
  const found: DocumentOutline[] = [];
  const direct = findDocumentOutline(grey);
  if (direct) found.push(direct);
  for (const stretch of [1.35, 1.6, 2]) {
    const { data, info } = await sharp(
      Buffer.from(grey.data.buffer, grey.data.byteOffset, grey.data.length),
      {
        raw: { width: grey.width, height: grey.height, channels: 1 },
      },
    )
      .resize(grey.width, Math.round(grey.height * stretch), { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const outline = findDocumentOutline({
      data: new Uint8Array(data),
      width: info.width,
      height: info.height,
    });
    if (outline)
      found.push({
        ...outline,
        corners: outline.corners.map(([x, y]) => [
          x,
          (y * grey.height) / info.height,
        ]) as DocumentOutline['corners'],
      });
  }
  const hull = hullQuad(grey);
  if (hull) found.push(hull);
  return found;
}

/**
 * The largest quadrilateral inside the convex hull of the bright region: the outline finder fits
 * straight sides and a card-like shape, which a strongly keystoned card (its near side a third
 * longer than its far side) can defeat; the hull's corners are where the card's are.
 */
function hullQuad(grey: GreyImage): DocumentOutline | undefined {
  const small = downscale(grey, Math.min(400, grey.width));
  const { mask, size } = segmentDocument(small);
  if (size < small.width * small.height * 0.08) return undefined;
  const boundary: Point[] = [];
  const w = small.width;
  for (let y = 0; y < small.height; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (mask[i] && (!mask[i - 1] || !mask[i + 1] || !mask[i - w] || !mask[i + w]))
        boundary.push([x + 0.5, y + 0.5]);
    }
  const hull = convexHull(boundary);
  const n = hull.length;
  if (n < 4) return undefined;
  let best: Point[] | undefined;
  let bestArea = 0;
  // Every diagonal (i, k), with the farthest hull point on each side of it.
  for (let i = 0; i < n; i++)
    for (let k = i + 2; k < n; k++) {
      const [a, c] = [hull[i] as Point, hull[k] as Point];
      const across = (p: Point) => Math.abs((c[0] - a[0]) * (p[1] - a[1]) - (c[1] - a[1]) * (p[0] - a[0]));
      let j = -1;
      let l = -1;
      for (let m = i + 1; m < k; m++) if (j < 0 || across(hull[m] as Point) > across(hull[j] as Point)) j = m;
      for (let m = k + 1; m < n + i; m++) {
        const q = m % n;
        if (l < 0 || across(hull[q] as Point) > across(hull[l] as Point)) l = q;
      }
      if (j < 0 || l < 0) continue;
      const area = (across(hull[j] as Point) + across(hull[l] as Point)) / 2;
      if (area > bestArea) {
        bestArea = area;
        best = [a, hull[j] as Point, c, hull[l] as Point];
      }
    }
  if (!best) return undefined;
  const scale = grey.width / small.width;
  const corners = orderCorners(best.map(([x, y]) => [x * scale, y * scale] as Point));
  const area = polygonArea(corners);
  return {
    corners: corners as DocumentOutline['corners'],
    coverage: area / (grey.width * grey.height),
    solidity: Math.min(1, (size * scale * scale) / area),
  };
}

/** Clockwise from the top left, the long sides first and third (the card read landscape). */
function orderCorners(points: Point[]): Point[] {
  const cx = points.reduce((t, p) => t + p[0], 0) / 4;
  const cy = points.reduce((t, p) => t + p[1], 0) / 4;
  const sorted = [...points].sort(
    (p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx),
  );
  let start = 0;
  sorted.forEach((p, i) => {
    const first = sorted[start] as Point;
    if (p[0] + p[1] < first[0] + first[1]) start = i;
  });
  const ordered = [0, 1, 2, 3].map((k) => sorted[(start + k) % 4] as Point);
  const top = dist(ordered[0] as Point, ordered[1] as Point);
  const side = dist(ordered[1] as Point, ordered[2] as Point);
  return side > top * 1.1 ? [1, 2, 3, 0].map((k) => ordered[k] as Point) : ordered;
}

/** Degrees of tilt the outline's proportions show (0: seen face-on). */
export function tiltFromOutline(corners: readonly Point[]): number {
  const [a, b, c, d] = corners as [Point, Point, Point, Point];
  const long = (dist(a, b) + dist(d, c)) / 2;
  const short = (dist(b, c) + dist(a, d)) / 2;
  const aspect = long / short;
  const ratio = Math.min(aspect / CARD_ASPECT, CARD_ASPECT / aspect);
  return (Math.acos(Math.min(1, ratio)) * 180) / Math.PI;
}

function sample(grey: GreyImage, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 >= grey.width - 1 || y0 >= grey.height - 1) return Number.NaN;
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * grey.width + x0;
  const d = grey.data;
  return (
    ((d[i] ?? 0) * (1 - fx) + (d[i + 1] ?? 0) * fx) * (1 - fy) +
    ((d[i + grey.width] ?? 0) * (1 - fx) + (d[i + grey.width + 1] ?? 0) * fx) * fy
  );
}

const median = (values: number[]) => {
  const s = values.filter((v) => !Number.isNaN(v)).sort((p, q) => p - q);
  return s.length ? (s[Math.floor(s.length / 2)] as number) : Number.NaN;
};

const sigmoid = (s: number, c: number, k: number) => 1 / (1 + Math.exp(-(s - c) / k));

/**
 * Least squares of a profile on 1 and one or two blurred steps (at c1, c2 with blur k): the residual
 * sum of squares and the levels (face, after the first step, after the second).
 */
function fitSteps(
  profile: Float64Array,
  k: number,
  c1: number,
  c2: number | null,
): { sse: number; levels: number[] } {
  const n = c2 === null ? 2 : 3;
  // Normal equations, accumulated without allocating per sample.
  let s00 = 0;
  let s01 = 0;
  let s02 = 0;
  let s11 = 0;
  let s12 = 0;
  let s22 = 0;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < profile.length; i++) {
    const y = profile[i] as number;
    if (Number.isNaN(y)) continue;
    const u = sigmoid(i, c1, k);
    const v = c2 === null ? 0 : sigmoid(i, c2, k);
    s00 += 1;
    s01 += u;
    s02 += v;
    s11 += u * u;
    s12 += u * v;
    s22 += v * v;
    b0 += y;
    b1 += u * y;
    b2 += v * y;
  }
  let coef: number[];
  try {
    coef =
      n === 2
        ? solveLinear(
            [
              [s00, s01],
              [s01, s11],
            ],
            [b0, b1],
          )
        : solveLinear(
            [
              [s00, s01, s02],
              [s01, s11, s12],
              [s02, s12, s22],
            ],
            [b0, b1, b2],
          );
  } catch {
    return { sse: Number.POSITIVE_INFINITY, levels: [] };
  }
  if (coef.some((c) => !Number.isFinite(c))) return { sse: Number.POSITIVE_INFINITY, levels: [] };
  const [a = 0, b = 0, c = 0] = coef;
  let sse = 0;
  for (let i = 0; i < profile.length; i++) {
    const y = profile[i] as number;
    if (Number.isNaN(y)) continue;
    const p = a + b * sigmoid(i, c1, k) + (c2 === null ? 0 : c * sigmoid(i, c2, k));
    sse += (y - p) ** 2;
  }
  return { sse, levels: [a, a + b, a + b + c] };
}

interface SideFit {
  /** How far the band's level lies from the nearer of the face's and the surface's (− darker). */
  contrast: number;
  start: number;
  width: number;
  blur: number;
}

/** The band's signed distinctness from the levels of a two-step fit. */
function bandContrast([face = 0, band = 0, surface = 0]: number[]): number {
  const c = Math.min(Math.abs(band - face), Math.abs(band - surface));
  return band >= face ? c : -c;
}

/**
 * One profile across a side, inside to outside, fitted as two blurred steps (face, a band,
 * surface) with the band `minWidth`…`maxWidth` samples wide starting within `near` of `zero`.
 */
function fitSide(
  profile: Float64Array,
  zero: number,
  near: number,
  minWidth: number,
  maxWidth: number,
): SideFit {
  let best: SideFit = { contrast: 0, start: 0, width: 0, blur: 0 };
  let bestSse = Number.POSITIVE_INFINITY;
  for (const blur of [0.6, 1.2].map((b) => b / STEP))
    for (let width = minWidth; width <= maxWidth; width++)
      for (let c = zero - near; c <= zero + near; c++) {
        const f = fitSteps(profile, blur, c, c + width);
        if (f.sse >= bestSse) continue;
        bestSse = f.sse;
        best = { contrast: bandContrast(f.levels), start: c, width, blur };
      }
  return best;
}

const STEP = 0.5;
/**
 * The narrowest edge taken (px): a card 600 px wide in the photo, tilted 30°, shows 2.7 px of
 * edge; a 1–1.5 px line is the outline's own anti-aliasing and JPEG ringing, on copies as well.
 */
const MIN_EDGE_PX = 2.5;

/**
 * Profiles across one long side, inside to outside, at positions along 12–88 % of its length (the
 * rounded corners left out): the median profile finds the band, each profile says whether it shows.
 */
function measureSide(
  grey: GreyImage,
  from: Point,
  to: Point,
  centre: Point,
  height: number,
): SideFit & { coverage: number } {
  const length = dist(from, to);
  const [ux, uy] = [(to[0] - from[0]) / length, (to[1] - from[1]) / length];
  // The normal pointing away from the card's centre.
  let [nx, ny] = [-uy, ux];
  const mid: Point = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
  if ((mid[0] - centre[0]) * nx + (mid[1] - centre[1]) * ny < 0) [nx, ny] = [-nx, -ny];
  const near = Math.max(3, 0.04 * height);
  const maxWidth = Math.max(2, 0.035 * height);
  const reach = near + maxWidth + 4;
  const steps = Math.round((2 * reach) / STEP);
  const profiles: Float64Array[] = [];
  const positions = 24;
  for (let k = 0; k < positions; k++) {
    const t = 0.12 + (0.76 * k) / (positions - 1);
    const [px, py] = [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
    const profile = new Float64Array(steps + 1);
    for (let s = 0; s <= steps; s++)
      profile[s] = sample(grey, px + nx * (-reach + s * STEP), py + ny * (-reach + s * STEP));
    profiles.push(profile);
  }
  const med = Float64Array.from(profiles[0]!, (_, i) => median(profiles.map((p) => p[i] as number)));
  const zero = Math.round(steps / 2);
  const found = fitSide(
    med,
    zero,
    Math.round(near / STEP),
    Math.round(MIN_EDGE_PX / STEP),
    Math.round(maxWidth / STEP),
  );
  let shows = 0;
  if (found.width > 0 && found.contrast !== 0) {
    for (const p of profiles) {
      // The same band, allowed to wander a pixel (the outline is a straight fit).
      let here = 0;
      for (let d = -2; d <= 2; d++) {
        const c = bandContrast(
          fitSteps(p, found.blur, found.start + d, found.start + d + found.width).levels,
        );
        if (Math.sign(c) === Math.sign(found.contrast) && Math.abs(c) > Math.abs(here)) here = c;
      }
      if (Math.abs(here) >= Math.abs(found.contrast) * 0.5) shows++;
    }
  }
  return { ...found, coverage: shows / profiles.length };
}

function measureEdge(grey: GreyImage, corners: readonly Point[]): EdgeBand | null {
  const [a, b, c, d] = corners as [Point, Point, Point, Point];
  const centre: Point = [(a[0] + b[0] + c[0] + d[0]) / 4, (a[1] + b[1] + c[1] + d[1]) / 4];
  const height = (dist(b, c) + dist(a, d)) / 2;
  const top = measureSide(grey, a, b, centre, height);
  const bottom = measureSide(grey, d, c, centre, height);
  const [side, found, other] =
    Math.abs(top.contrast) * top.coverage >= Math.abs(bottom.contrast) * bottom.coverage
      ? (['top', top, bottom] as const)
      : (['bottom', bottom, top] as const);
  if (found.width === 0) return null;
  const widthPx = found.width * STEP;
  return {
    side,
    contrast: Math.round(found.contrast * 10) / 10,
    widthPx,
    widthShare: Math.round((widthPx / height) * 1000) / 1000,
    coverage: Math.round(found.coverage * 100) / 100,
    opposite: Math.round(Math.abs(other.contrast) * other.coverage * 10) / 10,
  };
}

const FACE_WIDTH = 160;
const FACE_HEIGHT = Math.round(FACE_WIDTH / CARD_ASPECT);

/** The card rectified small, each pixel minus its neighbourhood's mean (lighting and tint drop out). */
function localContrast(grey: GreyImage, corners: readonly Point[]): Float32Array {
  const [w, h] = [FACE_WIDTH, FACE_HEIGHT];
  const flat = warpDocument(grey, [...corners], w, h);
  const out = new Float32Array(w * h);
  const r = 3;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
          sum += flat.data[yy * w + xx] ?? 0;
          n++;
        }
      out[y * w + x] = (flat.data[y * w + x] ?? 0) - sum / n;
    }
  }
  return out;
}

/**
 * Normalised cross-correlation of the two faces' inner 90 %, the second shifted up to 2 % either
 * way (each outline is a fit, off by a few pixels): the best shift's.
 */
function correlation(a: Float32Array, b: Float32Array): number {
  const [w, h] = [FACE_WIDTH, FACE_HEIGHT];
  const mx = Math.round(w * 0.05);
  const my = Math.round(h * 0.05);
  const reach = Math.round(w * 0.02);
  let best = -1;
  for (let dy = -reach; dy <= reach; dy++)
    for (let dx = -reach; dx <= reach; dx++) {
      let ab = 0;
      let aa = 0;
      let bb = 0;
      for (let y = my; y < h - my; y++)
        for (let x = mx; x < w - mx; x++) {
          const p = a[y * w + x] ?? 0;
          const q = b[(y + dy) * w + x + dx] ?? 0;
          ab += p * q;
          aa += p * p;
          bb += q * q;
        }
      const c = aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
      if (c > best) best = c;
    }
  return best;
}

/** The card's two faces compared, the tilted one either way up (the card may be held turned). */
function sameCardScore(front: Float32Array, tilted: { grey: GreyImage; corners: readonly Point[] }) {
  const t = tilted.corners;
  const upright = localContrast(tilted.grey, t);
  const turned = localContrast(
    tilted.grey,
    [2, 3, 0, 1].map((i) => t[i] as Point),
  );
  return Math.max(correlation(front, upright), correlation(front, turned));
}

export interface LocatedFront {
  grey: GreyImage;
  outline: DocumentOutline | undefined;
}

/** Measures the tilted photo against the front (its grey image and outline, or its bytes). */
export async function measureCardThickness(
  front: Buffer | Uint8Array | LocatedFront,
  tilted: Buffer | Uint8Array,
): Promise<ThicknessEvidence> {
  const t = CARD_THICKNESS_THRESHOLDS;
  const tiltedBytes = Buffer.isBuffer(tilted)
    ? tilted
    : Buffer.from(tilted.buffer, tilted.byteOffset, tilted.byteLength);
  const located: LocatedFront =
    'grey' in front
      ? front
      : await (async () => {
          const bytes = Buffer.isBuffer(front)
            ? front
            : Buffer.from(front.buffer, front.byteOffset, front.byteLength);
          const grey = await decodePhoto(bytes);
          return { grey, outline: findDocumentOutline(grey) };
        })();
  const grey = await decodePhoto(tiltedBytes);
  const candidates = await tiltedOutlines(grey);
  if (candidates.length === 0)
    return { found: false, tiltDegrees: 0, sameCard: null, edge: null, edgeSeen: false };
  // The candidate that is most like the front (the largest when the front's outline is unknown).
  const face = located.outline ? localContrast(located.grey, located.outline.corners) : null;
  const scored = candidates.map((outline) => ({
    outline,
    sameCard: face ? sameCardScore(face, { grey, corners: outline.corners }) : null,
  }));
  scored.sort((p, q) => (q.sameCard ?? q.outline.coverage) - (p.sameCard ?? p.outline.coverage));
  const { outline, sameCard: same } = scored[0]!;
  const sameCard = same === null ? null : Math.round(same * 1000) / 1000;
  const tiltDegrees = Math.round(tiltFromOutline(outline.corners) * 10) / 10;
  const edge = measureEdge(grey, outline.corners);
  const edgeSeen =
    edge !== null &&
    Math.abs(edge.contrast) >= t.edgeContrast &&
    edge.coverage >= t.edgeCoverage &&
    edge.opposite <= Math.abs(edge.contrast) * t.oppositeRatio;
  return { found: true, tiltDegrees, sameCard, edge, edgeSeen };
}

/** What the flow tells the user at once (the pipeline's cue judges the rest). */
export function tiltedCaptureProblem(evidence: ThicknessEvidence): TiltedCaptureProblem | null {
  const t = CARD_THICKNESS_THRESHOLDS;
  if (!evidence.found) return 'TiltedCardNotFound';
  if (evidence.sameCard !== null && evidence.sameCard < t.sameCard) return 'TiltedCardNotSame';
  if (evidence.tiltDegrees < t.minTiltDegrees) return 'TiltedCardNotTilted';
  return null;
}

/**
 * The documentSpoofCheck's cue: another card than the front (tampering), or a tilted card with no
 * edge — or no tilted card at all — (a copy or a screen): 0 when the edge shows on the same card.
 */
export function thicknessCue(evidence: ThicknessEvidence): SpoofCue {
  const t = CARD_THICKNESS_THRESHOLDS;
  const seen = `tilt ${evidence.tiltDegrees}°, same-card ${evidence.sameCard ?? 'n/a'}, edge ${
    evidence.edge
      ? `${evidence.edge.contrast} on ${evidence.edge.side} (coverage ${evidence.edge.coverage}, opposite ${evidence.edge.opposite})`
      : 'none'
  }`;
  if (evidence.found && evidence.sameCard !== null && evidence.sameCard < t.sameCard)
    return {
      name: `thickness capture shows another card than the front (${seen})`,
      score: t.otherCardScore,
      tamper: true,
    };
  if (!evidence.found || evidence.tiltDegrees < t.minTiltDegrees || !evidence.edgeSeen)
    return {
      name: `thickness capture shows no card edge (a copy or a screen has none; ${evidence.found ? seen : 'no card found'})`,
      score: t.noEdgeScore,
    };
  return { name: `thickness capture shows the card's edge (${seen})`, score: 0 };
}
