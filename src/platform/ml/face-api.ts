// Face detection, landmarks and descriptors with @vladmandic/face-api (docs/decisions.md "faces"), on the
// process's one tfjs runtime (src/platform/ml/tfjs.ts). Nets are loaded once per process (per
// worker thread: each thread has its own module state) from the model files inside the npm package;
// nothing is fetched at run time (Node's fetch cannot read file://, so we use face-api's own
// `loadFromDisk`, which reads through fs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Tf from '@tensorflow/tfjs';
import type * as FaceApi from '@vladmandic/face-api';
import sharp from 'sharp';
import { bilinearAt, type RgbRegion } from '../image/bilinear.ts';
import { ALIGNED_SIDE, alignmentOf, embedFace, sourceOf, warmUpFaceEmbedding } from './face-embedding.ts';
import { borderedPicture, detectorInput, type Picture, rgbPicture } from './face-picture.ts';
import { loadTfjs } from './tfjs.ts';

const require = createRequire(import.meta.url);

export type FaceDetectorName = 'ssdMobilenetv1' | 'tinyFaceDetector';

/** A border added around the picture before detection (see `FaceSearchOptions.borders`). */
export interface FaceBorder {
  /** Width of the border on each side, as a fraction of the picture's longer side. */
  ratio: number;
  /** Neutral grey, or the edge pixels repeated outwards. */
  fill: 'grey' | 'copy';
}

export interface FaceSearchOptions {
  /** Detector net; the default is chosen by measurement (docs/face-match.md). */
  detector?: FaceDetectorName;
  /** Lowest detector score accepted as a face. */
  minScore?: number;
  /** tinyFaceDetector's input side (a multiple of 32): larger finds smaller faces, slower. */
  tinyInputSize?: number;
  /**
   * Whole-photo detectors miss or mis-box faces that fill the frame (a tight 150x150 crop, a
   * document portrait cut to the face): the box of a face cut by the frame misplaces the landmark
   * alignment and spoils the descriptor. So the picture is first searched as given; unless a
   * confident face is found there clear of the frame (see isConfident), these bordered views are
   * searched in turn until one gives a confident face; failing that, the view whose best face
   * scored highest is used.
   */
  borders?: readonly FaceBorder[];
  /** Search the picture as given first (false: only the bordered views; for measurement). */
  searchAsGiven?: boolean;
  /** A face closer than this fraction of the picture's side to an edge counts as cut by it. */
  edgeMargin?: number;
  /** A face wider than this share of the picture's shorter side fills the frame (a close crop). */
  maxFaceShare?: number;
  /** Detector score from which a face found in a view ends the search. */
  sureScore?: number;
  /** Average the descriptors of the aligned face and its mirror image (test-time augmentation). */
  flipAverage?: boolean;
  /** Scale factors of the aligned box whose descriptors are averaged ([1]: the box alone). */
  jitter?: readonly number[];
  /**
   * Turn the face so its eyes are level before the nets see it (see levelledFrame) when
   * the eye line is tilted by at least this many degrees (0: always; Infinity: never). The default
   * is measured (docs/face-match.md): document portraits photographed at a slant gain most; below
   * ~10° the turn's resampling moved some fixture pairs as much as the tilt did.
   */
  levelFromDegrees?: number;
}

export const DEFAULT_FACE_SEARCH: Readonly<Required<FaceSearchOptions>> = Object.freeze({
  detector: 'tinyFaceDetector',
  minScore: 0.25,
  tinyInputSize: 416,
  borders: Object.freeze([
    { ratio: 1, fill: 'grey' },
    { ratio: 1, fill: 'copy' },
  ]) as readonly FaceBorder[],
  searchAsGiven: true,
  edgeMargin: 0.02,
  maxFaceShare: 0.5,
  sureScore: 0.5,
  flipAverage: true,
  jitter: Object.freeze([0.9, 1.1]) as readonly number[],
  levelFromDegrees: 10,
});

/** Longer side pictures are shrunk to before detection: bounds the time, keeps faces large enough. */
const MAX_SIDE = 1024;

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  /** In pixels of the (auto-oriented) input picture. */
  box: FaceBox;
  score: number;
  /** The 68 landmark points, in pixels of the input picture. */
  landmarks: Array<{ x: number; y: number }>;
}

export interface FaceDescription {
  /** The face embedding (face-embedding.ts): 512 values of unit length. */
  descriptor: Float32Array;
  box: FaceBox;
  detectionScore: number;
  /** How many faces the picture holds; the largest one is described. */
  faceCount: number;
  /** The sex the face looks, by face-api's age-gender net, when asked for (docs/spoof-checks.md). */
  apparentSex?: ApparentSex;
}

export interface ApparentSex {
  sex: 'M' | 'F';
  /** The net's probability for `sex`, in [0.5, 1]. */
  probability: number;
}

/** The picture cannot be decoded (corrupt, truncated, not an image). Retrying will not help. */
export class FaceImageError extends Error {
  readonly code = 'face_image_unreadable';
  override readonly name = 'FaceImageError';
}

export interface LoadedFaceApi {
  faceapi: typeof FaceApi;
  tf: typeof Tf;
  /** The @vladmandic/face-api package version (recorded in check results). */
  version: string;
  modelDir: string;
  /** Wall time of the first load (tfjs, wasm, nets), for the speed report. */
  loadMs: number;
}

/**
 * face-api's nets behind computeFaceDescriptor, as recorded in check results (the description
 * itself is the face embedding's, face-embedding.ts; faceRecognitionNet serves describeFaceInBox).
 */
export const FACE_NETS = 'tinyFaceDetector+faceLandmark68Net+ageGenderNet';

let loaded: Promise<LoadedFaceApi> | undefined;

/** Load tfjs, face-api and its nets once per process; later calls share the same promise. */
export function loadFaceApi(): Promise<LoadedFaceApi> {
  loaded ??= (async () => {
    const started = performance.now();
    // face-api's node-wasm build requires @tensorflow/tfjs and the wasm backend itself, so tfjs
    // must already be on the wasm backend with its .wasm paths set (loadTfjs does both).
    const tf = await loadTfjs();
    // The node-wasm build is not in the package's export map: resolve its file path.
    const faceapi = require(
      require.resolve('@vladmandic/face-api/dist/face-api.node-wasm.js'),
    ) as typeof FaceApi;
    const packageDir = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
    const modelDir = path.join(packageDir, 'model');
    // ssdMobilenetv1 (5.4 MB) is loaded only if asked for: it is not the default detector.
    await Promise.all([
      faceapi.nets.tinyFaceDetector.loadFromDisk(modelDir),
      faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir),
      faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir),
      faceapi.nets.ageGenderNet.loadFromDisk(modelDir),
    ]);
    const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    return { faceapi, tf, version, modelDir, loadMs: performance.now() - started };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * Run each net (and the face embedding's) once on blank input, so that a worker's first real job
 * does not pay the first inference's set-up cost (measured at 1–2 s, docs/face-match.md). Call after start-up.
 */
export async function warmUpFaceApi(): Promise<void> {
  const { faceapi, tf } = await loadFaceApi();
  const options = DEFAULT_FACE_SEARCH;
  const scene = tf.zeros([options.tinyInputSize, options.tinyInputSize, 3], 'int32') as Tf.Tensor3D;
  const face = tf.zeros([150, 150, 3], 'int32') as Tf.Tensor3D;
  try {
    await faceapi.detectAllFaces(
      asFaceApiTensor(scene),
      new faceapi.TinyFaceDetectorOptions({ inputSize: options.tinyInputSize }),
    );
    await faceapi.nets.faceLandmark68Net.detectLandmarks(asFaceApiTensor(face));
    // The same batch size as describeAlignedFace uses: kernels are set up per shape.
    const batch = options.jitter.length * (options.flipAverage ? 2 : 1);
    await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(new Array(batch).fill(asFaceApiTensor(face)));
    await faceapi.nets.ageGenderNet.predictAgeAndGender(asFaceApiTensor(face));
    await warmUpFaceEmbedding();
  } finally {
    scene.dispose();
    face.dispose();
  }
}

interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  /** Input pixels per decoded pixel (the picture may have been shrunk to MAX_SIDE). */
  scale: number;
}

async function decodeImage(image: Buffer): Promise<DecodedImage> {
  try {
    const meta = await sharp(image).metadata();
    const { data, info } = await sharp(image, { failOn: 'error' })
      .rotate() // EXIF orientation: a phone selfie is often stored sideways
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    const orientedWidth =
      (meta.orientation ?? 1) >= 5 ? (meta.height ?? info.width) : (meta.width ?? info.width);
    return { pixels: data, width: info.width, height: info.height, scale: orientedWidth / info.width };
  } catch (error) {
    throw new FaceImageError(`cannot decode image: ${(error as Error).message}`, { cause: error });
  }
}

interface View {
  /** The picture searched: the decoded one, or it with a border (never a tensor, face-picture.ts). */
  picture: Picture;
  /** Border width in decoded pixels (0 for the picture as given). */
  pad: number;
  detections: FaceApi.FaceDetection[];
}

function borderedView(img: DecodedImage, border: FaceBorder): { picture: Picture; pad: number } {
  const pad = Math.round(Math.max(img.width, img.height) * border.ratio);
  return { picture: borderedPicture(pictureOf(img), pad, border.fill), pad };
}

const pictureOf = (img: DecodedImage) => rgbPicture(img.pixels, img.width, img.height);

const area = (d: FaceApi.FaceDetection) => d.box.width * d.box.height;

async function detectInView(
  api: LoadedFaceApi,
  picture: Picture,
  pad: number,
  options: Required<FaceSearchOptions>,
): Promise<View> {
  const detections = await detectAll(api, picture, options);
  return { picture, pad, detections: detections.sort((a, b) => area(b) - area(a)) };
}

/** The detector's faces on the picture, in its pixels, as face-api finds them on the picture's tensor. */
async function detectAll(
  api: LoadedFaceApi,
  picture: Picture,
  options: Required<FaceSearchOptions>,
): Promise<FaceApi.FaceDetection[]> {
  const { faceapi, tf } = api;
  const { width, height } = picture;
  if (options.detector === 'ssdMobilenetv1') {
    // For measurement only (not the default): its own input resize, on the whole picture's tensor.
    if (!faceapi.nets.ssdMobilenetv1.isLoaded) await faceapi.nets.ssdMobilenetv1.loadFromDisk(api.modelDir);
    const input = tf.tensor3d(picture.read(0, 0, width, height), [height, width, 3], 'int32');
    try {
      const ssd = new faceapi.SsdMobilenetv1Options({ minConfidence: options.minScore, maxResults: 10 });
      return await faceapi.detectAllFaces(asFaceApiTensor(input), ssd);
    } finally {
      input.dispose();
    }
  }
  const size = options.tinyInputSize;
  const square = tf.tensor3d(detectorInput(picture, size), [size, size, 3], 'float32');
  try {
    // The net's input as it would make it from the picture's tensor; the NetInput reports the
    // picture's size, so the boxes come back in the picture's frame exactly as they would then.
    const netInput = new faceapi.NetInput([asFaceApiTensor(square)]);
    netInput.getInputWidth = () => width;
    netInput.getInputHeight = () => height;
    return await faceapi.nets.tinyFaceDetector.locateFaces(
      netInput,
      new faceapi.TinyFaceDetectorOptions({ inputSize: size, scoreThreshold: options.minScore }),
    );
  } finally {
    square.dispose();
  }
}

/**
 * The rectangles of `picture` face-api's extractFaceTensors would cut for these boxes (clipped to
 * the picture, corners floored, empty ones left out), as int32 tensors like its slices of an int32
 * picture tensor. The caller disposes them.
 */
function extractFaceTensors(
  api: LoadedFaceApi,
  picture: Picture,
  boxes: ReadonlyArray<FaceApi.FaceDetection | FaceApi.Rect>,
): Tf.Tensor3D[] {
  const { faceapi, tf } = api;
  const { width, height } = picture;
  return boxes
    .map((b) => (b instanceof faceapi.FaceDetection ? b.forSize(width, height).box : b))
    .map((b) => b.clipAtImageBorders(width, height))
    .filter((b) => b.width > 0 && b.height > 0)
    .map((b) => tf.tensor3d(picture.read(b.x, b.y, b.width, b.height), [b.height, b.width, 3], 'int32'));
}

type WithLandmarks = FaceApi.WithFaceLandmarks<{ detection: FaceApi.FaceDetection }>;

/** The 68 landmarks of a detected face, as face-api's DetectSingleFaceLandmarksTask finds them. */
async function landmarksOf(
  api: LoadedFaceApi,
  picture: Picture,
  detection: FaceApi.FaceDetection,
): Promise<WithLandmarks | undefined> {
  const [face] = extractFaceTensors(api, picture, [detection]);
  if (!face) return undefined;
  try {
    const landmarks = (await api.faceapi.nets.faceLandmark68Net.detectLandmarks(
      asFaceApiTensor(face),
    )) as FaceApi.FaceLandmarks68;
    return api.faceapi.extendWithFaceLandmarks({ detection }, landmarks);
  } finally {
    face.dispose();
  }
}

function asFaceApiTensor(t: Tf.Tensor3D): FaceApi.tf.Tensor3D {
  return t as unknown as FaceApi.tf.Tensor3D;
}

/**
 * A face found in a view is taken at once when the detector is sure of it and, in the picture as
 * given, it neither touches the frame nor fills it (then it is probably cut, and its box would
 * misplace the alignment).
 */
function isConfident(
  view: View,
  width: number,
  height: number,
  options: Required<FaceSearchOptions>,
): boolean {
  const d = view.detections[0];
  if (!d || d.score < options.sureScore) return false;
  if (view.pad > 0) return true;
  const m = options.edgeMargin;
  const { x, y, right, bottom } = d.box;
  const isClear = x >= m * width && y >= m * height && right <= (1 - m) * width && bottom <= (1 - m) * height;
  return isClear && d.box.width <= options.maxFaceShare * Math.min(width, height);
}

/**
 * Pick the view whose detections are used (see FaceSearchOptions.borders): the first confident
 * one, else the one whose best face scores highest.
 */
async function chooseView(img: DecodedImage, options: Required<FaceSearchOptions>): Promise<View | null> {
  const api = await loadFaceApi();
  let best: View | null = null;
  const consider = (view: View): boolean => {
    const score = view.detections[0]?.score ?? 0;
    if (score > (best?.detections[0]?.score ?? 0)) best = view;
    return best === view && isConfident(view, img.width, img.height, options);
  };
  if (options.searchAsGiven) {
    if (consider(await detectInView(api, pictureOf(img), 0, options))) return best;
  }
  for (const border of options.borders) {
    const b = borderedView(img, border);
    if (consider(await detectInView(api, b.picture, b.pad, options))) return best;
  }
  return best;
}

function toInputBox(box: FaceApi.Box, img: DecodedImage, pad: number): FaceBox {
  // Back to the input picture's pixels, clipped to it (a face cut by the frame extends into the border).
  const x0 = Math.max(0, box.x - pad);
  const y0 = Math.max(0, box.y - pad);
  const x1 = Math.min(img.width, box.x + box.width - pad);
  const y1 = Math.min(img.height, box.y + box.height - pad);
  const s = img.scale;
  return { x: x0 * s, y: y0 * s, width: Math.max(0, x1 - x0) * s, height: Math.max(0, y1 - y0) * s };
}

type Landmarks = FaceApi.FaceLandmarks68;

/** face-api's dlib-style box (FaceLandmarks.alignDlib): eye and mouth centres set its size and place. */
const DLIB_BOX = { scale: 0.45, x: 0.5, y: 0.43 };

const centreOf = (points: readonly FaceApi.IPoint[]) => ({
  x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
  y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
});

function referencePoints(landmarks: Landmarks) {
  const points = landmarks.positions;
  return {
    leftEye: centreOf(points.slice(36, 42)),
    rightEye: centreOf(points.slice(42, 48)),
    mouth: centreOf(points.slice(48, 68)),
  };
}

/** The tilt of the line through the eye centres, in radians (positive: the right eye lower). */
function eyeLineAngle(landmarks: Landmarks): number {
  const { leftEye, rightEye } = referencePoints(landmarks);
  return Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x);
}

/**
 * A frame turned about the face so its eyes are level (about the centroid of the eye and mouth
 * centres, which the turn leaves in place). face-api cuts its boxes axis-aligned from the picture,
 * so a tilted head, or a document photographed at a slant, reaches its nets tilted, while they were
 * trained on upright faces.
 */
interface LevelledFrame {
  /** A point of the picture in the levelled frame. */
  toLevelled(p: FaceApi.IPoint): { x: number; y: number };
  /** A point of the levelled frame back in the picture. */
  toPicture(x: number, y: number): { x: number; y: number };
}

function levelledFrame(landmarks: Landmarks): LevelledFrame {
  const { leftEye, rightEye, mouth } = referencePoints(landmarks);
  const ref = centreOf([leftEye, rightEye, mouth]);
  const angle = eyeLineAngle(landmarks);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return {
    toLevelled: (p) => ({
      x: ref.x + (p.x - ref.x) * cos + (p.y - ref.y) * sin,
      y: ref.y - (p.x - ref.x) * sin + (p.y - ref.y) * cos,
    }),
    toPicture: (x, y) => ({
      x: ref.x + (x - ref.x) * cos - (y - ref.y) * sin,
      y: ref.y + (x - ref.x) * sin + (y - ref.y) * cos,
    }),
  };
}

/**
 * The part of the picture that these points (and a 2-pixel margin) reach (never less than 2×2, so
 * bilinear sampling always has a neighbour); `x0`, `y0` is its corner.
 */
function readRegion(
  picture: Picture,
  points: readonly { x: number; y: number }[],
): RgbRegion & { x0: number; y0: number } {
  const { width, height } = picture;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x0 = Math.min(width - 2, Math.max(0, Math.floor(Math.min(...xs)) - 2));
  const y0 = Math.min(height - 2, Math.max(0, Math.floor(Math.min(...ys)) - 2));
  const w = Math.max(2, Math.min(width, Math.ceil(Math.max(...xs)) + 2) - x0);
  const h = Math.max(2, Math.min(height, Math.ceil(Math.max(...ys)) + 2) - y0);
  return { data: picture.read(x0, y0, w, h), width: w, height: h, x0, y0 };
}

/**
 * The picture inside each box of the levelled frame, sampled bilinearly through the turn at the
 * box's own size (the net's input resize does the rest, as for face-api's axis-aligned crops).
 */
function levelledCrops(
  api: LoadedFaceApi,
  picture: Picture,
  frame: LevelledFrame,
  boxes: readonly FaceBox[],
) {
  const corners = boxes.flatMap((b) =>
    [
      [b.x, b.y],
      [b.x + b.width, b.y],
      [b.x, b.y + b.height],
      [b.x + b.width, b.y + b.height],
    ].map(([x, y]) => frame.toPicture(x!, y!)),
  );
  const region = readRegion(picture, corners);
  // Box coordinates are continuous (pixel centres at +0.5), bilinearAt's are pixel indices.
  const sample = (x: number, y: number, c: number) =>
    bilinearAt(region, x - region.x0 - 0.5, y - region.y0 - 0.5, c);
  const { tf } = api;
  return boxes.map((box) => {
    const nx = Math.max(8, Math.round(box.width));
    const ny = Math.max(8, Math.round(box.height));
    const crop = new Float32Array(nx * ny * 3);
    for (let v = 0; v < ny; v++) {
      for (let u = 0; u < nx; u++) {
        const p = frame.toPicture(
          box.x + ((u + 0.5) * box.width) / nx,
          box.y + ((v + 0.5) * box.height) / ny,
        );
        for (let c = 0; c < 3; c++) crop[(v * nx + u) * 3 + c] = sample(p.x, p.y, c);
      }
    }
    return tf.tensor3d(crop, [ny, nx, 3], 'float32');
  });
}

/** Whether the eye line is tilted enough to level the face first (`levelFromDegrees`). */
const isTilted = (landmarks: Landmarks, options: Required<FaceSearchOptions>) =>
  Math.abs(eyeLineAngle(landmarks)) >= (options.levelFromDegrees * Math.PI) / 180;

/** face-api's dlib-style box (FaceLandmarks.alignDlib), in the levelled frame. */
function levelledDlibBox(landmarks: Landmarks, frame: LevelledFrame): FaceBox {
  const { leftEye, rightEye, mouth } = referencePoints(landmarks);
  const [l, r, m] = [leftEye, rightEye, mouth].map(frame.toLevelled) as [
    FaceApi.IPoint,
    FaceApi.IPoint,
    FaceApi.IPoint,
  ];
  const toMouth = (p: FaceApi.IPoint) => Math.hypot(m.x - p.x, m.y - p.y);
  const size = (toMouth(l) + toMouth(r)) / 2 / DLIB_BOX.scale;
  const ref = centreOf([l, r, m]);
  return { x: ref.x - DLIB_BOX.x * size, y: ref.y - DLIB_BOX.y * size, width: size, height: size };
}

/** face-api's default aligned box (the landmarks' bounding box padded by 20 %), in the levelled frame. */
function levelledLandmarkBox(landmarks: Landmarks, frame: LevelledFrame): FaceBox {
  const points = landmarks.positions.map(frame.toLevelled);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [padX, padY] = [(maxX - minX) * 0.2, (maxY - minY) * 0.2];
  return { x: minX - padX / 2, y: minY - padY / 2, width: maxX - minX + padX, height: maxY - minY + padY };
}

/**
 * `box` grown or shrunk by `factor` about its centre. (Computed in this order on purpose: face-api
 * rounds a crop's corners, and a pixel's shift moves a descriptor by ~0.01.)
 */
function scaleBox(box: FaceBox, factor: number): FaceBox {
  const width = box.width * factor;
  const height = box.height * factor;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}

/**
 * Crops of the face for a net: in the levelled frame when the face is tilted (`levelFromDegrees`),
 * else cut axis-aligned from the picture as face-api does.
 */
async function cropFace(
  api: LoadedFaceApi,
  picture: Picture,
  landmarks: Landmarks,
  options: Required<FaceSearchOptions>,
  boxes: {
    levelled(frame: LevelledFrame): FaceBox[];
    upright(): Array<FaceApi.Rect | FaceApi.FaceDetection>;
  },
): Promise<Tf.Tensor3D[]> {
  if (isTilted(landmarks, options)) {
    const frame = levelledFrame(landmarks);
    return levelledCrops(api, picture, frame, boxes.levelled(frame));
  }
  return extractFaceTensors(api, picture, boxes.upright());
}

/**
 * The recognition net's descriptor of the face with these landmarks, on face-api's dlib-style box
 * (levelled first when tilted, `levelFromDegrees`), averaged over `jitter` (the box grown by each factor around
 * its centre) and, with `flipAverage`, over each crop's mirror image.
 */
async function describeAlignedFace(
  picture: Picture,
  landmarks: Landmarks,
  options: Required<FaceSearchOptions>,
): Promise<Float32Array> {
  const api = await loadFaceApi();
  const { faceapi, tf } = api;
  const chips = await cropFace(api, picture, landmarks, options, {
    levelled: (frame) => options.jitter.map((f) => scaleBox(levelledDlibBox(landmarks, frame), f)),
    upright: () => {
      const rect = landmarks.align(null, { useDlibAlignment: true });
      return options.jitter
        .map((f) => scaleBox(rect, f))
        .map((b) => new faceapi.Rect(b.x, b.y, b.width, b.height));
    },
  });
  const mirrored = options.flipAverage ? chips.map((chip) => tf.reverse(chip, 1)) : [];
  const crops = [...chips, ...mirrored];
  try {
    // One batch through the recognition net: measured ~20 % faster than one call per crop.
    const out = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(crops.map(asFaceApiTensor));
    const descriptors = Array.isArray(out) ? out : [out];
    const mean = new Float32Array(128);
    for (const d of descriptors) for (let i = 0; i < mean.length; i++) mean[i]! += d[i]! / descriptors.length;
    return mean;
  } finally {
    for (const crop of crops) crop.dispose();
  }
}

/**
 * The face embedding (face-embedding.ts) of the face with these landmarks: only the part of the
 * picture that the 112×112 alignment reaches is read out of the tensor.
 */
async function embedLandmarkedFace(picture: Picture, landmarks: Landmarks): Promise<Float32Array> {
  const t = alignmentOf(landmarks.positions);
  const corners = [0, ALIGNED_SIDE].flatMap((x) => [0, ALIGNED_SIDE].map((y) => sourceOf(t, x, y)));
  const region = readRegion(picture, corners);
  const shifted = landmarks.positions.map((p) => ({ x: p.x - region.x0, y: p.y - region.y0 }));
  return embedFace(region, shifted);
}

/**
 * The sex the face looks, by the age-gender net, on face-api's own aligned box for it (the
 * landmarks' bounding box, padded), levelled first when tilted as for the descriptor.
 */
async function estimateSex(
  picture: Picture,
  face: WithLandmarks,
  options: Required<FaceSearchOptions>,
): Promise<ApparentSex> {
  const api = await loadFaceApi();
  const { landmarks } = face;
  const [chip] = await cropFace(api, picture, landmarks, options, {
    levelled: (frame) => [levelledLandmarkBox(landmarks, frame)],
    upright: () => [face.alignedRect],
  });
  try {
    const out = await api.faceapi.nets.ageGenderNet.predictAgeAndGender(asFaceApiTensor(chip!));
    const { gender, genderProbability } = Array.isArray(out) ? out[0]! : out;
    return { sex: gender === 'female' ? 'F' : 'M', probability: genderProbability };
  } finally {
    chip?.dispose();
  }
}

/** Every face in the picture, largest first. Throws FaceImageError when the picture cannot be decoded. */
export async function detectFaces(image: Buffer, search: FaceSearchOptions = {}): Promise<DetectedFace[]> {
  const options = { ...DEFAULT_FACE_SEARCH, ...search };
  const img = await decodeImage(image);
  const view = await chooseView(img, options);
  if (!view) return [];
  const api = await loadFaceApi();
  const faces = [];
  for (const detection of view.detections) {
    const face = await landmarksOf(api, view.picture, detection);
    if (face) faces.push(face);
  }
  return faces.map((f) => ({
    box: toInputBox(f.detection.box, img, view.pad),
    score: f.detection.score,
    landmarks: f.landmarks.positions.map((p) => ({
      x: (p.x - view.pad) * img.scale,
      y: (p.y - view.pad) * img.scale,
    })),
  }));
}

/**
 * The 512-d embedding (face-embedding.ts, on face-api's landmarks) of the largest face in the picture
 * (a selfie may show people behind the user; a document shows one portrait), or null when the
 * picture holds no face. `jitter` and `flipAverage` do not apply (the embedding is one run on its
 * own five-point alignment, which also turns the face upright); `levelFromDegrees` applies only to
 * the crop for the apparent sex.
 * Throws FaceImageError when the picture cannot be decoded.
 */
export async function computeFaceDescriptor(
  image: Buffer,
  search: FaceSearchOptions = {},
  { apparentSex = false }: { apparentSex?: boolean } = {},
): Promise<FaceDescription | null> {
  const options = { ...DEFAULT_FACE_SEARCH, ...search };
  const img = await decodeImage(image);
  const view = await chooseView(img, options);
  const largest = view?.detections[0];
  if (!view || !largest) return null;
  const withLandmarks = await landmarksOf(await loadFaceApi(), view.picture, largest);
  if (!withLandmarks) return null;
  const descriptor = await embedLandmarkedFace(view.picture, withLandmarks.landmarks);
  return {
    descriptor,
    // On the box face-api's own age-gender task uses (its default alignment), not dlib's tighter one.
    ...(apparentSex ? { apparentSex: await estimateSex(view.picture, withLandmarks, options) } : {}),
    box: toInputBox(largest.box, img, view.pad),
    detectionScore: largest.score,
    faceCount: view.detections.length,
  };
}

/**
 * Where the largest face is, as computeFaceDescriptor finds it (the same view, detection and
 * landmark check), without its embedding: for a caller that needs only whether and how large a face
 * is (the capture check), not who it is.
 */
export async function findLargestFace(
  image: Buffer,
  search: FaceSearchOptions = {},
): Promise<Omit<FaceDescription, 'descriptor'> | null> {
  const options = { ...DEFAULT_FACE_SEARCH, ...search };
  const img = await decodeImage(image);
  const view = await chooseView(img, options);
  const largest = view?.detections[0];
  if (!view || !largest) return null;
  if (!(await landmarksOf(await loadFaceApi(), view.picture, largest))) return null;
  return {
    box: toInputBox(largest.box, img, view.pad),
    detectionScore: largest.score,
    faceCount: view.detections.length,
  };
}

/** RGB pixels as sharp's `.raw()` gives them after removeAlpha. */
export interface RgbPixels extends RgbRegion {
  data: Uint8Array;
}

/**
 * face-api's own 128-d descriptor of the face inside `box` (pixels of `image`), when another model has
 * already found the face (the live face check has Human's mesh): no detector runs, only the
 * landmark net in that box, the alignment and the recognition net — about a third of
 * computeFaceDescriptor's time on a small frame. `box` should be tight around the face, as a face
 * detector's box is. Of the search options, `jitter`, `flipAverage` and `levelFromDegrees` apply.
 */
export async function describeFaceInBox(
  image: RgbPixels,
  box: FaceBox,
  search: Pick<FaceSearchOptions, 'jitter' | 'flipAverage' | 'levelFromDegrees'> = {},
): Promise<Float32Array> {
  const options = { ...DEFAULT_FACE_SEARCH, ...search };
  const api = await loadFaceApi();
  const { width, height } = image;
  const picture = rgbPicture(image.data, width, height);
  const detection = new api.faceapi.FaceDetection(
    1,
    new api.faceapi.Rect(box.x / width, box.y / height, box.width / width, box.height / height),
    { width, height },
  );
  const withLandmarks = await landmarksOf(api, picture, detection);
  if (!withLandmarks) throw new Error('face-api returned no landmarks for a given box');
  return describeAlignedFace(picture, withLandmarks.landmarks, options);
}

/** Euclidean distance between two descriptors: face-api's customary same-person cut-off is 0.6. */
export function faceDescriptorDistance(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}
