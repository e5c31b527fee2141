// The right document, at capture: right after a side passes the quality gate, the photo is read
// by the pipeline's own OCR check (the document-type classifier of checks/ocr and the definitions
// of src/documents) and searched for a face (the back only searched for a face: a back prints no
// portrait), so that a selfie, a photo of something else, another type of document than the one
// chosen, or the front sent as the back is refused with a message
// saying what was seen — and never stored as the document. Only what was positively seen refuses:
// a photo whose type cannot be read (a poor capture) is taken, as before, and judged by the pipeline.
// The same reading of an accepted front is the personal-data form's suggestion (prefill).
import {
  DOCUMENT_TYPES,
  type DocumentType,
  OCR_CONFIDENCE_THRESHOLD,
  type OcrCheckResult,
} from '../checks/ocr/index.ts';
import {
  documentGeometryInWorker,
  findLargestFaceInWorker,
  type OcrAnswers,
  runOcrWithAnswers,
} from '../inference/index.ts';
import { PORTRAIT_MIN_SHARE, SELFIE_FACE_SHARE } from './identify-document-capture-rules.ts';

export { PORTRAIT_MIN_SHARE, SELFIE_FACE_SHARE };

/** What the form may be prefilled with: only fields read with confidence; kana is never read. */
export interface DocumentReading {
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  address?: string;
}

export type CaptureRefusal =
  | 'DocumentIsSelfie'
  | 'DocumentNotRecognised'
  | 'DocumentTypeMismatch'
  | 'DocumentSideMismatch';

export type CaptureVerdict =
  // ocrAnswers: the OCR's passes on the accepted photo, stored beside it for the pipeline's reading.
  | { refusal: null; reading: DocumentReading | null; ocrAnswers?: OcrAnswers }
  | { refusal: CaptureRefusal; seen: DocumentType | null };

export interface CaptureFacts {
  side: 'front' | 'back';
  chosen: string;
  /** The largest face's box as a share of the photo's area (0 when none). */
  faceShare: number;
  /** The OCR check's result on the photo read as a front; null when it could not finish in time. */
  ocr: OcrCheckResult | null;
}

/** A type named otherwise than chosen refuses only when its title was read this surely. */
export const MISMATCH_MIN_CONFIDENCE = 0.6;

const isDocumentType = (value: string | undefined): value is DocumentType =>
  (DOCUMENT_TYPES as readonly string[]).includes(value ?? '');

/** The verdict on the facts: pure, so each case is tested without models. */
export function judgeCapture(facts: CaptureFacts): CaptureVerdict {
  const result = facts.ocr?.result;
  const detected = isDocumentType(result?.detectedDocumentType) ? result.detectedDocumentType : null;
  const sure = detected !== null && (result?.detectedDocumentTypeConfidence ?? 0) >= MISMATCH_MIN_CONFIDENCE;
  if (!detected && facts.faceShare >= SELFIE_FACE_SHARE) return { refusal: 'DocumentIsSelfie', seen: null };
  // A portrait on the back photo: the front was sent again.
  if (facts.side === 'back' && facts.faceShare >= PORTRAIT_MIN_SHARE)
    return { refusal: 'DocumentSideMismatch', seen: detected };
  if (!result) return { refusal: null, reading: null };
  if (facts.side === 'back') {
    // A front read on the back photo — its title sure, or a type and the front's fields read in
    // full (an issuer-layout licence's vertical title reads at 0.45–0.7 on a 640-px capture):
    // the front was sent again (a passport has no back). A back names no type at all.
    if (sure || (detected && result.success)) return { refusal: 'DocumentSideMismatch', seen: detected };
    return { refusal: null, reading: null };
  }
  // The check found nothing it knows in the photo, or text of another kind of card: the pipeline
  // would reject it as an unsupported document, so the user is told now.
  if (result.unsupportedDocumentType !== undefined && !detected) {
    return { refusal: 'DocumentNotRecognised', seen: null };
  }
  if (sure && detected !== facts.chosen && isDocumentType(facts.chosen)) {
    return { refusal: 'DocumentTypeMismatch', seen: detected };
  }
  return { refusal: null, reading: detected === facts.chosen ? readingOf(facts.ocr!, detected) : null };
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
 * How long the user waits at most for the check; past it the photo is taken unjudged (as before
 * this check existed: the pipeline still judges it). A front is read by the OCR check (1–3 s warm
 * on two cores, more under load); a back only searched for a face (bench/capture-check.bench.ts).
 * The first upload of a process that has not warmed its models also loads them.
 */
export const CAPTURE_CHECK_BUDGET_MS = 60_000;

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
  budgetMs = CAPTURE_CHECK_BUDGET_MS,
): Promise<CaptureVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), budgetMs);
  });
  // The back is judged by its face alone: reading it as a front took the OCR check 7–18 s (every
  // field searched for, in vain, on two loaded cores) to learn what a portrait tells in well under
  // a second. The pipeline's OCR reads the back in full after submission.
  let answers: OcrAnswers | undefined;
  const ocr =
    side === 'back'
      ? Promise.resolve(null)
      : runOcrWithAnswers(
          { front: image.jpeg, expectedDocumentType: chosen },
          { geometry: documentGeometryInWorker },
        )
          .then((run) => {
            answers = run.answers;
            return run.outcome;
          })
          .catch(() => null as OcrCheckResult | null);
  const [faceShare, reading] = await Promise.all([
    Promise.race([faceShareOf(image.jpeg, image.width, image.height), late.then(() => 0)]),
    Promise.race([ocr, late]),
  ]);
  clearTimeout(timer);
  const verdict = judgeCapture({ side, chosen, faceShare, ocr: reading });
  return verdict.refusal === null && reading && answers ? { ...verdict, ocrAnswers: answers } : verdict;
}
