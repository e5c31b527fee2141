// @vladmandic/human face mesh in Node, on the shared tfjs wasm runtime (docs/decisions.md: liveness).
// Human's wasm build is not in its package export map, so its file is resolved by path; its
// models ship inside the package and are read from disk through a tfjs IO handler, because
// Node's fetch cannot read file:// URLs and nothing may use the network at run time.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { faceMeshOnlyConfig } from './human-face-mesh-config.ts';
import { loadTfjs } from './tfjs.ts';

const require = createRequire(import.meta.url);

/** One mesh landmark in image pixels; z is relative depth (smaller = nearer the camera). */
export type MeshPoint = { x: number; y: number; z: number };

export type FaceMesh = {
  /** 468 landmarks in the coordinates of the input image. */
  landmarks: MeshPoint[];
  /** Face box [x, y, width, height] in pixels. */
  box: [number, number, number, number];
  /** Overall face score 0..1. */
  score: number;
  /** Head rotation in degrees as Human reports it (yaw: turn, pitch: nod, roll: tilt). */
  rotation: { yaw: number; pitch: number; roll: number };
  /** Human's antispoof and liveness nets, 0..1 (1 = real, live), when they ran (detectSpoofScores). */
  spoofNets?: { antispoof: number; live: number };
};

/** RGB(A) pixels, row-major, the form sharp's `.raw()` gives. */
export type RawImage = { data: Uint8Array; width: number; height: number; channels: 3 | 4 };

type HumanResult = {
  face: {
    score: number;
    box: [number, number, number, number];
    mesh: [number, number, number?][];
    rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
    /** Antispoof net: how real the face looks, 0..1 (only when that net ran). */
    real?: number;
    /** Liveness net: how live the face looks, 0..1 (only when that net ran). */
    live?: number;
  }[];
};
type HumanInstance = {
  load(): Promise<void>;
  detect(input: unknown, config?: Record<string, unknown>): Promise<HumanResult>;
  faceTriangulation: number[];
};
type HumanModule = { Human: new (config: Record<string, unknown>) => HumanInstance };

const RAD_TO_DEG = 180 / Math.PI;
let ready: Promise<HumanInstance> | undefined;

// The package's export map is one set of conditions for "." (its `node` entry is the tfjs-node
// build), so resolve that entry and take its folder's parent as the package root.
function humanPackageDir(): string {
  return path.dirname(path.dirname(require.resolve('@vladmandic/human')));
}

type ModelJson = {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: unknown[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
};

/** A tfjs load handler that reads a graph model's JSON and weight shards from disk. */
function fileModelHandler(jsonPath: string) {
  return {
    async load() {
      const json = JSON.parse(await readFile(jsonPath, 'utf8')) as ModelJson;
      const dir = path.dirname(jsonPath);
      const weightSpecs = [];
      const shards: Buffer[] = [];
      for (const group of json.weightsManifest) {
        weightSpecs.push(...group.weights);
        for (const shard of group.paths) shards.push(await readFile(path.join(dir, shard)));
      }
      const all = Buffer.concat(shards);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      return {
        modelTopology: json.modelTopology,
        weightSpecs,
        weightData,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
      };
    },
  };
}

/**
 * Load Human once per process (face detector + mesh only); later calls share the instance.
 * Other models (emotion, description, body, hands) stay off: they cost time and are not used.
 */
export function loadHuman(): Promise<HumanInstance> {
  ready ??= (async () => {
    const tf = await loadTfjs();
    const modelDir = path.join(humanPackageDir(), 'models');
    // Route every path under Human's model folder to the disk reader; Human's GraphModel
    // asks the tfjs IO registry for a handler before it would try fetch.
    const router = (url: string | string[]) => {
      const target = Array.isArray(url) ? url[0] : url;
      if (typeof target !== 'string' || !target.startsWith(modelDir)) return null;
      return fileModelHandler(target);
    };
    tf.io.registerLoadRouter(router as unknown as Parameters<typeof tf.io.registerLoadRouter>[0]);
    const { Human } = require(path.join(humanPackageDir(), 'dist/human.node-wasm.js')) as HumanModule;
    const meshOnly = faceMeshOnlyConfig(2);
    const human = new Human({
      ...meshOnly,
      // Loaded with the rest, but run only by detectSpoofScores: every call names which nets run.
      face: { ...meshOnly.face, antispoof: { enabled: true }, liveness: { enabled: true } },
      backend: 'wasm',
      modelBasePath: `${modelDir}${path.sep}`,
      async: false,
    });
    await human.load();
    return human;
  })();
  return ready;
}

/** Human's reference triangulation of the 468-point mesh (triples of landmark indices). */
export async function faceMeshTriangulation(): Promise<number[]> {
  const human = await loadHuman();
  return human.faceTriangulation;
}

// Every call names its caching mode and whether the antispoof and liveness nets run: Human merges
// a call's config into the instance's for good.
const NO_SPOOF_NETS = { antispoof: { enabled: false }, liveness: { enabled: false } };
/** A fresh detection: the face detector runs and no earlier frame is used. */
const DETECT_AFRESH = { cacheSensitivity: 0, face: { detector: { skipFrames: 0 }, ...NO_SPOOF_NETS } };
/** A fresh detection with Human's antispoof and liveness nets, nothing reused from a cache. */
const WITH_SPOOF_NETS = {
  cacheSensitivity: 0,
  face: {
    detector: { skipFrames: 0 },
    antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
    liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
  },
};
/**
 * Human's video tracking (detectFaceMeshes): a frame whose mean squared difference from the
 * previous one, per channel and divided by 255, is at most this is "unchanged", and its mesh is
 * sought in the box the previous frame's mesh gave, without the face detector (about three
 * quarters of a detection's time). Measured on 15-frame renders with camera noise and JPEG: 0.02
 * between frames of one held pose, 1.5–6 from one pose to the next. A moved head must not be
 * tracked: the mesh then under-reads the movement (up to 8° of a 40° turn on the corpus stills)
 * and keeps the old box's scale (a face that moved back still reads as closer).
 */
const UNCHANGED_FRAME = 0.3;
/** Starts a sequence: the detector runs, and Human keeps the frame to compare the next one. */
const SEQUENCE_START = {
  cacheSensitivity: UNCHANGED_FRAME,
  face: { detector: { skipFrames: 0 }, ...NO_SPOOF_NETS },
};
/** An unchanged frame is tracked, a changed one detected afresh (Human's own choice). */
const SEQUENCE_NEXT = {
  cacheSensitivity: UNCHANGED_FRAME,
  face: {
    detector: { skipFrames: Number.MAX_SAFE_INTEGER, skipTime: Number.MAX_SAFE_INTEGER },
    ...NO_SPOOF_NETS,
  },
};
type DetectMode =
  | typeof DETECT_AFRESH
  | typeof SEQUENCE_START
  | typeof SEQUENCE_NEXT
  | typeof WITH_SPOOF_NETS;

// Human keeps the tracked box in module state: one detection at a time, so that a capture's
// frames are never tracked in a box another caller's frame left there.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

async function detectLargest(
  human: HumanInstance,
  image: RawImage,
  mode: DetectMode,
): Promise<FaceMesh | null> {
  const tf = await loadTfjs();
  const rgb = rgbData(image);
  const input = tf.tensor4d(rgb, [1, image.height, image.width, 3], 'int32');
  try {
    const result = await human.detect(input, mode);
    const faces = [...result.face].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
    const face = faces[0];
    if (!face || face.mesh.length < 468) return null;
    const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
    return {
      landmarks: face.mesh.map(([x, y, z]) => ({ x, y, z: z ?? 0 })),
      box: face.box,
      score: face.score,
      rotation: {
        yaw: angle.yaw * RAD_TO_DEG,
        pitch: angle.pitch * RAD_TO_DEG,
        roll: angle.roll * RAD_TO_DEG,
      },
      ...(mode === WITH_SPOOF_NETS ? { spoofNets: { antispoof: face.real ?? 0, live: face.live ?? 0 } } : {}),
    };
  } finally {
    input.dispose();
  }
}

/**
 * Detect faces and return the mesh of the largest one, or null when no face is found.
 * Human's angles are radians; they are returned in degrees.
 */
export async function detectFaceMesh(image: RawImage): Promise<FaceMesh | null> {
  const human = await loadHuman();
  return oneAtATime(() => detectLargest(human, image, DETECT_AFRESH));
}

/**
 * Human's antispoof and liveness nets on the largest face of a picture (docs/decisions.md: weak signals
 * only), or null when no face is found. A fresh detection, like detectFaceMesh.
 */
export async function detectSpoofScores(
  image: RawImage,
): Promise<{ antispoof: number; live: number } | null> {
  const human = await loadHuman();
  const face = await oneAtATime(() => detectLargest(human, image, WITH_SPOOF_NETS));
  return face?.spoofNets ?? null;
}

/**
 * The meshes of a sequence of frames of one capture, as detectFaceMesh gives them, but quicker
 * while the head holds still: a frame nearly identical to the one before (UNCHANGED_FRAME) has
 * its mesh sought in that frame's face box without running the face detector. When the mesh does
 * not find a face there (its face score is under the detector's minimum), the frame is detected
 * afresh: a frame is null exactly when a fresh detection finds no face in it.
 */
export async function detectFaceMeshes(images: readonly RawImage[]): Promise<(FaceMesh | null)[]> {
  const human = await loadHuman();
  return oneAtATime(async () => {
    const meshes: (FaceMesh | null)[] = [];
    for (const image of images) {
      const tracked = meshes.at(-1) ? await detectLargest(human, image, SEQUENCE_NEXT) : null;
      meshes.push(tracked ?? (await detectLargest(human, image, SEQUENCE_START)));
    }
    return meshes;
  });
}

/** The image's pixels as RGB (the alpha channel, if any, dropped). */
export function rgbData(image: RawImage): Uint8Array {
  if (image.channels === 3) return image.data;
  const out = new Uint8Array(image.width * image.height * 3);
  for (let i = 0, j = 0; i < out.length; i += 3, j += 4) {
    out[i] = image.data[j] ?? 0;
    out[i + 1] = image.data[j + 1] ?? 0;
    out[i + 2] = image.data[j + 2] ?? 0;
  }
  return out;
}
