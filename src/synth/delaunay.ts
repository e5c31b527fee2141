// Bowyer–Watson Delaunay triangulation of 2D points, for the textured liveness face: it joins
// the face-mesh landmarks, the rings around the face and the frame border into one surface.
import type { Point } from '../platform/image/homography.ts';

type Tri = { a: number; b: number; c: number; cx: number; cy: number; r2: number };

function circumcircle(p: Point[], a: number, b: number, c: number): Tri {
  const [ax, ay] = p[a] as Point;
  const [bx, by] = p[b] as Point;
  const [cx, cy] = p[c] as Point;
  const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  const a2 = ax * ax + ay * ay;
  const b2 = bx * bx + by * by;
  const c2 = cx * cx + cy * cy;
  const ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
  const uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
  return { a, b, c, cx: ux, cy: uy, r2: (ax - ux) ** 2 + (ay - uy) ** 2 };
}

/** Triangles as index triples into `points` (duplicate points are skipped). */
export function triangulate(points: Point[]): [number, number, number][] {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const span = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY) * 10 + 1;
  const all: Point[] = [
    ...points,
    [minX - span, minY - span],
    [minX + 2 * span, minY - span],
    [minX - span, minY + 2 * span],
  ];
  const n = points.length;
  let tris: Tri[] = [circumcircle(all, n, n + 1, n + 2)];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const [px, py] = all[i] as Point;
    const key = `${px.toFixed(3)},${py.toFixed(3)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const bad: Tri[] = [];
    const keep: Tri[] = [];
    for (const t of tris) ((px - t.cx) ** 2 + (py - t.cy) ** 2 < t.r2 ? bad : keep).push(t);
    const edges = new Map<string, [number, number]>();
    for (const t of bad) {
      for (const [u, v] of [
        [t.a, t.b],
        [t.b, t.c],
        [t.c, t.a],
      ] as [number, number][]) {
        const k = u < v ? `${u},${v}` : `${v},${u}`;
        if (edges.has(k)) edges.delete(k);
        else edges.set(k, [u, v]);
      }
    }
    for (const [u, v] of edges.values()) keep.push(circumcircle(all, u, v, i));
    tris = keep;
  }
  return tris.filter((t) => t.a < n && t.b < n && t.c < n).map((t) => [t.a, t.b, t.c]);
}
