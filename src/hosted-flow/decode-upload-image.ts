// Every uploaded picture goes through here: the type comes from the content
// (magic bytes), never from the name or the declared type; sharp decodes under a pixel limit so a
// decompression bomb is refused before it is expanded; the picture is auto-oriented and
// re-encoded, which drops EXIF/XMP/ICC metadata (location, device) along the way.
import sharp, { type Metadata } from 'sharp';
import { AppError } from '../platform/http/app-error.ts';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_STORED_SIDE } from './upload-limits.ts';

export { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS };

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

export interface DecodedUpload {
  /** Re-encoded JPEG, oriented, without metadata: what is stored. */
  jpeg: Buffer;
  /** The uploaded picture's pixels (width × height of its header), before any resizing. */
  sourcePixels: number;
  width: number;
  height: number;
  /** The size the file itself has (its header, before turning and scaling). */
  source: { width: number; height: number };
  /** Greyscale pixels of the stored picture, for quality checks. */
  grey: { data: Buffer; width: number; height: number };
  /** RGB pixels of the stored picture (only when asked for). */
  rgb?: { data: Buffer; width: number; height: number };
}

export interface DecodeOptions {
  maxSide?: number;
  /** Longer side of the greyscale copy handed to quality checks. */
  greySide?: number;
  withRgb?: boolean;
  jpegQuality?: number;
  /**
   * The most pixels (by the header, before decoding) this picture may have: MAX_IMAGE_PIXELS
   * unless the caller's budget is smaller (a liveness frame's).
   */
  maxPixels?: number;
  /** The refusal of a picture over `maxPixels` (default ImageTooManyPixels without details). */
  tooManyPixels?: (pixels: number) => AppError;
}

export async function decodeUploadImage(bytes: Buffer, options: DecodeOptions = {}): Promise<DecodedUpload> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new AppError('ImageTooLarge');
  if (!sniffImageType(bytes)) throw new AppError('ImageTypeUnsupported');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('ImageUnreadable');
  }
  // The header's claim is checked before decoding: a bomb is refused without being expanded.
  if (!meta.width || !meta.height) throw new AppError('ImageUnreadable');
  const maxPixels = Math.min(options.maxPixels ?? MAX_IMAGE_PIXELS, MAX_IMAGE_PIXELS);
  const sourcePixels = meta.width * meta.height;
  if (sourcePixels > maxPixels || (meta.pages ?? 1) > 1) {
    throw options.tooManyPixels?.(sourcePixels) ?? new AppError('ImageTooManyPixels');
  }
  const maxSide = options.maxSide ?? MAX_STORED_SIDE;
  try {
    // The decoder is held to the same budget, should the header have lied.
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
    const jpeg = await sharp(data, raw)
      .jpeg({ quality: options.jpegQuality ?? 90, mozjpeg: false })
      .toBuffer();
    const greySide = options.greySide ?? 640;
    const grey = await sharp(data, raw)
      .resize({ width: greySide, height: greySide, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      jpeg,
      sourcePixels,
      width: info.width,
      height: info.height,
      source: { width: meta.width, height: meta.height },
      grey: { data: grey.data, width: grey.info.width, height: grey.info.height },
      ...(options.withRgb && info.channels === 3
        ? { rgb: { data, width: info.width, height: info.height } }
        : {}),
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (/pixel limit/i.test((error as Error).message))
      throw options.tooManyPixels?.(maxPixels + 1) ?? new AppError('ImageTooManyPixels');
    throw new AppError('ImageUnreadable');
  }
}
