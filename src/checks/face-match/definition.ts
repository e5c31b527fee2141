// The faceMatch check as the registry declares it (../check-registry.ts).
import { FaceMatchSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

// 1.3.1: documentFaceSource.faceWidthShare (the decision's face-photo rule); a whole-photo face far
// wider than the portrait region of the card found is discarded (document-portrait.ts).
// 2.0.0: the faces are described by the face embedding (fr_feature.onnx) instead of face-api's
// recognition net; the calibration is refitted (similarity-calibration.ts).
// 2.1.0: default threshold 0.58 and band 0.14, set from real photos (FACE_MATCH_DEFAULTS).
// 2.2.0: the portrait is cut where the issuer prints it (the My Number card's at the left).
// 2.3.0: in a session verified by its IC chip, the document's face is the chip's (DG2, JPEG or
// JPEG 2000), not a photographed portrait.
export const FACE_MATCH_VERSION = '2.3.0';

export const faceMatchDefinition = defineCheck({
  id: 'faceMatch',
  version: FACE_MATCH_VERSION,
  inputs: ['documentImages', 'documentType', 'referenceImage', 'thresholds', 'chipReading'],
  waitsFor: [],
  resultSchema: FaceMatchSchema,
  runsIn: 'thread',
  methods: ['image', 'ic_chip'],
});
