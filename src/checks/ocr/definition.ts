// The OCR check as the registry declares it (../check-registry.ts); its version history is in
// ocr.check.ts.
import { OcrResultSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

export const ocrDefinition = defineCheck({
  id: 'ocr',
  version: '2.4.0',
  inputs: ['documentImages', 'documentType'],
  waitsFor: [],
  resultSchema: OcrResultSchema,
  // The document's finding and warps in the inference threads; Tesseract in threads of its own.
  runsIn: 'thread',
  methods: ['image'],
});
