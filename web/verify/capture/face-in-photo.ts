// A cheap look for a face in a document photo before it is uploaded, with Human's face detector
// (the face step's, loaded once; face-guide.ts): a face filling the photo is a selfie, not a
// document, and a printed portrait on the photo meant as the back is the front again — the rules
// the server applies (src/hosted-flow/identify-document-capture.ts), so the user hears it before
// the upload's round trip. No verdict when the detector is not ready in time: the server judges.
import {
  PORTRAIT_MIN_SHARE,
  SELFIE_FACE_SHARE,
} from '../../../src/hosted-flow/identify-document-capture-rules.ts';
import { loadFaceGuide } from './face-guide.ts';

export type FaceProblem = 'faceNotDocument' | 'frontAsBack';

/** Human scores a printed portrait 0.6–0.9; weaker finds are not counted. */
const MIN_SCORE = 0.6;
/** How long the user may wait for the detector (it loads while the camera shows). */
const BUDGET_MS = 1500;

/** Starts loading the detector (the capture step calls it on mount). */
export function prepareFaceCheck(): void {
  loadFaceGuide().catch(() => {});
}

export async function faceProblemIn(
  photo: HTMLCanvasElement,
  side: 'front' | 'back' | 'tilted',
): Promise<FaceProblem | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), BUDGET_MS));
  const look = (async () => {
    const human = await loadFaceGuide();
    const result = (await human.detect(photo)) as unknown as {
      face: { score: number; box: [number, number, number, number] }[];
    };
    let share = 0;
    for (const face of result.face) {
      if (face.score < MIN_SCORE) continue;
      share = Math.max(share, (face.box[2] * face.box[3]) / (photo.width * photo.height));
    }
    if (share >= SELFIE_FACE_SHARE) return 'faceNotDocument' as const;
    if (side === 'back' && share >= PORTRAIT_MIN_SHARE) return 'frontAsBack' as const;
    return null;
  })().catch(() => null);
  return Promise.race([look, timeout]);
}
