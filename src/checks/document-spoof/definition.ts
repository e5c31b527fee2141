// The documentSpoofCheck as the registry declares it (../check-registry.ts); its version history is
// in document-spoof.check.ts.
import { SpoofCheckSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

export const documentSpoofDefinition = defineCheck({
  id: 'documentSpoofCheck',
  version: '0.18.0',
  inputs: ['documentImages', 'documentType'],
  // The OCR's facts (expiry, check digits, MRZ) and the portrait's apparent sex (faceMatch).
  waitsFor: ['ocr', 'faceMatch'],
  resultSchema: SpoofCheckSchema,
  runsIn: 'thread',
  methods: ['image'],
});
