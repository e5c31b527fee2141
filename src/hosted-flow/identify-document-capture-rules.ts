// The capture check's face rules as numbers, apart from the check (identify-document-capture.ts) so
// that the browser's pre-check (web/verify/capture/face-in-photo.ts) applies the same ones without
// bundling the OCR.

/**
 * A face this large is the photo's subject: the printed portrait of a card or passport page that
 * fills the frame covers under a tenth of it (corpus fronts: 0.03–0.04), a selfie a fifth or more
 * (corpus selfies: 0.19–0.37).
 */
export const SELFIE_FACE_SHARE = 0.15;
/**
 * A face at least this large on the photo sent as the back is a printed portrait: no back of the
 * four documents prints one (the licence's, the My Number card's and the residence card's backs
 * carry text, tables and a chip), their fronts do (corpus fronts 0.03–0.04 of the photo; a card
 * filling a third of the frame still puts its portrait above 0.008).
 */
export const PORTRAIT_MIN_SHARE = 0.008;
