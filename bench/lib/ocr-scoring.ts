// Exact-match scoring of an OCR reading against the corpus truth, shared by the OCR and accuracy
// benches: name = last and first name both exact; the address ignores width and spacing only.
import type { OcrCheckResult } from '../../src/checks/ocr/ocr-result.ts';

export const squash = (s: string | undefined) => (s ?? '').normalize('NFKC').replace(/\s+/g, '');

export interface OcrTruth {
  lastName: string;
  firstName: string;
  birthDate: string;
  documentNumber: string;
  address: string;
}

export const OCR_FIELDS = ['name', 'birthDate', 'documentNumber', 'address'] as const;
export type OcrFieldScores = Record<(typeof OCR_FIELDS)[number], boolean>;

export function scoreOcrFields(truth: OcrTruth, read: OcrCheckResult): OcrFieldScores {
  const p = read.result.payload ?? {};
  return {
    name: p.lastName === truth.lastName && p.firstName === truth.firstName,
    birthDate: p.birthDate === truth.birthDate,
    documentNumber: read.extras.documentNumber === truth.documentNumber,
    address: squash(p.address) === squash(truth.address),
  };
}
