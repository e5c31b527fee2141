// A textured 3D face built from Human's face mesh of a photo, re-rendered at other head poses
// (docs/corpus.md "Liveness captures"). The 468 landmarks carry depth (z); two rings around the
// face oval stand in for hair, ears and neck and fade into the static background, so the head turns
// in front of it.

import type { Point } from '../platform/image/homography.ts';
import { detectFaceMesh, faceMeshTriangulation, type MeshPoint } from '../platform/ml/human.ts';
import { triangulate } from './delaunay.ts';
import type { RgbImage } from './photograph-document.ts';

/** Head pose in degrees in Human's convention, and a scale (> 1 = closer to the camera). */
export type HeadPose = { yaw: number; pitch: number; roll: number; scale: number };

export type FaceModel = {
  /** The photo the texture is taken from. */
  texture: RgbImage;
  /** Texture coordinates of each vertex. */
  uv: Point[];
  /** Frontalised 3D positions relative to the pivot, in texture pixels. */
  positions: [number, number, number][];
  /** Opacity of each vertex (the outer ring fades to the background). */
  alpha: number[];
  triangles: [number, number, number][];
  pivot: [number, number];
  /** The pose Human measured on the source photo (removed from `positions`). */
  sourcePose: HeadPose;
};

// Face oval landmarks of the 468-point mesh, in order around the face.
const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149,
  150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];

// Inner lip contour, upper then lower.
const INNER_LIPS = [
  78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95,
];

const DEG = Math.PI / 180;
const MESH_POINTS = 468;

// Human's landmark z is flatter than the real face; this stretch makes a rendered rotation read
// back from Human's mesh at about its own size (measured on the fixture faces).
const DEPTH_SCALE = 3;

type Vec3 = [number, number, number];

/**
 * Rotation matrix for a pose, row-major. The signs were set by measuring rendered faces with
 * Human, so that a pose given here is the pose Human reports: yaw about the vertical axis, pitch
 * about the horizontal axis, roll in the image plane.
 */
export function poseMatrix(yaw: number, pitch: number, roll: number): number[] {
  const [cy, sy] = [Math.cos(yaw * DEG), Math.sin(yaw * DEG)];
  const [cp, sp] = [Math.cos(pitch * DEG), Math.sin(pitch * DEG)];
  const [cr, sr] = [Math.cos(roll * DEG), Math.sin(roll * DEG)];
  const ry = [cy, 0, sy, 0, 1, 0, -sy, 0, cy];
  const rx = [1, 0, 0, 0, cp, -sp, 0, sp, cp];
  const rz = [cr, -sr, 0, sr, cr, 0, 0, 0, 1];
  return multiply(rz, multiply(rx, ry));
}

function multiply(a: number[], b: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += (a[i * 3 + k] ?? 0) * (b[k * 3 + j] ?? 0);
      out[i * 3 + j] = s;
    }
  return out;
}

function transpose(m: number[]): number[] {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]] as number[];
}

function apply(m: number[], [x, y, z]: Vec3): Vec3 {
  return [
    (m[0] ?? 0) * x + (m[1] ?? 0) * y + (m[2] ?? 0) * z,
    (m[3] ?? 0) * x + (m[4] ?? 0) * y + (m[5] ?? 0) * z,
    (m[6] ?? 0) * x + (m[7] ?? 0) * y + (m[8] ?? 0) * z,
  ];
}

/** Build the model from a scene containing one face; null when Human finds no face. */
export async function buildFaceModel(
  texture: RgbImage,
  options: { frontalise?: boolean; depthScale?: number } = {},
): Promise<FaceModel | null> {
  const mesh = await detectFaceMesh({ ...texture, channels: 3 });
  if (!mesh) return null;
  const lm: MeshPoint[] = mesh.landmarks;
  const oval = FACE_OVAL.map((i) => lm[i] as MeshPoint);
  const cx = lm.reduce((s, p) => s + p.x, 0) / lm.length;
  const cy = lm.reduce((s, p) => s + p.y, 0) / lm.length;
  const meanZ = lm.reduce((s, p) => s + p.z, 0) / lm.length;
  const faceWidth = Math.max(...oval.map((p) => p.x)) - Math.min(...oval.map((p) => p.x));
  const depthScale = options.depthScale ?? DEPTH_SCALE;
  const pivotZ = meanZ + 0.3 * faceWidth;
  const uv: Point[] = [];
  const pos: Vec3[] = [];
  const alpha: number[] = [];
  for (const p of lm) {
    uv.push([p.x, p.y]);
    pos.push([p.x - cx, p.y - cy, (p.z - meanZ) * depthScale + meanZ - pivotZ]);
    alpha.push(1);
  }
  // Rings: hair/ears/neck at 1.3× the oval, set back; then a fully transparent ring at 1.75×.
  for (const [scale, back, a] of [
    [1.3, 0.18, 1],
    [1.75, 0.35, 0],
  ] as const) {
    for (const p of oval) {
      const x = cx + (p.x - cx) * scale;
      const y = cy + (p.y - cy) * scale;
      uv.push([x, y]);
      // Each ring point sits a little behind its own oval point: one common depth for the ring
      // would fold the surface over the forehead and chin once the head turns.
      const ringZ = (p.z - meanZ) * depthScale + meanZ + (depthScale > 0 ? back * faceWidth : 0);
      pos.push([x - cx, y - cy, ringZ - pivotZ]);
      alpha.push(a);
    }
  }
  const sourcePose: HeadPose = { ...mesh.rotation, scale: 1 };
  const positions =
    options.frontalise === false
      ? pos
      : pos.map((p) => apply(transpose(poseMatrix(sourcePose.yaw, sourcePose.pitch, sourcePose.roll)), p));
  // The face itself uses Human's mesh triangulation (the surface's real topology); a Delaunay
  // triangulation of the photo's 2D points would join points that crowd together on the side of
  // the face turned away, which then fold into jagged strips when the face is frontalised.
  const meshTriangles: [number, number, number][] = [];
  const reference = await faceMeshTriangulation();
  for (let i = 0; i + 2 < reference.length; i += 3) {
    meshTriangles.push([reference[i] ?? 0, reference[i + 1] ?? 0, reference[i + 2] ?? 0]);
  }
  // The reference triangulation leaves the mouth opening empty; close it (teeth, lips' inside).
  const mouth = INNER_LIPS.map((i) => uv[i] as Point);
  const mouthTriangles = triangulate(mouth).map(
    (t) => t.map((k) => INNER_LIPS[k] ?? 0) as [number, number, number],
  );
  meshTriangles.push(...mouthTriangles);
  const ringTriangles = triangulate(uv).filter((t) => t.some((i) => i >= MESH_POINTS));
  const triangles = [...meshTriangles, ...ringTriangles];
  return { texture, uv, positions, alpha, triangles, pivot: [cx, cy], sourcePose };
}

/** A frontal rendering whose mesh reads within this of frontal (degrees, yaw and pitch) is frontal. */
const FRONTAL_TOLERANCE = 1.5;
/** Corrections tried after the first frontal rendering. */
const FRONTALISE_ROUNDS = 3;
const FRONT: HeadPose = { yaw: 0, pitch: 0, roll: 0, scale: 1 };

/**
 * The model turned until its frontal rendering reads frontal. Human's reading of a turned photo's
 * pose is a few degrees off, and differently so for each crop of one photo (a selfie turned about
 * 12° read 3.4° in one scene, 8.9° in another), so the model frontalised with it still looks
 * aside: its "frontal" frames read 6° turned and every turn towards that side reads 6° short
 * (a 20° turn read 9° from frontal). Each round renders the frontal pose over `background`,
 * measures it, and takes the reading off the model's yaw and pitch; the rendering that read
 * closest to frontal is kept (one reading can be off by a few degrees itself). Roll is left as
 * the photo has it. The model is unchanged when Human finds no face.
 */
export async function settleFrontal(model: FaceModel, background: RgbImage): Promise<FaceModel> {
  let best = model;
  let bestResidual = Number.POSITIVE_INFINITY;
  let current = model;
  for (let round = 0; round <= FRONTALISE_ROUNDS; round++) {
    const mesh = await detectFaceMesh({ ...renderFaceModel(current, FRONT, background), channels: 3 });
    if (!mesh) break;
    const { yaw, pitch } = mesh.rotation;
    const residual = Math.hypot(yaw, pitch);
    if (residual < bestResidual) [best, bestResidual] = [current, residual];
    if (residual < FRONTAL_TOLERANCE) break;
    const undo = transpose(poseMatrix(yaw, pitch, 0));
    current = { ...current, positions: current.positions.map((p) => apply(undo, p)) };
  }
  return best;
}

/**
 * Render the model at `pose` over `background` (same size as the texture), orthographic
 * projection with a z-buffer and bilinear texture sampling.
 */
export function renderFaceModel(model: FaceModel, pose: HeadPose, background: RgbImage): RgbImage {
  const { width, height } = background;
  const out = Buffer.from(background.data);
  const zbuf = new Float32Array(width * height).fill(Number.POSITIVE_INFINITY);
  const m = poseMatrix(pose.yaw, pose.pitch, pose.roll);
  const [px, py] = model.pivot;
  const projected = model.positions.map((p) => {
    const [x, y, z] = apply(m, p);
    return [px + x * pose.scale, py + y * pose.scale, z * pose.scale] as Vec3;
  });
  const tex = model.texture;
  // Two layers: first the rings (hair, ears, neck), then the face mesh over them with its own
  // depth test. One shared depth test lets the ring, stretched when the head turns, poke through
  // the face in jagged strips where the two surfaces are at similar depths.
  const ringFirst = [
    ...model.triangles.filter((t) => t.some((i) => i >= MESH_POINTS)),
    ...model.triangles.filter((t) => t.every((i) => i < MESH_POINTS)),
  ];
  let faceLayer = false;
  for (const [ia, ib, ic] of ringFirst) {
    if (!faceLayer && ia < MESH_POINTS && ib < MESH_POINTS && ic < MESH_POINTS) {
      faceLayer = true;
      zbuf.fill(Number.POSITIVE_INFINITY);
    }
    const a = projected[ia] as Vec3;
    const b = projected[ib] as Vec3;
    const c = projected[ic] as Vec3;
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if (Math.abs(area) < 1e-6) continue;
    const ua = model.uv[ia] as Point;
    const ub = model.uv[ib] as Point;
    const uc = model.uv[ic] as Point;
    const aa = model.alpha[ia] ?? 1;
    const ab = model.alpha[ib] ?? 1;
    const ac = model.alpha[ic] ?? 1;
    const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0])));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
    const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1])));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
    for (let y = y0; y <= y1; y++) {
      const sy = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const sx = x + 0.5;
        const w0 = ((b[0] - sx) * (c[1] - sy) - (c[0] - sx) * (b[1] - sy)) / area;
        const w1 = ((c[0] - sx) * (a[1] - sy) - (a[0] - sx) * (c[1] - sy)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < -1e-6 || w1 < -1e-6 || w2 < -1e-6) continue;
        const z = w0 * a[2] + w1 * b[2] + w2 * c[2];
        const zi = y * width + x;
        if (z >= (zbuf[zi] ?? 0)) continue;
        zbuf[zi] = z;
        const u = w0 * ua[0] + w1 * ub[0] + w2 * uc[0];
        const v = w0 * ua[1] + w1 * ub[1] + w2 * uc[1];
        const alpha = w0 * aa + w1 * ab + w2 * ac;
        const o = zi * 3;
        sampleInto(tex, u, v, out, o, alpha);
      }
    }
  }
  return { data: out, width, height };
}

function sampleInto(tex: RgbImage, u: number, v: number, out: Buffer, o: number, alpha: number): void {
  const fu = Math.min(Math.max(u - 0.5, 0), tex.width - 1.001);
  const fv = Math.min(Math.max(v - 0.5, 0), tex.height - 1.001);
  const iu = Math.floor(fu);
  const iv = Math.floor(fv);
  const du = fu - iu;
  const dv = fv - iv;
  const i00 = (iv * tex.width + iu) * 3;
  const i10 = i00 + 3;
  const i01 = i00 + tex.width * 3;
  const i11 = i01 + 3;
  const d = tex.data;
  for (let c = 0; c < 3; c++) {
    const top = (d[i00 + c] ?? 0) * (1 - du) + (d[i10 + c] ?? 0) * du;
    const bottom = (d[i01 + c] ?? 0) * (1 - du) + (d[i11 + c] ?? 0) * du;
    const value = top * (1 - dv) + bottom * dv;
    out[o + c] = Math.round(value * alpha + (out[o + c] ?? 0) * (1 - alpha));
  }
}
