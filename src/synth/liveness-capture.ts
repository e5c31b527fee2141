// Liveness captures (docs/corpus.md): the head turns, nods and comes closer, rendered from a
// textured 3D face; frames carry timestamps and the pose they show, and a 4:2:0 .y4m of the
// whole capture feeds Chromium's fake camera. Face attacks change what is rendered, not how.
import sharp from 'sharp';
import {
  buildFaceModel,
  type FaceModel,
  type HeadPose,
  renderFaceModel,
  settleFrontal,
} from './face-model.ts';
import { composeFaceScene, type FaceSceneParameters } from './face-scene.ts';
import type { RgbImage } from './photograph-document.ts';
import { Random } from './random.ts';
import { y4mFrame, y4mHeader } from './y4m.ts';

export const LIVENESS_STEPS = ['turn_left', 'turn_right', 'look_up', 'look_down', 'closer'] as const;
export type LivenessStep = (typeof LIVENESS_STEPS)[number];
export type PoseName = 'center' | LivenessStep;

/**
 * Target poses, degrees as Human reports them: yaw > 0 is the subject turned to their right
 * (nose towards the image's left, camera not mirrored), pitch > 0 is looking down.
 */
export const POSES: Record<PoseName, HeadPose> = {
  center: { yaw: 0, pitch: 0, roll: 0, scale: 1 },
  turn_left: { yaw: -20, pitch: 0, roll: 0, scale: 1 },
  turn_right: { yaw: 20, pitch: 0, roll: 0, scale: 1 },
  look_up: { yaw: 0, pitch: -15, roll: 0, scale: 1 },
  look_down: { yaw: 0, pitch: 15, roll: 0, scale: 1 },
  closer: { yaw: 0, pitch: 0, roll: 0, scale: 1.35 },
};

export const POSE_CONVENTION =
  'degrees as Human face mesh reports them: yaw > 0 = subject turned to their right (nose towards image left, camera not mirrored); pitch > 0 = looking down; scale > 1 = closer';

export type Keyframe = { t: number; name: PoseName; pose: HeadPose };

// Seconds: centre hold at start, then per step move, hold, return, rest.
const START_HOLD = 1.2;
const MOVE = 0.4;
const HOLD = 0.7;
const RETURN = 0.4;
const REST = 0.1;

/** Keyframes for a capture that performs `order`; it lasts 1.2 + 1.6 per step seconds (≥ 8 s for 5 steps). */
export function livenessTimeline(order: readonly LivenessStep[]): Keyframe[] {
  const frames: Keyframe[] = [
    { t: 0, name: 'center', pose: POSES.center },
    { t: START_HOLD, name: 'center', pose: POSES.center },
  ];
  let t = START_HOLD;
  for (const step of order) {
    frames.push({ t: round3(t + MOVE), name: step, pose: POSES[step] });
    frames.push({ t: round3(t + MOVE + HOLD), name: step, pose: POSES[step] });
    frames.push({ t: round3(t + MOVE + HOLD + RETURN), name: 'center', pose: POSES.center });
    t += MOVE + HOLD + RETURN + REST;
    frames.push({ t: round3(t), name: 'center', pose: POSES.center });
  }
  return frames;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export function timelineDuration(timeline: Keyframe[]): number {
  return timeline[timeline.length - 1]?.t ?? 0;
}

/** The pose at time t, eased between keyframes. */
export function poseAt(timeline: Keyframe[], t: number): HeadPose {
  for (let i = 1; i < timeline.length; i++) {
    const a = timeline[i - 1] as Keyframe;
    const b = timeline[i] as Keyframe;
    if (t <= b.t) {
      const span = b.t - a.t;
      let f = span > 0 ? (t - a.t) / span : 1;
      f = f * f * (3 - 2 * f);
      const mix = (x: number, y: number) => Math.round((x + (y - x) * f) * 100) / 100;
      return {
        yaw: mix(a.pose.yaw, b.pose.yaw),
        pitch: mix(a.pose.pitch, b.pose.pitch),
        roll: mix(a.pose.roll, b.pose.roll),
        scale: mix(a.pose.scale, b.pose.scale),
      };
    }
  }
  return (timeline[timeline.length - 1] as Keyframe).pose;
}

/**
 * The still frames listed in the manifest, as the hosted flow captures them (docs/hosted-flow-api.md
 * "liveness/attempts"): a frontal frame at the start, the middle of every hold, and a frontal frame
 * once the head is back at rest after each movement (the last one is the frontal end).
 */
export function stillTimes(timeline: Keyframe[]): { t: number; name: PoseName }[] {
  const out: { t: number; name: PoseName }[] = [{ t: round3(START_HOLD / 2), name: 'center' }];
  for (let i = 1; i < timeline.length; i++) {
    const a = timeline[i - 1] as Keyframe;
    const b = timeline[i] as Keyframe;
    if (a.name === b.name && a.name !== 'center') out.push({ t: round3((a.t + b.t) / 2), name: a.name });
    if (i > 1 && a.name === 'center' && b.name === 'center') out.push({ t: b.t, name: 'center' });
  }
  return out;
}

export type LivenessRender = 'head_3d' | 'static_photo' | 'flat_photo';

export type LivenessSpec = {
  photoFile: string;
  /** face_swap_midway: another person's photo shown from `swapAt` seconds on. */
  swap?: { photoFile: string; at: number };
  render: LivenessRender;
  /** Order of the movements the frames show (the challenge order, except for replayed_frames). */
  order: readonly LivenessStep[];
  scene: FaceSceneParameters;
  noise: number;
  noiseSeed: number;
  jpegQuality: number;
  fps: number;
  /** Also encode the whole capture as y4m. */
  video: boolean;
};

export type LivenessResult = {
  stills: { t: number; name: PoseName; pose: HeadPose; jpeg: Buffer }[];
  video: Buffer[] | null;
  frameCount: number;
  duration: number;
  sourcePose: HeadPose;
};

const models = new Map<string, Promise<FaceModel | null>>();

/** The 3D (or flat) face of a photo in a scene, built once per photo, scene and kind. */
export async function faceModelFor(
  photoFile: string,
  scene: FaceSceneParameters,
  flat: boolean,
): Promise<FaceModel> {
  const key = JSON.stringify([photoFile, scene, flat]);
  let model = models.get(key);
  if (!model) {
    model = composeFaceScene(photoFile, scene).then(async (texture) => {
      if (flat) return buildFaceModel(texture, { depthScale: 0, frontalise: false });
      const built = await buildFaceModel(texture);
      return built && settleFrontal(built, await blurHead(built));
    });
    models.set(key, model);
  }
  const built = await model;
  if (!built) throw new Error(`Human found no face in ${photoFile}`);
  return built;
}

/**
 * Widest face (the mesh's extent, pixels) a 320-px live-check frame shows. The photos are cut by
 * eye distance (faces.ts), so a face whose eyes are foreshortened in its photo (turned, or taken
 * from below, or a wide face) comes out larger: at 1.5-1.6 × the frame's width sample3c's and
 * sample5a's meshes span 175-200 px and reach the frame's bottom edge, where the other people's
 * span 140-165 px (about the size the depth stretch was measured at, face-model.ts). Filling the
 * frame so, sample3c's turns and nods read at half their size (a 15° nod up read 6°).
 */
export const MAX_LIVE_FACE_WIDTH = 160;

/**
 * The scene with the photo scaled down about the face's centre when the face would be wider than
 * `maxWidth` in it (the scene itself otherwise): the face keeps its place, it is only further
 * from the camera.
 */
export async function fitFaceScene(
  photoFile: string,
  scene: FaceSceneParameters,
  maxWidth: number = MAX_LIVE_FACE_WIDTH * (scene.width / 320),
): Promise<FaceSceneParameters> {
  const model = await faceModelFor(photoFile, scene, false);
  const xs = model.uv.slice(0, 468).map(([x]) => x);
  const width = Math.max(...xs) - Math.min(...xs);
  if (width <= maxWidth) return scene;
  const k = maxWidth / width;
  const [px, py] = model.pivot;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const cx = (px + (scene.centre[0] * scene.width - px) * k) / scene.width;
  const cy = (py + (scene.centre[1] * scene.height - py) * k) / scene.height;
  return { ...scene, faceWidth: round(scene.faceWidth * k), centre: [round(cx), round(cy)] };
}

const backdrops = new Map<string, Promise<RgbImage>>();

/**
 * What stays still behind the moving head: the photo's shoulders and room as they are, and where
 * the head is, the photo heavily blurred, so that the side a turning head uncovers shows smeared
 * hair and skin instead of a second face (or a hole to the plain wall). Between 1.35 and 1.7
 * times the face oval the two blend; the head's own rings reach 1.75 times.
 */
export async function backdropFor(
  photoFile: string,
  scene: FaceSceneParameters,
  flat: boolean,
): Promise<RgbImage> {
  const key = JSON.stringify([photoFile, scene, flat]);
  let backdrop = backdrops.get(key);
  if (!backdrop) {
    backdrop = faceModelFor(photoFile, scene, flat).then((model) => blurHead(model));
    backdrops.set(key, backdrop);
  }
  return backdrop;
}

/** First index of the outer (transparent) ring in a model's vertices: 468 mesh points and 36 of the inner ring. */
const OUTER_RING = 468 + 36;

async function blurHead(model: FaceModel): Promise<RgbImage> {
  const { texture, pivot } = model;
  const [cx, cy] = pivot;
  // The outer ring's radius by direction, 1° bins, interpolated between its points.
  const ring = model.uv.slice(OUTER_RING).map(([x, y]) => ({
    angle: Math.atan2(y - cy, x - cx),
    radius: Math.hypot(x - cx, y - cy),
  }));
  ring.sort((a, b) => a.angle - b.angle);
  const bins = new Float64Array(360);
  for (let b = 0; b < 360; b++) {
    const angle = -Math.PI + ((b + 0.5) * Math.PI) / 180;
    const after = ring.findIndex((p) => p.angle >= angle);
    const p1 = ring[after < 0 ? 0 : after] as (typeof ring)[number];
    const p0 = ring[after <= 0 ? ring.length - 1 : after - 1] as (typeof ring)[number];
    const span = (p1.angle - p0.angle + 2 * Math.PI) % (2 * Math.PI) || 2 * Math.PI;
    const f = ((angle - p0.angle + 2 * Math.PI) % (2 * Math.PI)) / span;
    bins[b] = p0.radius + (p1.radius - p0.radius) * f;
  }
  const meanRadius = bins.reduce((s, r) => s + r, 0) / 360;
  const { data: blurred } = await sharp(texture.data, {
    raw: { width: texture.width, height: texture.height, channels: 3 },
  })
    .blur(Math.max(1, meanRadius / 6))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = Buffer.from(texture.data);
  for (let y = 0; y < texture.height; y++) {
    for (let x = 0; x < texture.width; x++) {
      const angle = Math.atan2(y + 0.5 - cy, x + 0.5 - cx);
      const bin = Math.min(359, Math.max(0, Math.floor(((angle + Math.PI) * 180) / Math.PI)));
      const r = (1.75 * Math.hypot(x + 0.5 - cx, y + 0.5 - cy)) / (bins[bin] as number);
      const t = r <= 1.35 ? 0 : r >= 1.7 ? 1 : (r - 1.35) / 0.35;
      if (t >= 1) continue;
      const o = (y * texture.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        out[o + c] = Math.round((blurred[o + c] ?? 0) * (1 - t) + (texture.data[o + c] ?? 0) * t);
      }
    }
  }
  return { data: out, width: texture.width, height: texture.height };
}

const NOISE_TABLE_SIZE = 1 << 18;

/** Standard normal samples drawn once per capture; each frame reads them from a random offset. */
function noiseTable(random: Random): Float32Array {
  const table = new Float32Array(NOISE_TABLE_SIZE);
  for (let i = 0; i < table.length; i++) table[i] = random.normal();
  return table;
}

function addNoise(image: RgbImage, sigma: number, table: Float32Array, random: Random): RgbImage {
  if (sigma <= 0) return image;
  const data = Buffer.from(image.data);
  const mask = NOISE_TABLE_SIZE - 1;
  const offset = random.int(0, mask);
  for (let i = 0; i < data.length; i++) {
    const v = (data[i] ?? 0) + (table[(offset + i) & mask] ?? 0) * sigma;
    data[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  return { ...image, data };
}

/** Render one image of `photoFile`'s head at `pose` (exported for tests and other tools). */
export async function renderHeadPose(
  photoFile: string,
  pose: HeadPose,
  scene: FaceSceneParameters,
): Promise<RgbImage> {
  const model = await faceModelFor(photoFile, scene, false);
  return renderFaceModel(model, pose, await backdropFor(photoFile, scene, false));
}

/** Render the capture: stills as JPEG and, when asked, the y4m video as chunks. */
export async function captureLiveness(spec: LivenessSpec): Promise<LivenessResult> {
  const timeline = livenessTimeline(spec.order);
  const duration = timelineDuration(timeline);
  const flat = spec.render === 'flat_photo';
  const background = await backdropFor(spec.photoFile, spec.scene, flat);
  const main = await faceModelFor(spec.photoFile, spec.scene, flat);
  const swapped = spec.swap ? await faceModelFor(spec.swap.photoFile, spec.scene, flat) : null;
  const random = new Random(spec.noiseSeed);
  const table = noiseTable(random);
  const shownPose = (t: number): HeadPose =>
    spec.render === 'static_photo' ? POSES.center : poseAt(timeline, t);
  const draw = (t: number): RgbImage => {
    const model = swapped && spec.swap && t >= spec.swap.at ? swapped : main;
    return addNoise(renderFaceModel(model, shownPose(t), background), spec.noise, table, random);
  };
  const stills: LivenessResult['stills'] = [];
  for (const { t, name } of stillTimes(timeline)) {
    const image = draw(t);
    const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .jpeg({ quality: spec.jpegQuality, chromaSubsampling: '4:2:0' })
      .toBuffer();
    stills.push({ t, name: spec.render === 'static_photo' ? 'center' : name, pose: shownPose(t), jpeg });
  }
  const frameCount = Math.ceil(duration * spec.fps) + 1;
  let video: Buffer[] | null = null;
  if (spec.video) {
    video = [y4mHeader({ width: spec.scene.width, height: spec.scene.height, fps: spec.fps })];
    for (let i = 0; i < frameCount; i++) video.push(y4mFrame(draw(i / spec.fps)));
  }
  return { stills, video, frameCount: spec.video ? frameCount : 0, duration, sourcePose: main.sourcePose };
}
