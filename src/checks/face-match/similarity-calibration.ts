// From descriptor distance to the similarity in [0,1] that results.faceMatch.similarity and
// decision.metadata.faceMatchSimilarity carry (interface §2.8, §2.9). The map and how its numbers
// were fitted are written down in docs/face-match.md; the bench refits them on every run.

import { median } from '../../platform/math/median.ts';
import { faceDescriptorDistance } from '../../platform/ml/face-api.ts';
import { equalErrorRate } from './roc.ts';

/**
 * similarity(d) = 1 / (1 + exp((d − midpoint) / scale)): 1 for identical descriptors, 0.5 at the
 * midpoint (the distance that separates genuine from impostor pairs best), falling off over `scale`.
 */
export interface SimilarityCalibration {
  midpoint: number;
  scale: number;
  /** Where the numbers come from, stored with each result so a similarity can be re-derived. */
  fittedOn: string;
}

/**
 * Fitted on the 40 face fixtures (80 genuine, 700 impostor pairs) with the face embedding
 * (face-embedding.ts; docs/face-match.md "The embedding" has the run and the corpus pairs it was
 * checked on). Distances are Euclidean between unit vectors (0–2). Change only with a new fit, and
 * bump the check's version.
 */
export const FACE_SIMILARITY_CALIBRATION: Readonly<SimilarityCalibration> = Object.freeze({
  midpoint: 1.18,
  scale: 0.1388,
  fittedOn: 'face fixtures 2026-11 (fr_feature embedding): 80 genuine / 700 impostor pairs',
});

export function similarityFromDistance(
  distance: number,
  calibration: SimilarityCalibration = FACE_SIMILARITY_CALIBRATION,
): number {
  if (!Number.isFinite(distance) || distance < 0)
    throw new RangeError(`invalid descriptor distance ${distance}`);
  return 1 / (1 + Math.exp((distance - calibration.midpoint) / calibration.scale));
}

/**
 * The similarity the face match reports for two descriptors (also the fraud and blacklist face
 * lookups). A descriptor stored by an earlier embedding (face-api's 128 values) cannot be compared
 * with a current one: such a pair has similarity 0, no evidence of the same face.
 */
export function faceSimilarity(
  a: Float32Array,
  b: Float32Array,
  calibration: SimilarityCalibration = FACE_SIMILARITY_CALIBRATION,
): number {
  if (a.length !== b.length) return 0;
  return similarityFromDistance(faceDescriptorDistance(a, b), calibration);
}

/** The inverse map: the distance at which the similarity equals `similarity` (0 < similarity < 1). */
export function distanceFromSimilarity(
  similarity: number,
  calibration: SimilarityCalibration = FACE_SIMILARITY_CALIBRATION,
): number {
  if (!(similarity > 0 && similarity < 1))
    throw new RangeError(`similarity must be in (0,1), got ${similarity}`);
  return calibration.midpoint + calibration.scale * Math.log(1 / similarity - 1);
}

/**
 * midpoint = the EER distance (the centre of the gap when genuine and impostor pairs separate);
 * scale = (impostor median − genuine median) / (2·ln 9): were the midpoint halfway between the
 * medians, they would map to similarities 0.9 and 0.1.
 */
export function fitSimilarityCalibration(
  genuine: readonly number[],
  impostor: readonly number[],
  fittedOn: string,
): SimilarityCalibration {
  const { threshold } = equalErrorRate(genuine, impostor);
  const spread = median(impostor) - median(genuine);
  if (!(spread > 0)) throw new Error('impostor pairs are not farther apart than genuine pairs');
  return { midpoint: threshold, scale: spread / (2 * Math.log(9)), fittedOn };
}
