// The result objects of the checks (interface §2.6, §2.8, §2.9, §2.10) as TypeBox definitions: one
// source for the checks' types, the session detail, the webhook payload and the OpenAPI document.
// Closed (additionalProperties: false), as the webhook payload that embeds them. Each check's
// definition names its own (src/checks/*/definition.ts); the registry builds `results` from them.
import { type Static, Type } from '@sinclair/typebox';
import { closed, literalUnion, Timestamp } from './schema-parts.ts';
import { INJECTION_SIGNALS, REVIEW_REASON_CODES } from './vocabulary.ts';

/** Interface §2.10. */
export const SignalSchema = Type.Object(
  {
    type: Type.Optional(Type.String()),
    severity: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
  },
  { ...closed, title: 'Signal', description: 'API reference §2.10' },
);

/** preRegisteredInfoMatch in webhooks: a boolean per compared field (§2.7, §6.2). */
export const FieldMatchSchema = Type.Record(Type.String(), Type.Boolean(), {
  description: 'true/false per compared field (lastName, firstName, birthDate, address)',
});

const BlacklistMatchSchema = Type.Object(
  {
    id: Type.Optional(Type.String()),
    label: Type.Optional(Type.String()),
    matchMode: Type.Optional(Type.String()),
    action: Type.Optional(Type.String()),
    conditionCount: Type.Optional(Type.Number()),
  },
  closed,
);

/** decision.metadata, interface §2.8: every field optional; which appear depends on the decision. */
export const DecisionMetadataSchema = Type.Object(
  {
    faceMatchSimilarity: Type.Optional(Type.Number()),
    livenessConfidence: Type.Optional(Type.Number()),
    documentSpoofRisk: Type.Optional(Type.String()),
    ocrConfidence: Type.Optional(Type.Number()),
    threshold: Type.Optional(Type.Number()),
    blacklistAction: Type.Optional(Type.String()),
    blacklistMatches: Type.Optional(Type.Array(BlacklistMatchSchema)),
    blacklistCheckedAt: Type.Optional(Timestamp),
    detail: Type.Optional(Type.String()),
    confidence: Type.Optional(Type.Number()),
    documentStatus: Type.Optional(Type.String()),
    selfieStatus: Type.Optional(Type.String()),
    score: Type.Optional(Type.Number()),
    similarity: Type.Optional(Type.Number()),
    documentSpoofCheckRisk: Type.Optional(Type.String()),
    expectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentTypeConfidence: Type.Optional(Type.Number()),
    riskScore: Type.Optional(Type.Number()),
    signals: Type.Optional(Type.Array(SignalSchema)),
    fraudScore: Type.Optional(Type.Number()),
    mismatchedFields: Type.Optional(Type.Array(Type.String())),
    userInputMatch: Type.Optional(Type.Boolean()),
    preRegisteredInfoMatch: Type.Optional(FieldMatchSchema),
    injectionSignals: Type.Optional(
      Type.Array(
        literalUnion(INJECTION_SIGNALS, 'face_injection_suspected: the signs seen (docs/spoof-checks.md)'),
      ),
    ),
    verificationMethod: Type.Optional(
      Type.String({ description: "ic_chip when the person was verified by reading the document's IC chip" }),
    ),
    reviewReasonCode: Type.Optional(
      literalUnion(REVIEW_REASON_CODES, "After a review: the reviewer's reason code (review.reasonCode)"),
    ),
  },
  { ...closed, title: 'DecisionMetadata', description: 'API reference §2.8' },
);
export type DecisionMetadata = Static<typeof DecisionMetadataSchema>;

/** Interface §2.6, used as results.ocr. */
export const OcrResultSchema = Type.Object(
  {
    success: Type.Optional(Type.Boolean()),
    confidence: Type.Optional(Type.Number()),
    payload: Type.Optional(
      Type.Object(
        {
          lastName: Type.Optional(Type.String()),
          firstName: Type.Optional(Type.String()),
          birthDate: Type.Optional(Type.String()),
          address: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    reason: Type.Optional(Type.String()),
    status: Type.Optional(Type.String({ description: 'values seen: success, low_confidence' })),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    detectedDocumentType: Type.Optional(Type.String()),
    detectedDocumentTypeConfidence: Type.Optional(Type.Number()),
    unsupportedDocumentType: Type.Optional(Type.String()),
  },
  { ...closed, title: 'OcrResult', description: 'API reference §2.6' },
);

/** The spoof check object of interface §2.9 (documentSpoofCheck, selfieSpoofCheck). */
export const SpoofCheckSchema = Type.Object(
  {
    risk: Type.Optional(
      Type.String({ description: 'low, medium or high; unknown when the check gives no verdict' }),
    ),
    score: Type.Optional(Type.Number()),
    confidence: Type.Optional(Type.Number()),
    details: Type.Optional(Type.String()),
    status: Type.Optional(
      Type.String({
        description:
          'success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review)',
      }),
    ),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    isDisplayAttack: Type.Optional(Type.Boolean()),
    isForgedOrTampered: Type.Optional(Type.Boolean()),
  },
  { ...closed, title: 'SpoofCheck', description: 'API reference §2.9' },
);

export const FaceMatchSchema = Type.Object(
  {
    similarity: Type.Optional(Type.Number()),
    isSamePerson: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
  },
  { ...closed, title: 'FaceMatch', description: 'API reference §2.9' },
);

export const FraudSignalAnalysisSchema = Type.Object(
  {
    riskScore: Type.Optional(Type.Number()),
    signals: Type.Optional(Type.Array(SignalSchema)),
  },
  { ...closed, title: 'FraudSignalAnalysis', description: 'API reference §2.9' },
);

/**
 * results.icChip (an addition to interface §2.9, present only in a session verified by its IC chip,
 * docs/ic-chip.md): which method, what was verified — the SOD's signature, the Document Signer's
 * chain to a CSCA the operator trusts, each data group's hash, anti-clone, revocation (never
 * checked yet, and said so) — the reason codes of what failed, and the chip's own identity fields.
 */
export const IcChipSchema = Type.Object(
  {
    method: Type.Optional(Type.Literal('ic_chip')),
    documentKind: Type.Optional(Type.String({ description: 'icao_emrtd: an ICAO 9303 eMRTD (passport)' })),
    verified: Type.Optional(Type.Boolean({ description: 'every check below held' })),
    status: Type.Optional(
      Type.String({ description: 'success: the reading was verified (whatever the outcome)' }),
    ),
    checks: Type.Optional(
      Type.Object(
        {
          signature: Type.Boolean({ description: "EF.SOD's CMS signature by the Document Signer" }),
          chain: Type.Boolean({ description: "the Document Signer's certificate chains to a trusted CSCA" }),
          dataGroups: Type.Record(Type.String(), Type.Boolean(), {
            description: 'per data group read: its hash equals the one the SOD signs',
          }),
          antiClone: Type.String({
            description:
              "active_authentication (the chip signed this session's nonce), failed, or not_available",
          }),
          revocation: Type.String({ description: 'not_checked: no revocation source is configured' }),
        },
        closed,
      ),
    ),
    reasons: Type.Optional(
      Type.Array(Type.String(), { description: 'reason codes of the checks that failed' }),
    ),
    payload: Type.Optional(
      Type.Object(
        {
          lastName: Type.Optional(Type.String()),
          firstName: Type.Optional(Type.String()),
          birthDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
        },
        closed,
      ),
    ),
    documentExpired: Type.Optional(Type.Boolean()),
    faceFormat: Type.Optional(Type.String({ description: "DG2's image: jpeg or jpeg2000" })),
    provider: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
  },
  { ...closed, title: 'IcChip', description: 'IC-chip verification (docs/ic-chip.md)' },
);

/** Result objects of interface §2.9 as the checks produce them. */
export type OcrResult = Static<typeof OcrResultSchema>;
export type SpoofCheck = Static<typeof SpoofCheckSchema>;
export type FaceMatch = Static<typeof FaceMatchSchema>;
export type FraudSignalAnalysis = Static<typeof FraudSignalAnalysisSchema>;
export type IcChip = Static<typeof IcChipSchema>;
