// Finding the document in a phone photo and flattening it (docs/ocr.md): the card is the
// largest region clearly brighter than the surface it lies on, once the photo's lighting gradient
// is divided out; its outline is fitted with four straight sides (the rounded corners and glare
// would bias a corner-point estimate), and the quadrilateral is warped to a canonical rectangle
// so the fields can be read from the positions the layouts print them at.
import sharp from 'sharp';
import { connectedComponents } from '../../platform/image/components.ts';
import { type Point, solveLinear } from '../../platform/image/homography.ts';
import { warpQuad } from '../../platform/image/warp.ts';

export type { Point } from '../../platform/image/homography.ts';

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DocumentOutline {
  /** Corners in the photo's pixels, clockwise from the top left of the document as read. */
  corners: [Point, Point, Point, Point];
  /** Quadrilateral area as a fraction of the photo. */
  coverage: number;
  /** Fraction of the quadrilateral covered by the detected bright region (1 for a clean card). */
  solidity: number;
}

export interface DecodedPhoto {
  grey: GreyImage;
}

/** Decodes the upload once (EXIF orientation applied) as greyscale pixels. */
export async function decodePhoto(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image).rotate().greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

const WORK_WIDTH = 400;

export function downscale(src: GreyImage, width: number): GreyImage {
  // Box filter: each output pixel averages the source pixels it covers. The source columns of each
  // output column are worked out once (they are the same on every row).
  const scale = src.width / width;
  const height = Math.max(1, Math.round(src.height / scale));
  const out = new Uint8Array(width * height);
  const xFrom = new Int32Array(width);
  const xTo = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const sx0 = Math.floor(x * scale);
    xFrom[x] = sx0;
    xTo[x] = Math.min(src.width, Math.max(sx0 + 1, Math.floor((x + 1) * scale)));
  }
  const data = src.data;
  const sums = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor(y * scale);
    const sy1 = Math.min(src.height, Math.max(sy0 + 1, Math.floor((y + 1) * scale)));
    sums.fill(0);
    for (let yy = sy0; yy < sy1; yy++) {
      const row = yy * src.width;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        const end = row + (xTo[x] as number);
        for (let i = row + (xFrom[x] as number); i < end; i++) sum += data[i] as number;
        sums[x] = (sums[x] as number) + sum;
      }
    }
    const rows = sy1 - sy0;
    for (let x = 0; x < width; x++)
      out[y * width + x] = Math.round(
        (sums[x] as number) / (rows * ((xTo[x] as number) - (xFrom[x] as number))),
      );
  }
  return { data: out, width, height };
}

/** Least-squares plane a + b·x + c·y through the samples (the photo's lighting gradient). */
function fitPlane(samples: [number, number, number][]): [number, number, number] {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let sxz = 0;
  let syz = 0;
  for (const [x, y, z] of samples) {
    n++;
    sx += x;
    sy += y;
    sz += z;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sxz += x * z;
    syz += y * z;
  }
  const m = [
    [n, sx, sy, sz],
    [sx, sxx, sxy, sxz],
    [sy, sxy, syy, syz],
  ];
  const solved = solveLinear(
    m.map((r) => r.slice(0, 3)),
    m.map((r) => r[3] ?? 0),
  );
  return [solved[0] ?? 0, solved[1] ?? 0, solved[2] ?? 0];
}

function otsu(values: Float32Array, lo: number, hi: number): number {
  const bins = 256;
  const hist = new Float64Array(bins);
  for (const v of values) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * bins)));
    hist[b] = (hist[b] ?? 0) + 1;
  }
  let total = 0;
  let sum = 0;
  for (let i = 0; i < bins; i++) {
    total += hist[i] ?? 0;
    sum += i * (hist[i] ?? 0);
  }
  let best = 0;
  let bestVar = -1;
  let w0 = 0;
  let s0 = 0;
  for (let i = 0; i < bins; i++) {
    w0 += hist[i] ?? 0;
    s0 += i * (hist[i] ?? 0);
    const w1 = total - w0;
    if (w0 === 0 || w1 === 0) continue;
    const m0 = s0 / w0;
    const m1 = (sum - s0) / w1;
    const v = w0 * w1 * (m0 - m1) ** 2;
    if (v > bestVar) {
      bestVar = v;
      best = i;
    }
  }
  return lo + ((best + 0.5) / bins) * (hi - lo);
}

/** The largest 4-connected component of the mask, as a new mask, and its size. */
function largestComponent(
  mask: Uint8Array,
  width: number,
  height: number,
): { mask: Uint8Array; size: number } {
  let best: number[] = [];
  for (const pixels of connectedComponents(mask, width, height))
    if (pixels.length > best.length) best = pixels;
  const out = new Uint8Array(mask.length);
  for (const p of best) out[p] = 1;
  return { mask: out, size: best.length };
}

function morph(mask: Uint8Array, width: number, height: number, radius: number, dilate: boolean): Uint8Array {
  // Separable square structuring element: a row pass then a column pass, each a running count of
  // the set pixels in the window (cut at the image's edges): dilation keeps a pixel when any is set,
  // erosion when all are.
  const tmp = new Uint8Array(mask.length);
  const out = new Uint8Array(mask.length);
  const pass = (
    src: Uint8Array,
    dst: Uint8Array,
    length: number,
    lines: number,
    step: number,
    stride: number,
  ) => {
    for (let line = 0; line < lines; line++) {
      const base = line * stride;
      let count = 0;
      for (let i = 0; i < Math.min(radius, length); i++) count += src[base + i * step] as number;
      for (let i = 0; i < length; i++) {
        const enter = i + radius;
        if (enter < length) count += src[base + enter * step] as number;
        const leave = i - radius - 1;
        if (leave >= 0) count -= src[base + leave * step] as number;
        const size = Math.min(length - 1, i + radius) - Math.max(0, i - radius) + 1;
        dst[base + i * step] = dilate ? (count > 0 ? 1 : 0) : count === size ? 1 : 0;
      }
    }
  };
  pass(mask, tmp, width, height, 1, width);
  pass(tmp, out, height, width, width, 1);
  return out;
}

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Andrew's monotone chain; counter-clockwise in image coordinates is clockwise on screen. */
export function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const lower: Point[] = [];
  for (const p of sorted) {
    while (
      lower.length >= 2 &&
      cross(lower[lower.length - 2] as Point, lower[lower.length - 1] as Point, p) <= 0
    )
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i] as Point;
    while (
      upper.length >= 2 &&
      cross(upper[upper.length - 2] as Point, upper[upper.length - 1] as Point, p) <= 0
    )
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

export function polygonArea(points: Point[]): number {
  let a = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as Point;
    const q = points[(i + 1) % points.length] as Point;
    a += p[0] * q[1] - q[0] * p[1];
  }
  return Math.abs(a) / 2;
}

const dist2 = (a: Point, b: Point) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2;

/** Four hull vertices spanning the largest quadrilateral (greedy: diagonal, then the two apexes). */
function roughQuad(hull: Point[]): Point[] {
  const c: Point = [
    hull.reduce((s, p) => s + p[0], 0) / hull.length,
    hull.reduce((s, p) => s + p[1], 0) / hull.length,
  ];
  let p1 = hull[0] as Point;
  for (const p of hull) if (dist2(p, c) > dist2(p1, c)) p1 = p;
  let p2 = p1;
  for (const p of hull) if (dist2(p, p1) > dist2(p2, p1)) p2 = p;
  let p3 = p1;
  let p4 = p1;
  let best3 = 0;
  let best4 = 0;
  for (const p of hull) {
    const s = cross(p1, p2, p);
    if (s > best3) {
      best3 = s;
      p3 = p;
    }
    if (-s > best4) {
      best4 = -s;
      p4 = p;
    }
  }
  return [p1, p3, p2, p4];
}

type Line = { a: number; b: number; c: number }; // a·x + b·y = c, (a, b) unit

/** Total-least-squares line through the points. */
function fitLine(points: Point[]): Line | undefined {
  if (points.length < 2) return undefined;
  const mx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const my = points.reduce((s, p) => s + p[1], 0) / points.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
  }
  // The normal is the eigenvector of the smaller eigenvalue of the scatter matrix.
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy); // direction of the line
  const a = -Math.sin(theta);
  const b = Math.cos(theta);
  return { a, b, c: a * mx + b * my };
}

function intersect(l1: Line, l2: Line): Point | undefined {
  const det = l1.a * l2.b - l2.a * l1.b;
  if (Math.abs(det) < 1e-9) return undefined;
  return [(l1.c * l2.b - l2.c * l1.b) / det, (l1.a * l2.c - l2.a * l1.c) / det];
}

/** Corners from four refined sides of the largest hull quadrilateral (fallback when few straight edges). */
function quadFromHull(boundary: Point[], width: number): Point[] | undefined {
  const hull = convexHull(boundary);
  if (hull.length < 4) return undefined;
  const rough = roughQuad(hull);
  // Refine each side: boundary points near the rough side, away from its (rounded) ends.
  const tolerance = Math.max(3, width * 0.012);
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const p = rough[i] as Point;
    const q = rough[(i + 1) % 4] as Point;
    const len = Math.sqrt(dist2(p, q));
    if (len < 5) return undefined;
    const ux = (q[0] - p[0]) / len;
    const uy = (q[1] - p[1]) / len;
    const near = boundary.filter(([x, y]) => {
      const t = (x - p[0]) * ux + (y - p[1]) * uy;
      const d = Math.abs(-(x - p[0]) * uy + (y - p[1]) * ux);
      return t > len * 0.12 && t < len * 0.88 && d < tolerance;
    });
    const line = near.length >= 6 ? fitLine(near) : fitLine([p, q]);
    if (!line) return undefined;
    lines.push(line);
  }
  return cornersOf(lines);
}

function isConvex(quad: Point[]): boolean {
  const ordered = orderCorners(quad);
  const signs = ordered.map((p, i) =>
    Math.sign(cross(p, ordered[(i + 1) % 4] as Point, ordered[(i + 2) % 4] as Point)),
  );
  return signs.every((x) => x === signs[0] && x !== 0);
}

/** Intersection over union of the quadrilateral and the mask, on the mask's grid. */
function quadIou(quad: Point[], mask: Uint8Array, width: number, height: number): number {
  const q = orderCorners(quad);
  const orientation = Math.sign(cross(q[0] as Point, q[1] as Point, q[2] as Point));
  // cross(q[i], q[i + 1], p) per side, its factors computed once.
  const ox = q.map((p) => p[0]);
  const oy = q.map((p) => p[1]);
  const dx = q.map((p, i) => (q[(i + 1) % 4] as Point)[0] - p[0]);
  const dy = q.map((p, i) => (q[(i + 1) % 4] as Point)[1] - p[1]);
  let inter = 0;
  let union = 0;
  for (let y = 0; y < height; y++) {
    const py = y + 0.5;
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      let inside = true;
      for (let i = 0; i < 4 && inside; i++)
        if (
          Math.sign(
            (dx[i] as number) * (py - (oy[i] as number)) - (dy[i] as number) * (px - (ox[i] as number)),
          ) === -orientation
        )
          inside = false;
      const m = mask[y * width + x] === 1;
      if (inside && m) inter++;
      if (inside || m) union++;
    }
  }
  return union === 0 ? 0 : inter / union;
}

function cornersOf(lines: Line[]): Point[] | undefined {
  const corners: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const corner = intersect(lines[(i + 3) % 4] as Line, lines[i] as Line);
    if (!corner) return undefined;
    corners.push(corner);
  }
  return corners;
}

type Edge = { line: Line; inliers: number; angle: number };

/**
 * The longest straight runs of the region's outline (RANSAC, up to six): a glare spot or a bright
 * patch of the surface merged with the card has a curved outline and no long straight run, so the
 * card's own sides are among them.
 */
function straightEdges(boundary: Point[], width: number): Edge[] {
  let remaining = boundary;
  const edges: Edge[] = [];
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const minInliers = width * 0.12;
  for (let k = 0; k < 6 && remaining.length > minInliers; k++) {
    let best: Line | undefined;
    let bestCount = 0;
    const n = remaining.length;
    const xs = Float64Array.from(remaining, (r) => r[0]);
    const ys = Float64Array.from(remaining, (r) => r[1]);
    for (let iter = 0; iter < 250; iter++) {
      const p = remaining[Math.floor(random() * remaining.length)] as Point;
      const q = remaining[Math.floor(random() * remaining.length)] as Point;
      const len = Math.sqrt(dist2(p, q));
      if (len < width * 0.05) continue;
      const a = -(q[1] - p[1]) / len;
      const b = (q[0] - p[0]) / len;
      const c = a * p[0] + b * p[1];
      let count = 0;
      for (let i = 0; i < n; i++)
        if (Math.abs(a * (xs[i] as number) + b * (ys[i] as number) - c) < 1.5) count++;
      if (count > bestCount) {
        bestCount = count;
        best = { a, b, c };
      }
    }
    if (!best || bestCount < minInliers) break;
    const line = best;
    const inliers = remaining.filter((r) => Math.abs(line.a * r[0] + line.b * r[1] - line.c) < 1.5);
    const fitted = fitLine(inliers) ?? line;
    edges.push({ line: fitted, inliers: inliers.length, angle: Math.atan2(fitted.b, fitted.a) });
    remaining = remaining.filter((r) => Math.abs(fitted.a * r[0] + fitted.b * r[1] - fitted.c) > 4);
  }
  return edges;
}

/** Degrees between two line directions, 0–90. */
function angleGap(x: number, y: number): number {
  let d = Math.abs(x - y) % Math.PI;
  if (d > Math.PI / 2) d = Math.PI - d;
  return (d * 180) / Math.PI;
}

/** The four sides: two pairs of roughly parallel straight runs, the pairs across each other. */
function quadFromFourEdges(edges: Edge[], boundary: Point[], width: number): Point[] | undefined {
  if (edges.length < 4) return undefined;
  let best: { score: number; lines: Line[] } | undefined;
  for (let i = 0; i < edges.length; i++)
    for (let j = i + 1; j < edges.length; j++)
      for (let k = j + 1; k < edges.length; k++)
        for (let l = k + 1; l < edges.length; l++) {
          const four = [edges[i], edges[j], edges[k], edges[l]] as Edge[];
          for (const [a, b, c, d] of [
            [0, 1, 2, 3],
            [0, 2, 1, 3],
            [0, 3, 1, 2],
          ] as const) {
            const e = four as [Edge, Edge, Edge, Edge];
            if (angleGap(e[a].angle, e[b].angle) > 30 || angleGap(e[c].angle, e[d].angle) > 30) continue;
            if (angleGap(e[a].angle, e[c].angle) < 50) continue;
            const score = four.reduce((s, x) => s + x.inliers, 0);
            if (!best || score > best.score)
              best = { score, lines: [e[a].line, e[c].line, e[b].line, e[d].line] };
          }
        }
  if (!best) return undefined;
  const corners = cornersOf(best.lines);
  if (!corners) return undefined;
  // The four intersections must stay near the region (parallel-ish lines meet far away otherwise).
  const margin = width * 0.15;
  const xs = boundary.map((p) => p[0]);
  const ys = boundary.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const inside = corners.every(
    ([x, y]) => x > minX - margin && x < maxX + margin && y > minY - margin && y < maxY + margin,
  );
  return inside ? corners : undefined;
}

/** Long over short side assumed when one side is missing: between an ID-1 card (1.59) and a passport page (1.42). */
const ASSUMED_ASPECT = 1.5;

/**
 * Three straight sides — two parallel runs and one across them — when the fourth is lost in glare
 * or in a bright surface that merged with the card (a tilted card under a lamp). The fourth side is
 * put parallel to the third at the documents' aspect ratio: along the parallel sides when their
 * straight runs reach further than the third side is long (it is a short side), else across.
 */
function quadFromThreeEdges(edges: Edge[], boundary: Point[]): Point[] | undefined {
  let best: { score: number; a: Edge; b: Edge; c: Edge } | undefined;
  for (const [i, a] of edges.entries())
    for (const b of edges.slice(i + 1))
      for (const c of edges) {
        if (c === a || c === b || angleGap(a.angle, b.angle) > 30) continue;
        if (angleGap(a.angle, c.angle) < 50 || angleGap(b.angle, c.angle) < 50) continue;
        const score = a.inliers + b.inliers + c.inliers;
        if (!best || score > best.score) best = { score, a, b, c };
      }
  if (!best) return undefined;
  const { a, b, c } = best;
  const p1 = intersect(c.line, a.line);
  const p2 = intersect(c.line, b.line);
  if (!p1 || !p2) return undefined;
  const across = Math.sqrt(dist2(p1, p2));
  // Along the parallel sides, away from the third side, towards the region.
  const side = boundary.reduce((s, [x, y]) => s + (x - p1[0]) * -c.line.a + (y - p1[1]) * -c.line.b, 0);
  const [ux, uy] = side >= 0 ? [-c.line.a, -c.line.b] : [c.line.a, c.line.b];
  const onSides = boundary.filter(([x, y]) =>
    [a.line, b.line].some((l) => Math.abs(l.a * x + l.b * y - l.c) < 1.5),
  );
  const reach = Math.max(...onSides.map(([x, y]) => (x - p1[0]) * ux + (y - p1[1]) * uy));
  const along = reach > across * 1.1 ? across * ASSUMED_ASPECT : across / ASSUMED_ASPECT;
  const [fx, fy] = [p1[0] + ux * along, p1[1] + uy * along];
  const far: Line = { a: c.line.a, b: c.line.b, c: c.line.a * fx + c.line.b * fy };
  const p3 = intersect(far, b.line);
  const p4 = intersect(far, a.line);
  return p3 && p4 ? [p1, p2, p3, p4] : undefined;
}

/**
 * The document's outline in the photo, or undefined when no large bright quadrilateral is found
 * (a selfie, a landscape, a blank wall).
 */
export function findDocumentOutline(photo: GreyImage): DocumentOutline | undefined {
  const small = downscale(photo, Math.min(WORK_WIDTH, photo.width));
  const component = segmentDocument(small);
  if (component.size < small.width * small.height * 0.08) return undefined;
  return outlineFromMask(component, small.width, small.height, photo.width / small.width);
}

/** The mask of the largest region clearly brighter than the surface (exported for debugging). */
export function segmentDocument(small: GreyImage): { mask: Uint8Array; size: number } {
  const { width, height, data } = small;
  // Lighting: fit a plane to the border ring (the surface), divide it out.
  const ring = Math.max(3, Math.round(width * 0.04));
  const samples: [number, number, number][] = [];
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      if (x < ring || x >= width - ring || y < ring || y >= height - ring)
        samples.push([x, y, data[y * width + x] ?? 0]);
    }
  }
  const [pa, pb, pc] = fitPlane(samples);
  const ratio = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const plane = Math.max(12, pa + pb * x + pc * y);
      ratio[y * width + x] = (data[y * width + x] ?? 0) / plane;
    }
  }
  const threshold = Math.max(1.08, otsu(ratio, 0, 3));
  let mask: Uint8Array = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = (ratio[i] ?? 0) > threshold ? 1 : 0;
  // Close small gaps (text, guilloche), then open to cut thin bridges to bright background specks.
  mask = morph(mask, width, height, 2, true);
  mask = morph(mask, width, height, 2, false);
  mask = morph(mask, width, height, 1, false);
  mask = morph(mask, width, height, 1, true);
  return largestComponent(mask, width, height);
}

function outlineFromMask(
  component: { mask: Uint8Array; size: number },
  width: number,
  height: number,
  scale: number,
): DocumentOutline | undefined {
  const boundary: Point[] = [];
  const m = component.mask;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!m[i]) continue;
      if (
        x === 0 ||
        y === 0 ||
        x === width - 1 ||
        y === height - 1 ||
        !m[i - 1] ||
        !m[i + 1] ||
        !m[i - width] ||
        !m[i + width]
      )
        boundary.push([x + 0.5, y + 0.5]);
    }
  }
  // Two estimates; keep the one whose quadrilateral agrees best with the region (IoU): the
  // straight-edge fit is immune to glare blobs but can lock onto a texture line on a poor capture.
  const valid = (q: Point[] | undefined) => (q && isConvex(q) ? q : undefined);
  const edges = straightEdges(boundary, width);
  const fromEdges = valid(quadFromFourEdges(edges, boundary, width));
  const fromHull = valid(quadFromHull(boundary, width));
  const edgesIou = fromEdges ? quadIou(fromEdges, m, width, height) : 0;
  const hullIou = fromHull ? quadIou(fromHull, m, width, height) : 0;
  // The hull always hugs the region, glare included, so the edges win unless clearly worse.
  const useEdges = fromEdges !== undefined && edgesIou >= hullIou - 0.08;
  const outline = (quad: Point[] | undefined, iou: number): DocumentOutline | undefined => {
    if (!quad || iou < 0.6) return undefined;
    const corners = orderCorners(quad.map(([x, y]) => [x * scale, y * scale] as Point));
    // ID documents are landscape rectangles (1.42–1.59); tilt and perspective stretch that a little.
    const sideLength = (i: number) => Math.sqrt(dist2(corners[i] as Point, corners[(i + 1) % 4] as Point));
    const aspect = (sideLength(0) + sideLength(2)) / (sideLength(1) + sideLength(3));
    if (aspect < 1.1 || aspect > 2) return undefined;
    const area = polygonArea(corners);
    const coverage = area / (width * height * scale * scale);
    const solidity = Math.min(1, component.size / (area / (scale * scale)));
    return { corners: corners as DocumentOutline['corners'], coverage, solidity };
  };
  const found = useEdges ? outline(fromEdges, edgesIou) : outline(fromHull, hullIou);
  const [photoWidth, photoHeight] = [width * scale, height * scale];
  if (found) return spansFrame(found, photoWidth, photoHeight) ? undefined : found;
  // Neither fits: one side may be lost in glare that merged with the card.
  const fromThree = valid(quadFromThreeEdges(edges, boundary));
  const three = fromThree && outline(fromThree, quadIou(fromThree, m, width, height));
  return three && !spansFrame(three, photoWidth, photoHeight) ? three : undefined;
}

/**
 * Whether the outline runs along two opposite edges of the photo (a side within 1 % of the photo's
 * width or height from the frame's left and right edges, or its top and bottom). Such a region
 * spans the frame and is cut by it, not bounded by a document's own edges: the card fills the
 * frame, so the border ring the lighting was fitted on is the card itself, and the region is merely
 * its brighter part (a licence lit from the left came out as its left half, rectified as a card
 * turned on its side). The whole photo is then read as the card. A card put into a corner of a scan
 * (two adjacent sides on the frame) keeps its outline.
 */
function spansFrame(outline: DocumentOutline, w: number, h: number): boolean {
  const [tx, ty] = [0.01 * w, 0.01 * h];
  const on = (near: (p: Point) => boolean) =>
    outline.corners.some((p, i) => near(p) && near(outline.corners[(i + 1) % 4] as Point));
  return (
    (on((p) => p[0] < tx) && on((p) => p[0] > w - tx)) || (on((p) => p[1] < ty) && on((p) => p[1] > h - ty))
  );
}

/** Clockwise from top left, with the long side horizontal (ID documents are read landscape). */
function orderCorners(points: Point[]): Point[] {
  const cx = points.reduce((s, p) => s + p[0], 0) / 4;
  const cy = points.reduce((s, p) => s + p[1], 0) / 4;
  const sorted = [...points].sort(
    (a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx),
  );
  // atan2 order in image coordinates runs clockwise on screen starting near the left; start at
  // the corner with the smallest x + y.
  let start = 0;
  sorted.forEach((p, i) => {
    const s = sorted[start] as Point;
    if (p[0] + p[1] < s[0] + s[1]) start = i;
  });
  let ordered = [0, 1, 2, 3].map((k) => sorted[(start + k) % 4] as Point);
  const top = Math.sqrt(dist2(ordered[0] as Point, ordered[1] as Point));
  const side = Math.sqrt(dist2(ordered[1] as Point, ordered[2] as Point));
  if (side > top * 1.1) ordered = [1, 2, 3, 0].map((k) => ordered[k] as Point);
  return ordered;
}

/** The quadrilateral warped to a width × height rectangle (bilinear sampling). */
export function warpDocument(photo: GreyImage, corners: Point[], width: number, height: number): GreyImage {
  return warpQuad(photo, corners, width, height);
}

/** A photo, decoded to grey, and the document found in it. */
export interface LocatedDocument {
  grey: GreyImage;
  outline: DocumentOutline;
}

/**
 * The OCR check's image geometry: finding the document in a photo and rectifying it. These are the
 * check's long synchronous computations (tens of milliseconds each at 1280 px), so they are
 * asynchronous here: the pipeline runs them in its worker threads (inference-pool.ts) to keep the
 * worker's event loop, which in `mimoto start` also serves the API, free; `geometryInThisThread`
 * runs them where it is called.
 */
export interface DocumentGeometry {
  /** undefined when no document outline is found. */
  locate(photo: Buffer): Promise<LocatedDocument | undefined>;
  warp(grey: GreyImage, corners: Point[], width: number, height: number): Promise<GreyImage>;
}

export async function locateDocument(photo: Buffer): Promise<LocatedDocument | undefined> {
  const grey = await decodePhoto(photo);
  const outline = findDocumentOutline(grey);
  return outline ? { grey, outline } : undefined;
}

export const geometryInThisThread: DocumentGeometry = {
  locate: locateDocument,
  warp: async (grey, corners, width, height) => warpDocument(grey, corners, width, height),
};

/** A rectangle of a grey image as PNG, for Tesseract. */
export async function cropPng(
  image: GreyImage,
  box: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const left = Math.max(0, Math.round(box.left));
  const top = Math.max(0, Math.round(box.top));
  const width = Math.min(image.width - left, Math.round(box.width));
  const height = Math.min(image.height - top, Math.round(box.height));
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .extract({ left, top, width: Math.max(1, width), height: Math.max(1, height) })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
