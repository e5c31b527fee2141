// The limits of an uploaded picture, apart from its decoding (decode-upload-image.ts, which needs
// sharp) so that the browser app scales a photo down to them before sending it.

/** Interface §8: at most 10 MB per image. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** 50 megapixels: more than any phone camera, far less than a bomb expands to. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Stored documents are bounded to this longer side: enough for OCR, bounded for storage. */
export const MAX_STORED_SIDE = 3000;
/**
 * A liveness frame's pixel budget, from its header: a 1080p camera frame (the app asks for 640×480;
 * a camera that ignores the asked size gives 1920×1080 at most, and the app scales a larger one
 * down to this before sending). The face is analysed at 640 px.
 */
export const MAX_LIVENESS_FRAME_PIXELS = 1920 * 1080;
/**
 * A liveness attempt's pixel budget: ten 1080p frames — the app's 10 frames even from a camera
 * that ignores the asked size; the simulator's 15 frames of 640×480 are 4.6 MP.
 */
export const MAX_LIVENESS_ATTEMPT_PIXELS = 10 * MAX_LIVENESS_FRAME_PIXELS;
