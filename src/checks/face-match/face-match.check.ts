// faceMatch (interface §2.9, docs/face-match.md): is the person in the document portrait the person
// of the liveness reference image? face-api finds each face and its landmarks, a 512-d
// ArcFace-style embedding describes it (face-embedding.ts), Euclidean distance, a documented
// distance→similarity calibration (docs/face-match.md), the tenant's similarity threshold.
import {
  type ApparentSex,
  computeFaceDescriptor,
  FACE_NETS,
  type FaceBox,
  type FaceDescription,
  FaceImageError,
  faceDescriptorDistance,
  loadFaceApi,
} from '../../platform/ml/face-api.ts';
import { FACE_EMBEDDING_MODEL } from '../../platform/ml/face-embedding.ts';
import { type Check, PROVIDER } from '../check.ts';
import type { DocumentType } from '../ocr/index.ts';
import { faceMatchDefinition } from './definition.ts';
import { type DocumentPortraitSource, describeDocumentFace } from './document-portrait.ts';
import {
  FACE_SIMILARITY_CALIBRATION,
  type SimilarityCalibration,
  similarityFromDistance,
} from './similarity-calibration.ts';

/**
 * Service defaults (docs/decisions.md "Pipeline and decision": per-tenant thresholds with service defaults),
 * set from real photos (docs/accuracy-real.md, `npm run bench:real`: 61 colour photos of 13 adults,
 * 140 genuine and 1,690 impostor pairs; the tuning set, a held-out set of the same kind judges).
 * There the classes touch: hardest genuine pair 0.652, closest impostors 0.670, 0.666, 0.658 (two
 * look-alikes), so no single line both approves every genuine pair and no impostor. The band does it:
 * - approve line (threshold + band) 0.72: 0.05 above the closest real impostor (0.670; at 0.5 ± 0.05,
 *   7 impostor pairs were approved), so an impostor a little closer than any seen here still goes to
 *   a person; one real genuine pair (0.652) goes to review too;
 * - reject line (threshold − band) 0.44: below 0.45 (0.5 ± 0.05 around the fixtures' EER point),
 *   so no pair that band sends to review or approves is rejected;
 * - threshold 0.58 between them (isSamePerson): every real genuine pair clears it (TAR 100 %); the
 *   impostor pairs that reach it are all inside the band. On the 0.01 grid the console's settings
 *   form uses; a tenant's own threshold keeps this band.
 */
export const FACE_MATCH_DEFAULTS = Object.freeze({
  /** isSamePerson when similarity ≥ threshold. */
  threshold: 0.58,
  /** |similarity − threshold| < band is a close call: reason face_similarity_near_threshold (review). */
  nearThresholdBand: 0.14,
});

export interface FaceMatchInput {
  /** The portrait on the identity document (a crop of it, or the whole document side). */
  documentPortrait: Buffer;
  /** When given, `documentPortrait` is a photo of that document: its printed portrait is cut out first. */
  documentType?: DocumentType;
  /** The liveness check's reference image (the selfie). */
  referenceImage: Buffer;
  /** Tenant threshold on similarity, in [0,1]. */
  threshold?: number;
  nearThresholdBand?: number;
}

/** 'success' when both pictures show a face and were compared. */
export type FaceMatchStatus = 'success' | 'no_face_document' | 'no_face_selfie';

/**
 * face_match: same person, clear of the band · face_similarity_near_threshold: within the band on
 * either side (the decision sends it to review, interface §3.2) · face_mismatch: below the band ·
 * face_not_detected: one picture shows no face (status says which).
 */
export type FaceMatchReason =
  | 'face_match'
  | 'face_similarity_near_threshold'
  | 'face_mismatch'
  | 'face_not_detected';

export interface FaceSide {
  detectionScore: number;
  faceCount: number;
  box: FaceBox;
  /** The portrait's apparent sex, which the document check compares with the printed one. */
  apparentSex?: ApparentSex;
}

export interface FaceMatchResult {
  // interface §2.9 faceMatch
  similarity: number;
  isSamePerson: boolean;
  status: FaceMatchStatus;
  reason: FaceMatchReason;
  // provenance and the numbers behind the result, so a reviewer can see why it scored as it did
  provider: typeof PROVIDER;
  model: string;
  version: string;
  /** Euclidean distance of the two unit-length 512-d embeddings (0–2); null when a face is missing. */
  distance: number | null;
  threshold: number;
  nearThresholdBand: number;
  calibration: SimilarityCalibration;
  document: FaceSide | null;
  selfie: FaceSide | null;
  /** Whether the document's face came from the portrait crop or the whole photo. */
  documentFaceSource: DocumentPortraitSource | null;
}

/** Which of the check's two pictures: the document's portrait or the live check's reference. */
export type FacePicture = 'documentPortrait' | 'referenceImage';

/** A picture could not be decoded. Permanent: retrying the job will not help. */
export class FaceMatchImageError extends Error {
  readonly code = 'face_image_unreadable';
  readonly isPermanent = true;
  override readonly name = 'FaceMatchImageError';
  constructor(
    readonly input: FacePicture,
    cause: FaceImageError,
  ) {
    super(`faceMatch: ${input} is not a readable image (${cause.message})`, { cause });
  }
}

// The check's version is declared with it in the registry (definition.ts).
const VERSION = faceMatchDefinition.version;

function checkUnitInterval(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0 && value <= 1))
    throw new RangeError(`${name} must be in [0,1], got ${value}`);
  return value;
}

/** computeFaceDescriptor, with an unreadable picture reported as the check's input that it was. */
export async function describeFace(image: Buffer, input: FacePicture): Promise<FaceDescription | null> {
  try {
    // The portrait's apparent sex is a document cue; the selfie's has no use, so it is not inferred.
    return await computeFaceDescriptor(image, {}, { apparentSex: input === 'documentPortrait' });
  } catch (error) {
    if (error instanceof FaceImageError) throw new FaceMatchImageError(input, error);
    throw error;
  }
}

const side = (d: FaceDescription | null): FaceSide | null =>
  d && {
    detectionScore: d.detectionScore,
    faceCount: d.faceCount,
    box: d.box,
    ...(d.apparentSex ? { apparentSex: d.apparentSex } : {}),
  };

export function reasonFor(similarity: number, threshold: number, band: number): FaceMatchReason {
  if (Math.abs(similarity - threshold) < band) return 'face_similarity_near_threshold';
  return similarity >= threshold ? 'face_match' : 'face_mismatch';
}

export interface FaceMatchDescriptions {
  document: FaceDescription | null;
  selfie: FaceDescription | null;
  faceApiVersion: string;
  documentFaceSource?: DocumentPortraitSource;
  threshold?: number;
  nearThresholdBand?: number;
}

/**
 * The result from two descriptions already computed: lets a pipeline describe the document
 * portrait and the selfie in two worker threads at once (one wasm thread per worker), then
 * decide here. `faceMatchCheck.run` is this after describing both pictures in turn.
 */
export function decideFaceMatch(input: FaceMatchDescriptions): FaceMatchResult {
  const threshold = checkUnitInterval('threshold', input.threshold ?? FACE_MATCH_DEFAULTS.threshold);
  const nearThresholdBand = checkUnitInterval(
    'nearThresholdBand',
    input.nearThresholdBand ?? FACE_MATCH_DEFAULTS.nearThresholdBand,
  );
  const { document, selfie } = input;
  const common: Omit<FaceMatchResult, 'similarity' | 'isSamePerson' | 'status' | 'reason' | 'distance'> = {
    provider: PROVIDER,
    model: `@vladmandic/face-api@${input.faceApiVersion} ${FACE_NETS} + ${FACE_EMBEDDING_MODEL}`,
    version: VERSION,
    threshold,
    nearThresholdBand,
    calibration: FACE_SIMILARITY_CALIBRATION,
    document: side(document),
    selfie: side(selfie),
    documentFaceSource: input.documentFaceSource ?? null,
  };
  if (!document || !selfie) {
    return {
      ...common,
      similarity: 0,
      isSamePerson: false,
      status: document ? 'no_face_selfie' : 'no_face_document',
      reason: 'face_not_detected',
      distance: null,
    };
  }
  const distance = faceDescriptorDistance(document.descriptor, selfie.descriptor);
  const similarity = similarityFromDistance(distance);
  return {
    ...common,
    similarity,
    isSamePerson: similarity >= threshold,
    status: 'success',
    reason: reasonFor(similarity, threshold, nearThresholdBand),
    distance,
  };
}

export const faceMatchCheck: Check<FaceMatchInput, FaceMatchResult> = {
  id: faceMatchDefinition.id,
  version: VERSION,
  async run(input) {
    // Validate the tenant's numbers before spending inference on the pictures.
    checkUnitInterval('threshold', input.threshold ?? FACE_MATCH_DEFAULTS.threshold);
    checkUnitInterval('nearThresholdBand', input.nearThresholdBand ?? FACE_MATCH_DEFAULTS.nearThresholdBand);
    const { version: faceApiVersion } = await loadFaceApi();
    const { face: document, portrait } = await describeDocumentFace(
      input.documentPortrait,
      input.documentType ?? null,
      (image) => describeFace(image, 'documentPortrait'),
    );
    const selfie = await describeFace(input.referenceImage, 'referenceImage');
    const { documentPortrait: _, ...numbers } = input;
    return decideFaceMatch({
      ...numbers,
      document,
      selfie,
      faceApiVersion,
      ...(input.documentType ? { documentFaceSource: portrait } : {}),
    });
  },
};
