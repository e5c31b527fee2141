// Request and response schemas of the review, session-search and blacklist routes
// (docs/console-api.md): one source for validation, types and the OpenAPI document.
import { type Static, Type } from '@sinclair/typebox';
import { SESSION_STATUSES, VERIFICATION_STATUSES } from '../domain/index.ts';
import { DOCUMENT_TYPES } from '../hosted-flow/index.ts';
import { BlacklistEntryId, ReviewId, TenantId } from '../platform/http/id-schemas.ts';
import { SessionIdParams } from '../sessions/index.ts';
import { REASON_CODES, reasonCodesFor } from './review-reasons.ts';

/** No C0/C1 control characters in free text (as the session endpoints). */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS, description });
const enumOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], description }));
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });
/** The `next` cursor of a session list. */
const Cursor = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description });

export const ReviewDecisionField = enumOf(['approved', 'rejected'] as const, "The reviewer's decision");
const Reason = Text(500, "The reviewer's reason; becomes decision.reason (API reference §6.2 rule 2)");
const ReasonCodeField = (description: string) => enumOf(REASON_CODES, description);
const REASON_CODE_HELP =
  'Sent as review.reasonCode and decision.metadata.reviewReasonCode. Approving: ' +
  `${reasonCodesFor('approved').join(', ')}; rejecting: ${reasonCodesFor('rejected').join(', ')} ` +
  '(new_capture_requested: the photos could not be judged, send the person a new session)';

export const ApiReviewBody = Type.Object(
  {
    decision: ReviewDecisionField,
    reasonCode: Type.Optional(
      ReasonCodeField(`The reason as a code; \`other\` when left out. ${REASON_CODE_HELP}`),
    ),
    reason: Reason,
    reviewedBy: Type.String({
      format: 'email',
      maxLength: 254,
      description: "The reviewer's e-mail address",
    }),
  },
  { additionalProperties: false },
);
export type ApiReviewBody = Static<typeof ApiReviewBody>;

export const ConsoleReviewBody = Type.Object(
  {
    decision: ReviewDecisionField,
    reasonCode: ReasonCodeField(`Preset reason. ${REASON_CODE_HELP}`),
    reason: Reason,
  },
  { additionalProperties: false },
);
export type ConsoleReviewBody = Static<typeof ConsoleReviewBody>;

export const TenantParams = Type.Object({ tenantId: TenantId });
export const TenantSessionParams = Type.Object({
  tenantId: TenantId,
  sessionId: SessionIdParams.properties.sessionId,
});
export const SessionImageParams = Type.Object({
  tenantId: TenantId,
  sessionId: SessionIdParams.properties.sessionId,
  name: Type.String({
    pattern: '^(front|back|liveness-reference|frame-[0-9]{1,2}|document-face|selfie-face)$',
  }),
});
export const ReviewIdParams = Type.Object({ tenantId: TenantId, reviewId: ReviewId });
export const BlacklistEntryParams = Type.Object({ tenantId: TenantId, entryId: BlacklistEntryId });

const DocumentNumber = Type.String({
  minLength: 4,
  maxLength: 32,
  pattern: '^[A-Za-z0-9 -]+$',
  description: 'Spaces, hyphens and case ignored',
});

/** The filters both lists share; the queue holds only pending_review cases, so it has no status filters. */
const listFilters = {
  documentType: Type.Optional(enumOf(DOCUMENT_TYPES)),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
  ip: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[0-9A-Fa-f.:]+$' })),
  q: Type.Optional(Text(512, 'A session id, or the beginning of the state value')),
  name: Type.Optional(
    Text(100, 'Part of a name (kanji or kana) in the document, the user input or the pre-registered data'),
  ),
  birthDate: Type.Optional(
    Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }),
  ),
  documentNumber: Type.Optional(DocumentNumber),
  limit: Type.Optional(
    Type.String({ pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$', description: '1–200, default 50' }),
  ),
  before: Type.Optional(Cursor('The `next` value of the previous page')),
};

export const SessionQuery = Type.Object(
  {
    status: Type.Optional(enumOf(SESSION_STATUSES)),
    verificationStatus: Type.Optional(enumOf(VERIFICATION_STATUSES)),
    ...listFilters,
  },
  { additionalProperties: false },
);
export const QueueQuery = Type.Object(listFilters, { additionalProperties: false });
export type QueueQuery = Static<typeof QueueQuery>;
export type SessionQuery = Static<typeof SessionQuery>;

/** Kept in order: the three go together (a name alone is too common to blacklist). */
const PersonName = Text(100);
export const BlacklistBody = Type.Object(
  {
    label: Text(200),
    matchMode: enumOf(['exact', 'fuzzy'] as const),
    action: enumOf(['reject', 'review'] as const),
    lastName: Type.Optional(PersonName),
    firstName: Type.Optional(PersonName),
    birthDate: Type.Optional(Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    documentNumber: Type.Optional(DocumentNumber),
    faceFromSessionId: Type.Optional(SessionIdParams.properties.sessionId),
  },
  { additionalProperties: false },
);
export type BlacklistBody = Static<typeof BlacklistBody>;
