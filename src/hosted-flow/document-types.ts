// The hosted flow's view of the document types (defined once in src/documents): which photos each
// needs, and which a tenant offers (settings.allowedDocumentTypes; by default all four).
import { DOCUMENT_DEFINITIONS, DOCUMENT_TYPES, type DocumentType } from '../documents/index.ts';

export { DOCUMENT_TYPES, type DocumentType };

/** Whether the type's definition has a back side (a type not defined is asked for both). */
export function hasBackSide(documentType: string): boolean {
  const type = DOCUMENT_TYPES.find((t) => t === documentType);
  return type ? DOCUMENT_DEFINITIONS[type].sides.includes('back') : true;
}

/**
 * The thickness capture shows a card's edge: the three cards are ID-1 plastic (0.76 mm); a
 * passport's data page is a page of a booklet, with no edge to see.
 */
export function hasCardEdge(documentType: string): boolean {
  return documentType !== 'passport';
}

/** The photos a document is taken in: its sides, and the card held tilted (the thickness capture). */
export type DocumentPhoto = 'front' | 'back' | 'tilted';

export function allowedDocumentTypes(tenantSettings: Record<string, unknown>): DocumentType[] {
  const configured = tenantSettings.allowedDocumentTypes;
  if (!Array.isArray(configured)) return [...DOCUMENT_TYPES];
  const allowed = DOCUMENT_TYPES.filter((t) => configured.includes(t));
  return allowed.length > 0 ? allowed : [...DOCUMENT_TYPES];
}

/** Blob keys: one folder per session, a random name per upload (a replaced image never collides). */
export const documentBlobKey = (sessionId: string, side: DocumentPhoto, nonce: string) =>
  `sessions/${sessionId}/document-${side}-${nonce}.jpg`;
/** Beside a document photo: the OCR passes its capture check made on it (inference/ocr-answers.ts). */
export const captureOcrBlobKey = (documentKey: string) => documentKey.replace(/\.jpg$/, '.capture-ocr.json');
export const livenessBlobKey = (sessionId: string, challengeId: string, name: string) =>
  `sessions/${sessionId}/liveness-${challengeId}-${name}.jpg`;
