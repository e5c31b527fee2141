// The two faces a reviewer compares, cut to the same size (docs/console-api.md "case"): the face on
// the document (the card's printed portrait region the face match read it from, else around the
// face it found on the front photo) and the face of the live check's reference picture. Without a
// face found the whole picture is shown in the same frame, so the two still sit side by side at one
// size.
import sharp from 'sharp';
import { listSessionImages, readSessionImage } from '../hosted-flow/index.ts';
import { readStoredResult } from '../pipeline/index.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';

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
  /** Where the face match looked for the document's face: the card's printed portrait region. */
  documentFaceSource?: { crop?: { left: number; top: number; width: number; height: number } | null } | null;
}

const SOURCE: Record<FaceCropName, { image: 'front' | 'liveness-reference'; side: 'document' | 'selfie' }> = {
  'document-face': { image: 'front', side: 'document' },
  'selfie-face': { image: 'liveness-reference', side: 'selfie' },
};

const isFinite4 = (values: number[]) => values.every(Number.isFinite);

/**
 * The region to show: for the document, the card's printed portrait region the face match read the
 * face from (the photo as printed), else around the face found; for the selfie, around its face.
 */
async function faceRegion(platform: Platform, sessionId: string, side: 'document' | 'selfie') {
  const stored = await readStoredResult<unknown, FaceMatchExtras>(platform, sessionId, 'faceMatch');
  const extras = stored?.envelope.extras;
  const portrait = side === 'document' ? extras?.documentFaceSource?.crop : null;
  const box = extras?.[side]?.box;
  if (!box || !isFinite4([box.x, box.y, box.width, box.height]) || box.width <= 4) return null;
  if (portrait && isFinite4([portrait.left, portrait.top, portrait.width, portrait.height]))
    return {
      kind: 'portrait' as const,
      box: { x: portrait.left, y: portrait.top, width: portrait.width, height: portrait.height },
    };
  return { kind: 'face' as const, box };
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

/** The portrait region with a small margin, kept inside the picture. */
function within(box: Box, width: number, height: number) {
  const margin = Math.round(Math.max(box.width, box.height) * 0.05);
  const left = Math.max(0, Math.round(box.x) - margin);
  const top = Math.max(0, Math.round(box.y) - margin);
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.round(box.width) + 2 * margin)),
    height: Math.max(1, Math.min(height - top, Math.round(box.height) + 2 * margin)),
  };
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
  const region = await faceRegion(platform, session.id, side);
  let picture = sharp(upright.data);
  if (region) {
    const { width, height } = upright.info;
    picture = picture.extract(
      region.kind === 'portrait' ? within(region.box, width, height) : cropAround(region.box, width, height),
    );
  }
  return picture
    .resize(WIDTH, HEIGHT, { fit: 'contain', background: { r: 255, g: 255, b: 255 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** The case's two face pictures: their URLs, and whether each is cut around a face found. */
export async function faceCropUrls(platform: Platform, session: SessionRow, base: string) {
  const imageNames: readonly string[] = await listSessionImages(platform, session);
  const entry = async (name: FaceCropName) =>
    imageNames.includes(SOURCE[name].image)
      ? {
          url: `${base}/${name}`,
          isFaceFound: (await faceRegion(platform, session.id, SOURCE[name].side)) !== null,
        }
      : null;
  return { document: await entry('document-face'), selfie: await entry('selfie-face') };
}
