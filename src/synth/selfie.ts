// The selfie: a phone-camera portrait of the person, a different photo from the document's.
import type { BackgroundKind } from './capture-parameters.ts';
import { composeFaceScene, type FaceSceneParameters } from './face-scene.ts';
import { applyLightingAndGlare, finishCapture } from './photograph-document.ts';
import type { Random } from './random.ts';

export type SelfieParameters = {
  scene: FaceSceneParameters;
  lighting: { angle: number; low: number };
  blur: number;
  noise: number;
  noiseSeed: number;
  jpegQuality: number;
};

const WALLS: [BackgroundKind, [number, number, number]][] = [
  ['stone', [214, 210, 200]],
  ['stone', [190, 200, 210]],
  ['cloth', [120, 130, 150]],
  ['stone', [160, 150, 140]],
];

export function drawSelfieParameters(random: Random, width = 480): SelfieParameters {
  const [kind, colour] = random.pick(WALLS);
  return {
    scene: {
      width,
      height: Math.round((width * 4) / 3),
      // The photo (a head-and-shoulders cut, faces.ts) fills the frame, as a phone's front camera
      // at arm's length does: its own room is the background.
      faceWidth: Math.round(random.range(1.34, 1.42) * 1000) / 1000,
      centre: [
        Math.round(random.range(0.47, 0.53) * 1000) / 1000,
        Math.round(random.range(0.47, 0.53) * 1000) / 1000,
      ],
      background: { kind, colour, seed: random.int(0, 2 ** 30) },
      feather: 'edges',
    },
    lighting: { angle: random.int(0, 359), low: Math.round(random.range(0.75, 0.98) * 100) / 100 },
    blur: Math.round(random.range(0, 0.8) * 100) / 100,
    noise: Math.round(random.range(1, 4) * 100) / 100,
    noiseSeed: random.int(0, 2 ** 30),
    jpegQuality: random.int(80, 92),
  };
}

export async function renderSelfie(photoFile: string, params: SelfieParameters): Promise<Buffer> {
  const scene = await composeFaceScene(photoFile, params.scene);
  applyLightingAndGlare(scene, {
    lighting: params.lighting,
    glare: { x: 0.5, y: 0.5, radius: 0.1, strength: 0 },
  });
  return finishCapture(scene, params);
}
