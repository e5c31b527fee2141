// The automatic decision (interface §3.2; docs/decisions.md "Reason codes"): a pure function of the check
// results and the thresholds, so every rule is tested without a database and a stored decision can
// be recomputed from its stored inputs. Rejections are looked for first, then reasons for review;
// only when nothing is found is the verification approved. Review reasons, in order: document type
// mismatch, suspected spoofs, low OCR confidence (a poor capture, which also lowers the face
// similarity and breeds field mismatches; also a capture the document check could not judge,
// or judged without its expiry date),
// face not found / near the threshold, blacklist, fraud, pre-registered info and user input
// mismatches — interface §3.2 lists low OCR confidence first.
// On a capture too poor to read, a low face similarity is not taken as a different person, nor is
// user input that differs only in fields the OCR read below the OCR threshold a user's mistake.

import { type CheckId, NO_VERDICT } from '../checks/index.ts';
import type {
  DecisionMetadata,
  DecisionReasonCode,
  DecisionStatus,
  InjectionSignal,
} from '../domain/index.ts';
import { type DecisionThresholds, riskRank } from './thresholds.ts';

/** A stored result as the decision sees it: absent (never ran), unavailable (no implementation) or there. */
export type CheckOutcome<T> = { status: 'success'; result: T } | { status: 'unavailable'; detail: string };

export interface SpoofOutcome {
  /** success, or insufficient_quality: the check could not judge the capture (no verdict). */
  status?: string;
  risk?: string;
  score?: number;
  confidence?: number;
  /** The document check's measurements (stored extras): what its verdict did not cover. */
  measurements?: { notJudged?: readonly string[] };
}

type OcrFieldConfidences = Partial<Record<'name' | 'birthDate' | 'address', { confidence: number }>>;

/**
 * What decide reads of each check's stored result (the §2.9 object with the check's extras). A
 * registered check not named here reaches decide as an opaque outcome (CheckOutcomes).
 */
interface DecisionReads {
  ocr: {
    confidence?: number;
    status?: string;
    detectedDocumentType?: string;
    detectedDocumentTypeConfidence?: number;
    unsupportedDocumentType?: string;
    documentTypeMismatch?: boolean;
    /** Where the document was found in the front photo (the OCR check's extras); absent when none was. */
    frontOutline?: unknown;
    /** Per-field confidences (the OCR check's extras). */
    fields?: OcrFieldConfidences;
  };
  documentSpoofCheck: SpoofOutcome;
  /** injectionSignals: the check's extras (selfie-spoof.check.ts), codes of liveness/injection-signals.ts. */
  selfieSpoofCheck: SpoofOutcome & { injectionSignals?: InjectionSignal[] };
  faceMatch: {
    similarity: number;
    status: string;
    /** Stored with the result (document-portrait.ts): how much of the front photo the face spans. */
    documentFaceSource?: { faceWidthShare?: number | null } | null;
  };
  fraudSignalAnalysis: {
    riskScore: number;
    signals: { type?: string; severity?: string; message?: string; code?: string }[];
    documentExpired?: boolean;
    /** Extension point: filled once tenant blacklists exist (src/checks/fraud-signals/blacklist.ts). */
    blacklist?: {
      matches: { id: string; matchMode: string; action: string }[];
      action: 'reject' | 'review' | null;
      checkedAt: string;
    } | null;
  };
}

type ReadCheckId = CheckId & keyof DecisionReads;

type Blacklist = NonNullable<DecisionReads['fraudSignalAnalysis']['blacklist']>;

/** The tenant blacklist's matches as decision metadata (both methods' rules name them alike). */
function blacklistMetadata(blacklist: Blacklist | null | undefined): DecisionMetadata {
  if (!blacklist) return {};
  return {
    blacklistMatches: blacklist.matches.map((m) => ({ id: m.id, matchMode: m.matchMode, action: m.action })),
    ...(blacklist.action ? { blacklistAction: blacklist.action } : {}),
    blacklistCheckedAt: blacklist.checkedAt,
  };
}

/**
 * One outcome per check of the registry (src/checks/check-registry.ts), keyed by its id; those
 * decide has no rule for are passed too, but may be left out (decide reads none of them).
 */
export type CheckOutcomes = { [Id in ReadCheckId]: CheckOutcome<DecisionReads[Id]> } & {
  [Id in Exclude<CheckId, ReadCheckId>]?: CheckOutcome<Record<string, unknown>>;
};

export interface DecisionInput extends CheckOutcomes {
  /** Photographs of a document (absent: image, as every session before the chip). */
  method?: 'image';
  liveness: { status: 'success' | 'failed' | null; confidence: number | null };
  expectedDocumentType: string | null;
  /** Per-field comparison of preRegisteredInfo with OCR; null when there was nothing to compare. */
  preRegisteredInfoMatch: { fields: Record<string, boolean>; mismatchedFields: string[] } | null;
  /** Per-field comparison of the user's input with OCR; null when there was nothing to compare. */
  userInputMatch: { fields: Record<string, boolean>; mismatchedFields: string[] } | null;
}

/** What decide reads of results.icChip (src/checks/ic-chip; docs/ic-chip.md). */
export interface ChipOutcome {
  verified?: boolean;
  reasons?: string[];
  documentExpired?: boolean;
}

/**
 * A session verified by its IC chip: the chip's own checks instead of the image checks, which do
 * not apply (no OCR, no document spoof check: the chip's signatures vouch for its data, and a clone
 * fails Active Authentication). The live face, the face match (the chip's DG2 against the selfie)
 * and the fraud signals are the same checks as for images.
 */
export interface ChipDecisionInput {
  method: 'ic_chip';
  icChip: CheckOutcome<ChipOutcome>;
  selfieSpoofCheck: CheckOutcome<DecisionReads['selfieSpoofCheck']>;
  faceMatch: CheckOutcome<DecisionReads['faceMatch']>;
  fraudSignalAnalysis: CheckOutcome<DecisionReads['fraudSignalAnalysis']>;
  liveness: DecisionInput['liveness'];
  preRegisteredInfoMatch: DecisionInput['preRegisteredInfoMatch'];
  userInputMatch: DecisionInput['userInputMatch'];
}

/**
 * The chip's failures that reject, in this order: the data are not the issuer's (signature, chain,
 * a data group's hash), or the chip is not the one they were written to (Active Authentication).
 */
const CHIP_REJECTIONS = [
  'chip_signature_invalid',
  'chip_chain_untrusted',
  'chip_data_group_hash_mismatch',
  'chip_clone_suspected',
] as const satisfies readonly DecisionReasonCode[];
/**
 * Those that go to a human: nothing shows a forgery, but something is not verified — a chip
 * without Active Authentication (many use Chip Authentication instead, not implemented yet), a
 * data group the verification needs not read (DG1), an MRZ whose check digits fail although signed.
 */
const CHIP_REVIEWS = [
  'chip_anti_clone_unavailable',
  'chip_data_group_missing',
  'chip_mrz_invalid',
] as const satisfies readonly DecisionReasonCode[];

const CHIP_DETAIL: Record<(typeof CHIP_REJECTIONS | typeof CHIP_REVIEWS)[number], string> = {
  chip_signature_invalid: "the chip's security object is not signed by its Document Signer",
  chip_chain_untrusted: "the chip's Document Signer does not chain to a trusted CSCA",
  chip_data_group_hash_mismatch: 'a data group read from the chip differs from what its issuer signed',
  chip_clone_suspected: "the chip did not sign this session's nonce with the document's own key",
  chip_anti_clone_unavailable: 'the chip offers no Active Authentication: a clone cannot be ruled out',
  chip_data_group_missing: 'a data group the verification needs (DG1, the MRZ) was not read from the chip',
  chip_mrz_invalid: "the chip's MRZ check digits do not hold",
};

export interface Decision {
  status: DecisionStatus;
  reason: DecisionReasonCode;
  metadata: DecisionMetadata;
}

/**
 * A face this wide a share of the front photo is a face photo, not a printed portrait. Measured on
 * 120 accuracy-corpus bundles: printed portraits span 0.13–0.27 of the photo, selfies 0.65–1. Of
 * the 750 corpus fronts, three had whole-photo faces 0.51–0.86 wide (discarded); the one above the
 * line was on a passport the OCR read, so the rule did not apply (docs/face-match.md "A face photo
 * as the document").
 */
const FACE_PHOTO_SHARE = 0.55;

/**
 * A face at most this wide a share of the front photo is the size of a printed portrait (0.13–0.27
 * on those 120 bundles). Where the OCR found no document at all, such a face says one is there and
 * the outline search missed it: on the 750 corpus fronts, a genuine My Number card washed out by
 * glare (0.17), a poor screen replay and a poor photocopy (0.15, 0.12), two clean or typical
 * screen replays (0.17, 0.18; the document check rejects those).
 */
const PRINTED_PORTRAIT_SHARE = 0.35;

const round = (n: number) => Math.round(n * 10000) / 10000;

/** The compared identity fields whose OCR reading's own confidence is below the threshold. */
function unsureFields(fields: OcrFieldConfidences | undefined, threshold: number): string[] {
  const below = (f: 'name' | 'birthDate' | 'address') => (fields?.[f]?.confidence ?? 1) < threshold;
  return [
    ...(below('name') ? ['lastName', 'firstName'] : []),
    ...(below('birthDate') ? ['birthDate'] : []),
    ...(below('address') ? ['address'] : []),
  ];
}

export function decide(input: DecisionInput | ChipDecisionInput, t: DecisionThresholds): Decision {
  if (input.method === 'ic_chip') return decideChip(input, t);
  const reject = (reason: DecisionReasonCode, metadata: DecisionMetadata): Decision => ({
    status: 'rejected',
    reason,
    metadata,
  });
  const review = (reason: DecisionReasonCode, metadata: DecisionMetadata): Decision => ({
    status: 'pending_review',
    reason,
    metadata,
  });
  const {
    ocr,
    faceMatch,
    documentSpoofCheck: doc,
    selfieSpoofCheck: selfie,
    fraudSignalAnalysis: fraud,
  } = input;
  const similarity = faceMatch.status === 'success' ? round(faceMatch.result.similarity) : undefined;
  const fraudMeta = (): DecisionMetadata =>
    fraud.status === 'success' ? { riskScore: fraud.result.riskScore, signals: fraud.result.signals } : {};

  // ── Rejections (interface §3.2: different person, high spoof risk, several fraud signals) ──
  if (input.liveness.status !== 'success') {
    return reject('liveness_failed', {
      ...(input.liveness.confidence !== null ? { livenessConfidence: input.liveness.confidence } : {}),
      selfieStatus: input.liveness.status ?? 'not_done',
    });
  }
  // A photo of a face, not of a document (a selfie sent as the front): no document type was read
  // and the face spans more of the photo than a printed portrait can.
  const faceShare =
    faceMatch.status === 'success' ? faceMatch.result.documentFaceSource?.faceWidthShare : null;
  const isFacePhoto =
    ocr.status === 'success' && !ocr.result.detectedDocumentType && (faceShare ?? 0) >= FACE_PHOTO_SHARE;
  // No document found in the photo, yet a face the size of a printed portrait: a document the
  // outline search missed (glare over its edge), not something else entirely. It goes to review as
  // a poor capture (low_ocr_confidence below) unless a rule before that rejects it.
  const missedDocument =
    ocr.status === 'success' &&
    !ocr.result.frontOutline &&
    faceShare != null &&
    faceShare <= PRINTED_PORTRAIT_SHARE;
  if (ocr.status === 'success' && ((ocr.result.unsupportedDocumentType && !missedDocument) || isFacePhoto)) {
    return reject('unsupported_document_type', {
      ...(input.expectedDocumentType ? { expectedDocumentType: input.expectedDocumentType } : {}),
      detectedDocumentType: ocr.result.unsupportedDocumentType ?? 'unknown',
      ...(ocr.result.unsupportedDocumentType
        ? {}
        : { detail: 'the front image is a photo of a face, not an identity document' }),
    });
  }
  // An expired document is a plain fact: named as such even when the spoof check also counts it.
  if (fraud.status === 'success' && fraud.result.documentExpired) {
    return reject('document_expired', { detail: 'the document is past its expiry date' });
  }
  if (doc.status === 'success' && riskRank(doc.result.risk) >= riskRank(t.spoofRejectRisk)) {
    return reject('document_spoof_detected', spoofMeta(doc.result, 'documentSpoofCheckRisk'));
  }
  if (selfie.status === 'success' && riskRank(selfie.result.risk) >= riskRank(t.spoofRejectRisk)) {
    return reject('selfie_spoof_detected', spoofMeta(selfie.result, 'selfieStatus'));
  }
  // A capture too poor to read also blurs the printed portrait: a low similarity measured on it
  // does not show a different person (a genuine blurred card measured 0.37), so it goes to review
  // as low_ocr_confidence below instead of being rejected.
  const poorCapture =
    ocr.status === 'success' &&
    (ocr.result.status === 'low_confidence' || (ocr.result.confidence ?? 0) < t.ocrConfidenceThreshold);
  if (
    faceMatch.status === 'success' &&
    faceMatch.result.status === 'success' &&
    similarity !== undefined &&
    !poorCapture &&
    similarity < t.faceSimilarityThreshold - t.faceNearThresholdBand
  ) {
    // interface §6.2 rule 4: face_mismatch carries faceMatchSimilarity and threshold.
    return reject('face_mismatch', { faceMatchSimilarity: similarity, threshold: t.faceSimilarityThreshold });
  }
  const blacklist = fraud.status === 'success' ? fraud.result.blacklist : null;
  // A tenant's own blacklist names the cause more precisely than the risk score it also raises.
  if (blacklist?.action === 'reject') return reject('blacklist_match', blacklistMetadata(blacklist));
  if (fraud.status === 'success' && fraud.result.riskScore >= t.fraudRejectScore) {
    return reject('fraud_detected', { ...fraudMeta(), fraudScore: fraud.result.riskScore });
  }

  // ── Review (low OCR confidence, spoof risk, near threshold, suspected fraud, mismatches) ──
  if (ocr.status === 'success' && ocr.result.documentTypeMismatch) {
    return review('document_type_mismatch', {
      ...(input.expectedDocumentType ? { expectedDocumentType: input.expectedDocumentType } : {}),
      ...(ocr.result.detectedDocumentType ? { detectedDocumentType: ocr.result.detectedDocumentType } : {}),
      ...(ocr.result.detectedDocumentTypeConfidence !== undefined
        ? { detectedDocumentTypeConfidence: ocr.result.detectedDocumentTypeConfidence }
        : {}),
    });
  }
  if (doc.status === 'success' && riskRank(doc.result.risk) >= riskRank(t.spoofReviewRisk)) {
    return review('document_spoof_suspected', spoofMeta(doc.result, 'documentSpoofCheckRisk'));
  }
  if (selfie.status === 'success' && riskRank(selfie.result.risk) >= riskRank(t.spoofReviewRisk)) {
    // A face stream that may not come from a camera is named as such: the reviewer looks for
    // different things (the camera, the colour light) than for a printed or replayed face.
    const injectionSignals = selfie.result.injectionSignals ?? [];
    if (injectionSignals.length > 0) {
      return review('face_injection_suspected', {
        ...spoofMeta(selfie.result, 'selfieStatus'),
        injectionSignals,
      });
    }
    return review('selfie_spoof_suspected', spoofMeta(selfie.result, 'selfieStatus'));
  }
  // A check without an implementation yet is never counted as passed: its risk is unknown, so the
  // verification goes to a human with the reason of the risk it stands for (documentStatus /
  // selfieStatus 'unavailable' says why).
  if (doc.status === 'unavailable') {
    return review('document_spoof_suspected', { documentStatus: 'unavailable', detail: doc.detail });
  }
  if (selfie.status === 'unavailable') {
    return review('selfie_spoof_suspected', { selfieStatus: 'unavailable', detail: selfie.detail });
  }
  const ocrConfidence = ocr.status === 'success' ? round(ocr.result.confidence ?? 0) : undefined;
  // A poor capture before the face and fraud rules: it also spoils the document portrait (a lower
  // similarity) and the identity fields (mismatches), so low OCR confidence names the cause, and
  // the remedy (a better photo). The document-type and spoof rules come first: what they flag is
  // not explained by a blurred photo, and a reviewer must see it.
  // The same when the document check could not judge the capture (too blurred for its print
  // cues; an expiry date, MRZ or check digit the OCR could not read reliably): nothing vouches for
  // the document, and the remedy is the same.
  const unjudged = doc.status === 'success' && doc.result.status === NO_VERDICT.status;
  if (
    ocr.status === 'unavailable' ||
    ocr.result.status === 'low_confidence' ||
    (ocrConfidence ?? 0) < t.ocrConfidenceThreshold ||
    unjudged
  ) {
    // interface §6.2 rule 4: low_ocr_confidence carries ocrConfidence.
    return review('low_ocr_confidence', {
      ocrConfidence: ocrConfidence ?? 0,
      ...(ocr.status === 'unavailable' ? { detail: ocr.detail } : {}),
      ...(unjudged ? { documentStatus: NO_VERDICT.status } : {}),
    });
  }
  // A verdict that did not cover the expiry (not read, or read unsurely) says nothing of validity:
  // a document that may have expired is never approved. A poor capture went to review above; a
  // confident reading that lacks only the date goes there too, for a better photo or a reviewer.
  if (doc.status === 'success' && doc.result.measurements?.notJudged?.includes('expiryDate')) {
    return review('low_ocr_confidence', {
      ocrConfidence: ocrConfidence ?? 0,
      detail: 'the expiry date was not read: nothing shows the document is still valid',
    });
  }
  if (faceMatch.status === 'success' && faceMatch.result.status !== 'success') {
    // No face found on one side: nobody can say it is the same person; a human looks.
    return review('face_mismatch', {
      faceMatchSimilarity: similarity ?? 0,
      threshold: t.faceSimilarityThreshold,
      detail: faceMatch.result.status,
    });
  }
  if (faceMatch.status === 'success' && similarity !== undefined) {
    if (Math.abs(similarity - t.faceSimilarityThreshold) < t.faceNearThresholdBand) {
      return review('face_similarity_near_threshold', {
        faceMatchSimilarity: similarity,
        similarity,
        threshold: t.faceSimilarityThreshold,
      });
    }
  }
  if (blacklist?.action === 'review') return review('blacklist_match', blacklistMetadata(blacklist));
  if (fraud.status === 'success' && fraud.result.riskScore >= t.fraudReviewScore) {
    return review('fraud_suspected', { ...fraudMeta(), fraudScore: fraud.result.riskScore });
  }
  if (fraud.status === 'unavailable') return review('fraud_suspected', { detail: fraud.detail });
  if (faceMatch.status === 'unavailable') {
    return review('face_similarity_near_threshold', {
      detail: faceMatch.detail,
      threshold: t.faceSimilarityThreshold,
    });
  }
  if (input.preRegisteredInfoMatch && input.preRegisteredInfoMatch.mismatchedFields.length > 0) {
    return review('pre_registered_info_mismatch', {
      mismatchedFields: input.preRegisteredInfoMatch.mismatchedFields,
      preRegisteredInfoMatch: input.preRegisteredInfoMatch.fields,
    });
  }
  if (input.userInputMatch && input.userInputMatch.mismatchedFields.length > 0) {
    // What the user typed against values the OCR itself was unsure of (a poor capture's address
    // read 0.67 with 東京都寺代田区…): the reading, not the user, is the likelier cause, and the
    // remedy is a better photo.
    const unsure = ocr.status === 'success' ? unsureFields(ocr.result.fields, t.ocrConfidenceThreshold) : [];
    if (input.userInputMatch.mismatchedFields.every((f) => unsure.includes(f))) {
      return review('low_ocr_confidence', {
        ocrConfidence: ocrConfidence ?? 0,
        mismatchedFields: input.userInputMatch.mismatchedFields,
        userInputMatch: false,
      });
    }
    return review('user_input_mismatch', {
      mismatchedFields: input.userInputMatch.mismatchedFields,
      userInputMatch: false,
    });
  }

  // A date that says the document has expired, read too unsurely to reject on (the fraud check's
  // low "may have expired" signal), still never approves: a reviewer looks at the date.
  if (fraud.status === 'success' && fraud.result.signals.some((s) => s.code === 'document_expired')) {
    return review('document_expired', {
      ...fraudMeta(),
      detail: 'the document may be past its expiry date (a date not read reliably)',
    });
  }

  // interface §6.2 rule 4: approved carries faceMatchSimilarity, livenessConfidence,
  // documentSpoofRisk and ocrConfidence.
  return {
    status: 'approved',
    reason: 'all_checks_passed',
    metadata: {
      faceMatchSimilarity: similarity ?? 0,
      livenessConfidence: input.liveness.confidence ?? 0,
      documentSpoofRisk: doc.status === 'success' ? (doc.result.risk ?? 'low') : 'unknown',
      ocrConfidence: ocrConfidence ?? 0,
    },
  };
}

function spoofMeta(
  result: SpoofOutcome,
  riskField: 'documentSpoofCheckRisk' | 'selfieStatus',
): DecisionMetadata {
  return {
    ...(result.risk ? { [riskField]: result.risk } : {}),
    ...(result.risk && riskField === 'documentSpoofCheckRisk' ? { documentSpoofRisk: result.risk } : {}),
    ...(result.score !== undefined ? { score: result.score } : {}),
    ...(result.confidence !== undefined ? { confidence: result.confidence } : {}),
  };
}

/** The decision of a chip session (ChipDecisionInput): rejections first, then reasons for review. */
function decideChip(input: ChipDecisionInput, t: DecisionThresholds): Decision {
  const chipMeta = { verificationMethod: 'ic_chip' } as const;
  const reject = (reason: DecisionReasonCode, metadata: DecisionMetadata = {}): Decision => ({
    status: 'rejected',
    reason,
    metadata: { ...metadata, ...chipMeta },
  });
  const review = (reason: DecisionReasonCode, metadata: DecisionMetadata = {}): Decision => ({
    status: 'pending_review',
    reason,
    metadata: { ...metadata, ...chipMeta },
  });
  const { icChip: chip, faceMatch, selfieSpoofCheck: selfie, fraudSignalAnalysis: fraud } = input;
  const similarity = faceMatch.status === 'success' ? round(faceMatch.result.similarity) : undefined;
  const fraudMeta = (): DecisionMetadata =>
    fraud.status === 'success' ? { riskScore: fraud.result.riskScore, signals: fraud.result.signals } : {};
  const reasons = chip.status === 'success' ? (chip.result.reasons ?? []) : [];

  if (input.liveness.status !== 'success') {
    return reject('liveness_failed', {
      ...(input.liveness.confidence !== null ? { livenessConfidence: input.liveness.confidence } : {}),
      selfieStatus: input.liveness.status ?? 'not_done',
    });
  }
  // Never counted as verified without its result.
  if (chip.status === 'unavailable') {
    return review('chip_anti_clone_unavailable', {
      detail: `the chip reading was not verified: ${chip.detail}`,
    });
  }
  for (const reason of CHIP_REJECTIONS) {
    if (reasons.includes(reason)) return reject(reason, { detail: CHIP_DETAIL[reason] });
  }
  if (chip.result.documentExpired) {
    return reject('document_expired', { detail: "the document is past the expiry date in its chip's MRZ" });
  }
  if (selfie.status === 'success' && riskRank(selfie.result.risk) >= riskRank(t.spoofRejectRisk)) {
    return reject('selfie_spoof_detected', spoofMeta(selfie.result, 'selfieStatus'));
  }
  // The chip's photo is the issuer's own, unblurred: a low similarity is a different person.
  if (
    faceMatch.status === 'success' &&
    faceMatch.result.status === 'success' &&
    similarity !== undefined &&
    similarity < t.faceSimilarityThreshold - t.faceNearThresholdBand
  ) {
    return reject('face_mismatch', { faceMatchSimilarity: similarity, threshold: t.faceSimilarityThreshold });
  }
  const blacklist = fraud.status === 'success' ? fraud.result.blacklist : null;
  if (blacklist?.action === 'reject') return reject('blacklist_match', blacklistMetadata(blacklist));
  if (fraud.status === 'success' && fraud.result.riskScore >= t.fraudRejectScore) {
    return reject('fraud_detected', { ...fraudMeta(), fraudScore: fraud.result.riskScore });
  }

  for (const reason of CHIP_REVIEWS) {
    if (reasons.includes(reason)) return review(reason, { detail: CHIP_DETAIL[reason] });
  }
  // Any other failure the chip check reports is not taken as verified either.
  if (!chip.result.verified) {
    return review('chip_anti_clone_unavailable', {
      detail: `not verified: ${reasons.join(', ') || 'unknown'}`,
    });
  }
  if (selfie.status === 'success' && riskRank(selfie.result.risk) >= riskRank(t.spoofReviewRisk)) {
    return review('selfie_spoof_suspected', spoofMeta(selfie.result, 'selfieStatus'));
  }
  if (selfie.status === 'unavailable') {
    return review('selfie_spoof_suspected', { selfieStatus: 'unavailable', detail: selfie.detail });
  }
  if (faceMatch.status === 'unavailable') {
    return review('face_similarity_near_threshold', {
      detail: faceMatch.detail,
      threshold: t.faceSimilarityThreshold,
    });
  }
  if (faceMatch.result.status !== 'success') {
    return review('face_mismatch', {
      faceMatchSimilarity: similarity ?? 0,
      threshold: t.faceSimilarityThreshold,
      detail: faceMatch.result.status,
    });
  }
  if (
    similarity !== undefined &&
    Math.abs(similarity - t.faceSimilarityThreshold) < t.faceNearThresholdBand
  ) {
    return review('face_similarity_near_threshold', {
      faceMatchSimilarity: similarity,
      similarity,
      threshold: t.faceSimilarityThreshold,
    });
  }
  if (blacklist?.action === 'review') return review('blacklist_match', blacklistMetadata(blacklist));
  if (fraud.status === 'success' && fraud.result.riskScore >= t.fraudReviewScore) {
    return review('fraud_suspected', { ...fraudMeta(), fraudScore: fraud.result.riskScore });
  }
  if (fraud.status === 'unavailable') return review('fraud_suspected', { detail: fraud.detail });
  if (input.preRegisteredInfoMatch && input.preRegisteredInfoMatch.mismatchedFields.length > 0) {
    return review('pre_registered_info_mismatch', {
      mismatchedFields: input.preRegisteredInfoMatch.mismatchedFields,
      preRegisteredInfoMatch: input.preRegisteredInfoMatch.fields,
    });
  }
  // The chip's fields are exact: a difference is the user's, never a misreading.
  if (input.userInputMatch && input.userInputMatch.mismatchedFields.length > 0) {
    return review('user_input_mismatch', {
      mismatchedFields: input.userInputMatch.mismatchedFields,
      userInputMatch: false,
    });
  }
  if (fraud.status === 'success' && fraud.result.signals.some((s) => s.code === 'document_expired')) {
    return review('document_expired', { ...fraudMeta(), detail: 'the document may be past its expiry date' });
  }
  // No documentSpoofRisk nor ocrConfidence: those checks did not run on a chip session.
  return {
    status: 'approved',
    reason: 'all_checks_passed',
    metadata: {
      faceMatchSimilarity: similarity ?? 0,
      livenessConfidence: input.liveness.confidence ?? 0,
      ...chipMeta,
    },
  };
}
