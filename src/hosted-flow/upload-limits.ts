// The limits of an uploaded picture, apart from its decoding (decode-upload-image.ts, which needs
// sharp) so that the browser app scales a photo down to them before sending it.

/** Interface §8: at most 10 MB per image. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** 50 megapixels: more than any phone camera, far less than a bomb expands to. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Stored documents are bounded to this longer side: enough for OCR, bounded for storage. */
export const MAX_STORED_SIDE = 3000;
