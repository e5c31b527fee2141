// The reason codes a reviewer picks from (docs/console-api.md "Preset reasons"), beside the
// mandatory free text, and which decision each goes with. Pure data: the console's browser app
// imports it too.
import { REVIEW_REASON_CODES, type ReviewDecision, type ReviewReasonCode } from '../domain/index.ts';

export const REASON_CODES = REVIEW_REASON_CODES;
export type ReasonCode = ReviewReasonCode;

/** The reasons an approval can give; `other` fits both decisions. */
const APPROVING: ReadonlySet<ReasonCode> = new Set([
  'documents_verified_manually',
  'face_confirmed_manually',
  'data_mismatch_explained',
  'other',
]);

/** Whether a reason code can explain this decision (an approval "because the face does not match" cannot). */
export function reasonFitsDecision(code: ReasonCode, decision: ReviewDecision): boolean {
  return code === 'other' || APPROVING.has(code) === (decision === 'approved');
}

/** The reason codes of one decision, in the list's order. */
export function reasonCodesFor(decision: ReviewDecision): ReasonCode[] {
  return REASON_CODES.filter((code) => reasonFitsDecision(code, decision));
}

/**
 * Codes of the first console list, as stored in reviews made before the list above: read as
 * their successors, so an old review shows and reports a code of today's list.
 */
const FORMER_CODES: Readonly<Record<string, ReasonCode>> = {
  document_not_genuine: 'document_suspicious',
  face_does_not_match: 'face_mismatch',
  poor_image_quality: 'document_unreadable',
};

export function currentReasonCode(stored: string | null): ReasonCode | null {
  if (stored === null) return null;
  return (
    FORMER_CODES[stored] ??
    ((REASON_CODES as readonly string[]).includes(stored) ? (stored as ReasonCode) : 'other')
  );
}
