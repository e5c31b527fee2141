// The printed portrait cut out of a document photo, for the face check. On the whole photo the
// face is small (the detector sees the photo shrunk to its 416-px input) and its box, hence the
// landmark alignment and the descriptor, is rough; on the crop the face is a large part of the
// picture. The card is found as the OCR check finds it (its outline, then the homography of the
// layout); the portrait region is mapped into the photo and its bounding box cut from the original
// colour pixels, so nothing is resampled.
import sharp from 'sharp';
import { applyHomography, homographyBetween, type Point } from '../../platform/image/homography.ts';
import type { FaceDescription } from '../../platform/ml/face-api.ts';
import { portraitBoxFor } from '../ocr/document-regions.ts';
import { type DocumentType, findDocumentOutline, layoutOf } from '../ocr/index.ts';

export interface PortraitCrop {
  image: Buffer;
  /** In pixels of the (auto-oriented) photo. */
  box: { left: number; top: number; width: number; height: number };
}

/** The outline search works on a 400-px-wide picture anyway: decode no larger (find-document.ts). */
const OUTLINE_WIDTH = 400;

/** Units of card around the printed portrait: the face detector wants a little context. */
const PORTRAIT_MARGIN = 30;

/** Below this the crop cannot hold a face the recognition net can use (it describes 150×150). */
const MIN_CROP_SIDE = 48;

/** The photo's size as shown, after its EXIF orientation (the crop box and face box are in it). */
async function orientedSize(photo: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(photo).metadata();
  const sideways = (meta.orientation ?? 1) >= 5;
  return {
    width: (sideways ? meta.height : meta.width) ?? 0,
    height: (sideways ? meta.width : meta.height) ?? 0,
  };
}

/**
 * The portrait region of the document in `photo`, or null when no document outline is found.
 * `size`: the photo's oriented size, when the caller has read it already.
 */
export async function cropDocumentPortrait(
  photo: Buffer,
  documentType: DocumentType,
  size?: { width: number; height: number },
): Promise<PortraitCrop | null> {
  const { width: photoWidth, height: photoHeight } = size ?? (await orientedSize(photo));
  const { data, info } = await sharp(photo)
    .rotate()
    .greyscale()
    .resize({ width: OUTLINE_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const outline = findDocumentOutline({ data, width: info.width, height: info.height });
  if (!outline) return null;
  const scale = photoWidth / info.width;
  const { width, height } = layoutOf(documentType);
  const toPhoto = homographyBetween(
    [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ],
    outline.corners.map(([x, y]) => [x * scale, y * scale] as Point),
  );
  // The issuer's portrait box (document-types.ts): the My Number card prints it at the left.
  const portrait = portraitBoxFor(documentType);
  if (!portrait) return null;
  const [x0, y0, x1, y1] = [
    portrait[0] - PORTRAIT_MARGIN,
    portrait[1] - PORTRAIT_MARGIN,
    portrait[2] + PORTRAIT_MARGIN,
    portrait[3] + PORTRAIT_MARGIN,
  ];
  const corners: Point[] = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ].map(([x, y]) => applyHomography(toPhoto, x as number, y as number));
  const left = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0]))));
  const top = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1]))));
  const right = Math.min(photoWidth, Math.ceil(Math.max(...corners.map((p) => p[0]))));
  const bottom = Math.min(photoHeight, Math.ceil(Math.max(...corners.map((p) => p[1]))));
  const box = { left, top, width: right - left, height: bottom - top };
  if (box.width < MIN_CROP_SIDE || box.height < MIN_CROP_SIDE) return null;
  // Lossless: the descriptor should see the photo's pixels, not a second JPEG generation.
  const image = await sharp(photo).rotate().extract(box).png({ compressionLevel: 1 }).toBuffer();
  return { image, box };
}

/** Which picture the document's face was described from, stored with the result. */
export interface DocumentPortraitSource {
  source: 'portrait_crop' | 'whole_photo';
  /** The crop, in pixels of the photo; null when the whole photo was used. */
  crop: PortraitCrop['box'] | null;
  /**
   * The face box's width over the photo's; null without a face. A printed portrait spans at most
   * ~0.27 of a photo the card fills, a selfie's face 0.65–1 (docs/face-match.md "A face photo as
   * the document"): the decision tells a selfie sent as the document front by it.
   */
  faceWidthShare: number | null;
  /** Set when the face found on the whole photo was not taken as the document's, and why. */
  discardedFace?: string;
}

/**
 * A face found on the whole photo of a card whose outline was found can be its printed portrait
 * only at about the portrait region's size (a card upside down puts the portrait elsewhere, at the
 * same size). Wider, it is a false detection (a 0.86-wide box on a passport whose portrait showed
 * a turned head, compared as if it were the holder) or a face photo.
 */
const MAX_FACE_OVER_PORTRAIT_REGION = 1.5;

/**
 * The document's face from the portrait crop when the card is found and the crop shows a face,
 * else from the whole photo (a card the outline search misses, one photographed upside down).
 * `describe` runs the face nets (in this thread, or in a worker thread). The face box is given
 * in pixels of the photo either way. A whole-photo face far wider than the portrait region of the
 * card found is discarded (no face on the document: the decision sends it to review).
 */
export async function describeDocumentFace(
  photo: Buffer,
  documentType: DocumentType | null,
  describe: (image: Buffer) => Promise<FaceDescription | null>,
): Promise<{ face: FaceDescription | null; portrait: DocumentPortraitSource }> {
  const size = await orientedSize(photo);
  const share = (face: FaceDescription | null) =>
    face && size.width > 0 ? Math.round((face.box.width / size.width) * 1000) / 1000 : null;
  const crop = documentType ? await cropDocumentPortrait(photo, documentType, size) : null;
  if (crop) {
    const face = await describe(crop.image);
    if (face) {
      const box = { ...face.box, x: face.box.x + crop.box.left, y: face.box.y + crop.box.top };
      return {
        face: { ...face, box },
        portrait: { source: 'portrait_crop', crop: crop.box, faceWidthShare: share(face) },
      };
    }
  }
  const face = await describe(photo);
  const portrait: DocumentPortraitSource = { source: 'whole_photo', crop: null, faceWidthShare: share(face) };
  if (face && crop && face.box.width > MAX_FACE_OVER_PORTRAIT_REGION * crop.box.width) {
    const discardedFace = `${Math.round(face.box.width)} px wide, the card's portrait region ${crop.box.width} px`;
    return { face: null, portrait: { ...portrait, discardedFace } };
  }
  return { face, portrait };
}
