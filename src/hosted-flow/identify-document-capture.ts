// The right document, readable, at capture: right after a side passes the quality gate, the photo
// is read by the pipeline's own OCR check (the document-type classifier of checks/ocr and the
// definitions of src/documents) and searched for a face (the back only searched for a face: a back
// prints no portrait). A front is accepted only when the reading positively names the type chosen
// (its title, number or MRZ read, not assumed) and reads its key fields with the confidence the
// pipeline decides on; anything else — a selfie, a photo of something else, another type, the
// front sent as the back, a reading too poor, a reading that fails or runs out of time — is
// refused with what to fix, and never stored. The person is still holding the card: a retake
// now costs seconds, a low-confidence reading found after submission costs a new session.
// The same reading of an accepted front is the personal-data form's suggestion (prefill).
import {
  DOCUMENT_TYPES,
  type DocumentGeometry,
  type DocumentType,
  getOcrEngineFor,
  OCR_CONFIDENCE_THRESHOLD,
  type OcrCheckResult,
} from '../checks/ocr/index.ts';
import {
  type AnsweredOcrRun,
  documentGeometryInWorker,
  findLargestFaceInWorker,
  type OcrAnswers,
  runOcrWithAnswers,
} from '../inference/index.ts';
import { DOCUMENT_QUALITY_LIMITS, type DocumentQuality } from './assess-document-quality.ts';
import { PORTRAIT_MIN_SHARE, SELFIE_FACE_SHARE } from './identify-document-capture-rules.ts';

export { PORTRAIT_MIN_SHARE, SELFIE_FACE_SHARE };

/** What the form may be prefilled with: only fields read with confidence; kana is never read. */
export interface DocumentReading {
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  address?: string;
}

/** A refusal names the photo's problem, so that the message says what to change before Retake. */
export type CaptureRefusal =
  | 'DocumentIsSelfie'
  | 'DocumentNotRecognised'
  | 'DocumentTypeMismatch'
  | 'DocumentSideMismatch'
  | 'ImageGlare'
  | 'ImageBlurred'
  | 'DocumentTilted'
  | 'DocumentTooFar'
  | 'DocumentUnreadable';

export type CaptureVerdict =
  // ocrAnswers: the OCR's passes on the accepted photo, stored beside it for the pipeline's reading.
  | { refusal: null; reading: DocumentReading | null; ocrAnswers?: OcrAnswers }
  | { refusal: CaptureRefusal; seen: DocumentType | null };

/** What the reading had seen when it finished or was stopped (the OCR's engine and geometry, watched). */
export interface CaptureSight {
  /**
   * The outline the document finder returned (null: none), with the size of the picture its
   * corners are in; undefined when not looked for in time.
   */
  outline?: { corners: [number, number][]; coverage: number; width: number; height: number } | null;
  /** Words Tesseract read with at least WORD_CONFIDENCE, over every pass made. */
  confidentWords: number;
}

export interface CaptureFacts {
  side: 'front' | 'back';
  chosen: string;
  /** The largest face's box as a share of the photo's area (0 when none; null: not searched in time). */
  faceShare: number | null;
  /** The OCR check's result on the photo read as a front; null when it failed or ran out of time. */
  ocr: OcrCheckResult | null;
  sight?: CaptureSight;
  /** The quality gate's measures of the same photo (it passed them). */
  quality?: DocumentQuality;
}

/** A type named otherwise than chosen refuses as that type only when its title was read this surely. */
export const MISMATCH_MIN_CONFIDENCE = 0.6;
/** Tesseract's own word confidence (0–100) above which a word counts as read text. */
export const WORD_CONFIDENCE = 70;
/**
 * Fewer words than this read surely, over every pass of a reading, is no printed document: a
 * card's front prints a title, a name, dates and an address (a dozen words and more), while
 * Tesseract finds a few "words" in any photo's texture (a group photo: 3, a selfie: 1).
 */
export const MIN_DOCUMENT_WORDS = 5;
/**
 * An outline turned or foreshortened by more than this (degrees, from the edges' directions) is
 * what the message names when the card could not be read: the guide frame is square to the
 * screen, and a card held square reads best.
 */
export const MAX_TILT_DEGREES = 5;
/** An outline covering less than this share of the photo: the card is too far (the guide covers ~0.5). */
export const MIN_CARD_COVERAGE = 0.25;

const isDocumentType = (value: string | undefined): value is DocumentType =>
  (DOCUMENT_TYPES as readonly string[]).includes(value ?? '');

/** The verdict on the facts: pure, so each case is tested without models. */
export function judgeCapture(facts: CaptureFacts): CaptureVerdict {
  const result = facts.ocr?.result;
  const detected = isDocumentType(result?.detectedDocumentType) ? result.detectedDocumentType : null;
  const sure = detected !== null && (result?.detectedDocumentTypeConfidence ?? 0) >= MISMATCH_MIN_CONFIDENCE;
  const faceShare = facts.faceShare ?? 0;
  if (!detected && faceShare >= SELFIE_FACE_SHARE) return { refusal: 'DocumentIsSelfie', seen: null };
  if (facts.side === 'back') {
    // A portrait on the back photo: the front was sent again. No back of the four prints one.
    if (faceShare >= PORTRAIT_MIN_SHARE) return { refusal: 'DocumentSideMismatch', seen: detected };
    // The back is judged by its face alone: unsearched, it is not judged, so not taken.
    if (facts.faceShare === null) return { refusal: 'DocumentUnreadable', seen: null };
    // A front read on the back photo — its title sure, or a type and the front's fields read in
    // full: the front was sent again (a passport has no back). A back names no type at all.
    if (result && (sure || (detected && result.success)))
      return { refusal: 'DocumentSideMismatch', seen: detected };
    return { refusal: null, reading: null };
  }
  if (sure && detected !== facts.chosen && isDocumentType(facts.chosen)) {
    return { refusal: 'DocumentTypeMismatch', seen: detected };
  }
  // The type read on the card itself (a capture on which nothing names it is read as the type
  // chosen, with no detected type: that is no evidence of the document) and its key fields read
  // as surely as the pipeline needs to decide without a reviewer.
  if (detected === facts.chosen && result?.status === 'success' && facts.ocr) {
    return { refusal: null, reading: readingOf(facts.ocr, detected) };
  }
  return { refusal: whatToFix(facts, detected), seen: detected };
}

/** Degrees by which the outline's sides depart from a rectangle square to the photo. */
export function outlineTilt(corners: readonly [number, number][]): number {
  let worst = 0;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = corners[i] as [number, number];
    const [x1, y1] = corners[(i + 1) % 4] as [number, number];
    const degrees = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
    // Distance to the nearest multiple of 90°: an edge's departure from the photo's axes.
    const off = Math.abs(degrees - 90 * Math.round(degrees / 90));
    worst = Math.max(worst, off);
  }
  return worst;
}

/**
 * What the person should change, from what was seen: nothing of a document → not one; otherwise
 * the first of glare, tilt, distance, blur that the measures show; else "not readable" with the
 * general advice. Only the wording depends on these measures — the refusal itself comes from the
 * reading.
 */
function whatToFix(facts: CaptureFacts, detected: DocumentType | null): CaptureRefusal {
  const result = facts.ocr?.result;
  const outline = cardOutline(facts.sight?.outline);
  if (!detected) {
    // The check found nothing it knows (no outline, no title, no MRZ), or text of another kind.
    if (result?.unsupportedDocumentType !== undefined) return 'DocumentNotRecognised';
    // Next to no word read surely: people, a room, a landscape — no printed card. A reading cut
    // short says so only when it found no card outline either.
    const fewWords = facts.sight !== undefined && facts.sight.confidentWords < MIN_DOCUMENT_WORDS;
    if (fewWords && (facts.ocr !== null || !outline)) return 'DocumentNotRecognised';
  }
  const quality = facts.quality;
  if (quality && quality.glare > 0) return 'ImageGlare';
  if (outline && outlineTilt(outline.corners) > MAX_TILT_DEGREES) return 'DocumentTilted';
  if (outline && outline.coverage < MIN_CARD_COVERAGE) return 'DocumentTooFar';
  if (quality && quality.sharpness < 2 * DOCUMENT_QUALITY_LIMITS.minSharpness) return 'ImageBlurred';
  return 'DocumentUnreadable';
}

/** The outline, when it lies in the photo (a quadrilateral reaching past the frame is no card seen whole). */
function cardOutline(
  outline: CaptureSight['outline'],
): { corners: [number, number][]; coverage: number } | null {
  if (!outline) return null;
  const margin = 0.02 * Math.max(outline.width, outline.height);
  const inside = outline.corners.every(
    ([x, y]) => x >= -margin && y >= -margin && x <= outline.width + margin && y <= outline.height + margin,
  );
  return inside ? outline : null;
}

/** The fields read with the OCR check's own confidence threshold; an unsure one stays empty. */
export function readingOf(ocr: OcrCheckResult, type: DocumentType): DocumentReading {
  const { payload } = ocr.result;
  const { fields } = ocr.extras;
  const sure = (f: { confidence: number; lastResort?: boolean } | undefined) =>
    f !== undefined && f.confidence >= OCR_CONFIDENCE_THRESHOLD && !f.lastResort;
  const reading: DocumentReading = {};
  if (sure(fields.name) && payload?.lastName && payload.firstName) {
    reading.lastName = payload.lastName;
    reading.firstName = payload.firstName;
  }
  if (sure(fields.birthDate) && payload?.birthDate) reading.birthDate = payload.birthDate;
  // A passport prints no address (its "address" field is the registered prefecture).
  if (type !== 'passport' && sure(fields.address) && payload?.address) reading.address = payload.address;
  return reading;
}

/**
 * How long the person waits at most for the check, from the decoded photo to the answer: the
 * upload's decoding and quality gate come before it, so that the answer comes within 2 s
 * (bench/capture-check.bench.ts). A reading still going then is stopped (its next pass refused)
 * and the photo refused as unreadable: an unread photo is never taken. The service's setting
 * MIMOTO_CAPTURE_CHECK_BUDGET_MS replaces it (tests widen it, so that their verdicts do not
 * depend on the machine's load).
 */
export const CAPTURE_CHECK_BUDGET_MS = 4000;

/** The reading stopped at the budget. */
class CaptureOutOfTime extends Error {}

/**
 * The OCR check on the front, its passes and geometry stopped once `deadline` (performance.now())
 * is past, and watched for what they saw. The one call of the OCR at capture: the place to reuse
 * its reading elsewhere (the same photo, the same check version).
 */
export async function readFrontAtCapture(
  jpeg: Buffer,
  chosen: string,
  deadline: number,
  sight: CaptureSight,
): Promise<AnsweredOcrRun> {
  const inTime = () => {
    if (performance.now() > deadline) throw new CaptureOutOfTime('capture check budget spent');
  };
  const geometry: DocumentGeometry = {
    async locate(photo) {
      inTime();
      const located = await documentGeometryInWorker.locate(photo);
      sight.outline = located
        ? {
            corners: located.outline.corners,
            coverage: located.outline.coverage,
            width: located.grey.width,
            height: located.grey.height,
          }
        : null;
      return located;
    },
    async warp(grey, corners, width, height) {
      inTime();
      return documentGeometryInWorker.warp(grey, corners, width, height);
    },
  };
  const count = (words: readonly { confidence: number; text: string }[]) => {
    for (const w of words)
      if (w.confidence >= WORD_CONFIDENCE && w.text.trim().length > 0) sight.confidentWords++;
  };
  return runOcrWithAnswers(
    { front: jpeg, expectedDocumentType: chosen },
    {
      geometry,
      engine: async (languages) => {
        const engine = await getOcrEngineFor(languages);
        return Object.create(engine, {
          recognize: {
            // Configurable: the pass recorder (ocr-answers.ts) wraps this engine in a Proxy.
            configurable: true,
            value: async (...args: Parameters<typeof engine.recognize>) => {
              inTime();
              const read = await engine.recognize(...args);
              count(read.words);
              return read;
            },
          },
          readLines: {
            configurable: true,
            value: async (...args: Parameters<typeof engine.readLines>) => {
              inTime();
              const read = await engine.readLines(...args);
              count(read.words);
              return read;
            },
          },
        });
      },
    },
  );
}

/**
 * A face found less surely than this is no face: on the corpus's card backs the detector finds
 * large "faces" in rule lines and tables at 0.26–0.34; printed portraits read 0.53–0.88, a selfie 0.9.
 */
export const MIN_FACE_SCORE = 0.5;

async function faceShareOf(image: Buffer, width: number, height: number): Promise<number> {
  try {
    // Where the face is, not who: the pipeline describes the document's face, once.
    const face = await findLargestFaceInWorker(image);
    return face && face.detectionScore >= MIN_FACE_SCORE
      ? (face.box.width * face.box.height) / (width * height)
      : 0;
  } catch {
    // No verdict from the face model is no evidence of a selfie.
    return 0;
  }
}

/** Reads the photo (the stored JPEG) with the OCR check and the face detector, in their threads. */
export async function identifyDocumentCapture(
  image: { jpeg: Buffer; width: number; height: number },
  side: 'front' | 'back',
  chosen: string,
  options: { budgetMs?: number; quality?: DocumentQuality } = {},
): Promise<CaptureVerdict> {
  const budgetMs = options.budgetMs ?? CAPTURE_CHECK_BUDGET_MS;
  const deadline = performance.now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), budgetMs);
  });
  const sight: CaptureSight = { confidentWords: 0 };
  // The back is judged by its face alone: reading it as a front took the OCR check 7–18 s (every
  // field searched for, in vain, on two loaded cores) to learn what a portrait tells in well under
  // a second. The pipeline's OCR reads the back in full after submission.
  let answers: OcrAnswers | undefined;
  const ocr =
    side === 'back'
      ? Promise.resolve(null)
      : readFrontAtCapture(image.jpeg, chosen, deadline, sight)
          .then((run) => {
            answers = run.answers;
            return run.outcome;
          })
          .catch(() => null as OcrCheckResult | null);
  const [faceShare, reading] = await Promise.all([
    Promise.race([faceShareOf(image.jpeg, image.width, image.height), late]),
    Promise.race([ocr, late]),
  ]);
  clearTimeout(timer);
  const verdict = judgeCapture({
    side,
    chosen,
    faceShare,
    ocr: reading,
    sight,
    ...(options.quality ? { quality: options.quality } : {}),
  });
  return verdict.refusal === null && reading && answers ? { ...verdict, ocrAnswers: answers } : verdict;
}
