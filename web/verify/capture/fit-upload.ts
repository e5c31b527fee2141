// A photo chosen from the device sent within the server's limits: a phone's full-resolution
// picture (8000×6000, 20–40 MB) is over the 10 MB an upload may hold, so it is scaled down here to
// the size the server stores anyway (its longer side 3000 px), with its EXIF orientation applied
// to the pixels (createImageBitmap's "from-image"), so that the card arrives the right way up
// although the re-encoded JPEG carries no EXIF. A photo within the limits is sent as it is.
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_STORED_SIDE,
} from '../../../src/hosted-flow/upload-limits.ts';
import { canvasToJpeg } from './camera.ts';

/** Whether the photo must be scaled down before it is sent. */
export const overUploadLimits = (bytes: number, width: number, height: number): boolean =>
  bytes > MAX_IMAGE_BYTES || width * height > MAX_IMAGE_PIXELS;

/** The bitmap (decoded with its orientation applied) as a JPEG within the limits. */
export async function scaledForUpload(bitmap: ImageBitmap): Promise<Blob> {
  const scale = Math.min(1, MAX_STORED_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  // 3000 px at 0.92 is 1–4 MB; a picture of pure noise could still be more: lower the quality.
  for (const quality of [0.92, 0.8, 0.6]) {
    const blob = await canvasToJpeg(canvas, quality);
    if (blob.size <= MAX_IMAGE_BYTES) return blob;
  }
  throw new Error('photo too large even when scaled down');
}

/** Whether this browser runs on a phone (where "continue on a phone" makes no sense). */
export function onPhone(): boolean {
  const hints = (navigator as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData;
  if (typeof hints?.mobile === 'boolean' && hints.mobile) return true;
  return /\b(iPhone|iPod|Android.+Mobile|Mobile Safari|Windows Phone)\b/i.test(navigator.userAgent);
}
