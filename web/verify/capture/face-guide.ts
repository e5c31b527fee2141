// Human's face mesh in the browser: it tells the user when a pose is held, so
// the frames sent are the ones the server will recognise. The pose rules are the server's own
// (src/liveness/classify-head-pose.ts), with a margin so a frame held here is not borderline
// there. Models and wasm come from our origin (/verify/assets/models, /verify/assets/wasm).
import {
  classifyHeadPose,
  type FramePose,
  POSE_THRESHOLDS,
} from '../../../src/liveness/classify-head-pose.ts';
import type { FaceMesh } from '../../../src/platform/ml/human.ts';
import { faceMeshOnlyConfig } from '../../../src/platform/ml/human-face-mesh-config.ts';

const ASSETS = '/verify/assets/';
const RAD_TO_DEG = 180 / Math.PI;
/** Extra degrees beyond the server's thresholds before a pose counts as held in the browser. */
const MARGIN_DEG = 1.5;

type HumanFace = {
  score: number;
  mesh: number[][];
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
};
type HumanInstance = {
  load(): Promise<void>;
  warmup?(): Promise<unknown>;
  detect(input: HTMLVideoElement | HTMLCanvasElement): Promise<{ face: HumanFace[] }>;
  tf: { getBackend(): string };
};

export interface FaceReading {
  pose: FramePose;
  width: number;
  yaw: number;
  pitch: number;
}

let loading: Promise<HumanInstance> | null = null;

/**
 * WebGL when a real GPU is behind it; otherwise wasm. A software renderer (SwiftShader, llvmpipe)
 * takes ~2 s per detection where wasm takes ~0.1 s — too slow to see a held pose.
 */
function pickBackend(): 'webgl' | 'wasm' {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'wasm';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return /swiftshader|llvmpipe|software|basic render/i.test(renderer) ? 'wasm' : 'webgl';
  } catch {
    // no WebGL: the wasm backend works everywhere WebAssembly does
    return 'wasm';
  }
}

/** Loads Human once (a separate chunk, fetched only when the face step starts). */
export function loadFaceGuide(): Promise<HumanInstance> {
  loading ??= (async () => {
    const { Human } = (await import('@vladmandic/human')) as unknown as {
      Human: new (config: Record<string, unknown>) => HumanInstance;
    };
    const human = new Human({
      ...faceMeshOnlyConfig(1),
      backend: pickBackend(),
      modelBasePath: `${ASSETS}models/`,
      wasmPath: `${ASSETS}wasm/`,
      wasmPlatformFetch: false,
      async: true,
    });
    await human.load();
    return human;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

function asMesh(face: HumanFace): FaceMesh {
  const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  return {
    score: face.score,
    landmarks: face.mesh.map(([x, y, z]) => ({ x: x ?? 0, y: y ?? 0, z: z ?? 0 })),
    rotation: { yaw: angle.yaw * RAD_TO_DEG, pitch: angle.pitch * RAD_TO_DEG, roll: angle.roll * RAD_TO_DEG },
  } as unknown as FaceMesh;
}

/** The pose in one captured frame (the very image that is uploaded if it is kept), classified as the server does but with a safety margin. */
export async function readFace(
  human: HumanInstance,
  frame: HTMLCanvasElement,
  baselineWidth: number | null,
): Promise<FaceReading | null> {
  const result = await human.detect(frame);
  const face = result.face[0];
  if (!face || face.mesh.length < 468) return null;
  const mesh = asMesh(face);
  const width = meshWidth(mesh);
  let pose = classifyHeadPose(mesh, baselineWidth);
  const { yaw, pitch } = mesh.rotation;
  const t = POSE_THRESHOLDS;
  if ((pose === 'turn_left' || pose === 'turn_right') && Math.abs(yaw) < t.turnYaw + MARGIN_DEG)
    pose = 'between';
  if ((pose === 'look_up' || pose === 'look_down') && Math.abs(pitch) < t.nodPitch + MARGIN_DEG)
    pose = 'between';
  if (pose === 'center' && (Math.abs(yaw) > t.centreYaw - 2 || Math.abs(pitch) > t.centrePitch - 2))
    pose = 'between';
  if (pose === 'move_closer' && baselineWidth && width / baselineWidth < t.closerRatio + 0.03)
    pose = 'between';
  return { pose, width, yaw, pitch };
}

function meshWidth(mesh: FaceMesh): number {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of mesh.landmarks) {
    min = Math.min(min, p.x);
    max = Math.max(max, p.x);
  }
  return max - min;
}
