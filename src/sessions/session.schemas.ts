// Request and response schemas of the session endpoints (interface §2, §4): one source for
// validation, TypeScript types and the OpenAPI document.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CHECK_IDS, type CheckId, checkResultsProperties } from '../checks/index.ts';
import {
  DecisionMetadataSchema,
  OcrResultSchema,
  SESSION_STATUSES,
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
  type VerificationMethod,
} from '../domain/index.ts';
import { SessionId } from '../platform/http/id-schemas.ts';

export { SESSION_STATUSES, VERIFICATION_STATUSES };

/** No C0/C1 control characters: they have no place in names, addresses or opaque state. */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS, description });
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });
/** interface §2.11 leaves presence open: a field with no value yet is left out, never null. */
const Absent = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional(Type.Unsafe<Static<T>>({ ...schema, description }));

export const SessionIdParams = Type.Object({ sessionId: SessionId });

export const PreRegisteredInfo = Type.Object(
  {
    birthDate: Type.Optional(
      Type.String({
        format: 'date',
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description: 'YYYY-MM-DD, a real date',
      }),
    ),
    lastName: Type.Optional(Text(100)),
    firstName: Type.Optional(Text(100)),
    address: Type.Optional(Text(300, 'A partial address is acceptable for matching')),
  },
  { additionalProperties: false, description: 'Data to compare with the OCR result (API reference §2.2)' },
);
export type PreRegisteredInfo = Static<typeof PreRegisteredInfo>;

export const CreateSessionBody = Type.Object(
  {
    callbackUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      pattern: NO_CONTROL_CHARACTERS,
      description: "Absolute http(s) URL on the tenant's allow list; https only in production",
    }),
    clientIpAddress: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "The end user's IPv4 address, checked at first use of the link; an IPv6 address is ignored",
      }),
    ),
    state: Type.Optional(Text(512, 'Opaque CSRF value, returned in the callback redirect')),
    preRegisteredInfo: Type.Optional(PreRegisteredInfo),
    verificationMethods: Type.Optional(
      Type.Array(Type.Unsafe<VerificationMethod>(Type.String({ enum: [...VERIFICATION_METHODS] })), {
        minItems: 1,
        maxItems: VERIFICATION_METHODS.length,
        uniqueItems: true,
        description:
          "How the user may verify: image (photographs of a document), ic_chip (reading the document's IC chip, docs/ic-chip.md), or both. Absent: the tenant's default (image unless set)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

export const CreatedSession = Type.Object({
  sessionId: Type.String(),
  verificationUrl: Type.String({ description: 'Hosted page; carries sessionId and a one-time token' }),
  verificationUrlExpiresAt: Timestamp,
  expiresAt: Timestamp,
});
export type CreatedSession = Static<typeof CreatedSession>;

const UserInput = Type.Object({
  lastName: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  lastNameKana: Type.Optional(Type.String()),
  firstNameKana: Type.Optional(Type.String()),
  birthDate: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
});

const Documents = Type.Object({
  frontUploaded: Type.Boolean(),
  backUploaded: Type.Boolean(),
  frontImageUrl: Type.Optional(Type.String({ description: 'Needs the API key' })),
  backImageUrl: Type.Optional(Type.String({ description: 'Needs the API key' })),
});

const Liveness = Type.Object({
  status: Type.String(),
  confidence: Type.Optional(Type.Number()),
  referenceImageUrl: Type.Optional(Type.String({ description: 'Needs the API key' })),
});

const Verification = Type.Object({
  verificationId: Type.String(),
  status: Type.String({
    description: 'processing, approved, rejected or pending_review (API reference §3.2)',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  decision: Type.Optional(
    Type.Object({ status: Type.String(), reason: Type.String(), metadata: DecisionMetadataSchema }),
  ),
  // One entry per check of the registry (src/checks/check-registry.ts).
  results: Type.Optional(Type.Object(checkResultsProperties())),
  preRegisteredInfoMatch: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  userInputMatch: Type.Optional(Type.Boolean()),
});

export const SessionDetail = Type.Object({
  sessionId: Type.String(),
  status: Type.Unsafe<(typeof SESSION_STATUSES)[number]>(
    Type.String({ enum: [...SESSION_STATUSES], description: 'Session status (API reference §3.1)' }),
  ),
  callbackUrl: Type.String(),
  verificationUrl: Type.String(),
  verificationUrlExpiresAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp,
  documentType: Absent(Type.String(), 'Absent until the user chooses a document'),
  verificationMethods: Type.Array(Type.String({ enum: [...VERIFICATION_METHODS] }), {
    description: 'The methods this session offers (create request, else the tenant default)',
  }),
  verificationMethod: Absent(
    Type.String({ enum: [...VERIFICATION_METHODS] }),
    'The method the user verified with; absent until the user submits',
  ),
  preRegisteredInfo: Absent(PreRegisteredInfo, 'Absent when none was given at creation, or after erasure'),
  userInput: Absent(UserInput, 'Absent until the user submits (API reference §2.3)'),
  documents: Absent(Documents, 'Absent until the user chooses a document (API reference §2.4)'),
  liveness: Absent(Liveness, 'Absent until a live face check was attempted (API reference §2.5)'),
  ocrResult: Absent(OcrResultSchema, 'Absent until OCR has run (API reference §2.6)'),
  verification: Absent(Verification, 'Absent until the user submits (API reference §2.7)'),
  cancelledAt: Type.Optional({ ...Timestamp, description: 'When the tenant cancelled the session' }),
  dataErasedAt: Type.Optional({
    ...Timestamp,
    description: "When the session's personal data and images were erased (redact, or the retention period)",
  }),
});
export type SessionDetail = Static<typeof SessionDetail>;

export const ReprocessBody = Type.Object(
  {
    queues: Type.Optional(
      Type.Array(Type.Unsafe<CheckId>(Type.String({ enum: [...CHECK_IDS] })), {
        maxItems: CHECK_IDS.length,
        uniqueItems: true,
        description:
          'Checks to run again; empty or missing means all. The decision is taken again afterwards.',
      }),
    ),
    reason: Type.Optional(Text(1000)),
  },
  { additionalProperties: false },
);
export type ReprocessBody = Static<typeof ReprocessBody>;

export const ReprocessResult = Type.Object({
  sessionId: Type.String(),
  queuedAt: Timestamp,
  queued: Type.Array(Type.Object({ queue: Type.String(), queuedAt: Timestamp })),
});
export type ReprocessResult = Static<typeof ReprocessResult>;

const enumOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], description }));

export const ListSessionsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]|[1-9][0-9]|100)$',
        description: 'Sessions per page, 1 to 100 (default 20)',
      }),
    ),
    startingAfter: Type.Optional({
      ...SessionId,
      description: 'The nextCursor of the previous page: the sessions created before this one',
    }),
    status: Type.Optional(enumOf(SESSION_STATUSES, 'Only sessions in this status (API reference §3.1)')),
    verificationStatus: Type.Optional(
      enumOf(VERIFICATION_STATUSES, 'Only sessions whose verification has this status (API reference §3.2)'),
    ),
    createdFrom: Type.Optional({ ...Timestamp, description: 'Created at or after this time (ISO 8601)' }),
    createdTo: Type.Optional({ ...Timestamp, description: 'Created before this time (ISO 8601)' }),
  },
  { additionalProperties: false },
);
export type ListSessionsQuery = Static<typeof ListSessionsQuery>;

export const SessionSummary = Type.Object({
  sessionId: Type.String(),
  status: enumOf(SESSION_STATUSES, 'Session status (API reference §3.1)'),
  verificationStatus: Type.Optional(
    enumOf(VERIFICATION_STATUSES, 'Absent until the user submits (API reference §3.2)'),
  ),
  documentType: Type.Optional(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp,
  cancelledAt: Type.Optional(Timestamp),
  dataErasedAt: Type.Optional(Timestamp),
});
export type SessionSummary = Static<typeof SessionSummary>;

export const SessionList = Type.Object({
  data: Type.Array(SessionSummary, { description: 'Newest first; no personal data' }),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(
    Type.String({ description: 'Pass as startingAfter for the next page; absent on the last page' }),
  ),
});
export type SessionList = Static<typeof SessionList>;

/** cancel and redact take no body; an empty JSON object is accepted too. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });
