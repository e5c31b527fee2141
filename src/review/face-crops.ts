// The two faces a reviewer compares, cut to the same size (docs/console-api.md "case"): the face on
// the document (around the box the face match found on the front photo) and the face of the live
// check's reference picture. Without a box (no face found) the whole picture is shown in the same
// frame, so the two still sit side by side at one size.
import sharp from 'sharp';
import { readSessionImage } from '../hosted-flow/index.ts';
import { readStoredResult } from '../pipeline/index.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/session-repository.ts';

export const FACE_CROP_NAMES = ['document-face', 'selfie-face'] as const;
export type FaceCropName = (typeof FACE_CROP_NAMES)[number];

/** Portrait 4:5, the shape of a card's photo. */
const WIDTH = 320;
const HEIGHT = 400;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface FaceMatchExtras {
  document?: { box?: Box } | null;
  selfie?: { box?: Box } | null;
}

const SOURCE: Record<FaceCropName, { image: 'front' | 'liveness-reference'; side: 'document' | 'selfie' }> = {
  'document-face': { image: 'front', side: 'document' },
  'selfie-face': { image: 'liveness-reference', side: 'selfie' },
};

async function faceBox(platform: Platform, sessionId: string, side: 'document' | 'selfie') {
  const stored = await readStoredResult<unknown, FaceMatchExtras>(platform, sessionId, 'faceMatch');
  const box = stored?.envelope.extras?.[side]?.box;
  const isUsable = box && [box.x, box.y, box.width, box.height].every(Number.isFinite) && box.width > 4;
  return isUsable ? box : null;
}

/** The face with room for hair and chin, in the 4:5 shape, kept inside the picture. */
function cropAround(box: Box, width: number, height: number) {
  const cropWidth = Math.min(width, Math.round(Math.max(box.width, box.height / 1.25) * 1.7));
  const cropHeight = Math.min(height, Math.round(cropWidth * 1.25));
  const centreX = box.x + box.width / 2;
  const centreY = box.y + box.height * 0.45;
  const left = Math.round(Math.min(Math.max(0, centreX - cropWidth / 2), width - cropWidth));
  const top = Math.round(Math.min(Math.max(0, centreY - cropHeight / 2), height - cropHeight));
  return { left, top, width: cropWidth, height: cropHeight };
}

/** JPEG bytes of the face picture, or null when the session has no such picture. */
export async function readFaceCrop(
  platform: Platform,
  session: SessionRow,
  name: FaceCropName,
): Promise<Buffer | null> {
  const { image, side } = SOURCE[name];
  const bytes = await readSessionImage(platform, session, image);
  if (!bytes) return null;
  const upright = await sharp(bytes).rotate().toBuffer({ resolveWithObject: true });
  const box = await faceBox(platform, session.id, side);
  let picture = sharp(upright.data);
  if (box) picture = picture.extract(cropAround(box, upright.info.width, upright.info.height));
  return picture
    .resize(WIDTH, HEIGHT, { fit: 'contain', background: { r: 255, g: 255, b: 255 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** The case's two face pictures: their URLs, and whether each is cut around a face found. */
export async function faceCropUrls(
  platform: Platform,
  session: SessionRow,
  base: string,
  imageNames: readonly string[],
) {
  const entry = async (name: FaceCropName) =>
    imageNames.includes(SOURCE[name].image)
      ? {
          url: `${base}/${name}`,
          isFaceFound: (await faceBox(platform, session.id, SOURCE[name].side)) !== null,
        }
      : null;
  return { document: await entry('document-face'), selfie: await entry('selfie-face') };
}
