// Examples and schema names of the session routes for the OpenAPI document (the /docs reference and
// the SDK's generated types): what a tenant sends and gets, with made-up values.
const sessionId = 'vs_01JQ7Z8Y6X5W4V3T2S1R0QPNMK';
const base = 'https://mimoto.example';
const created = {
  sessionId,
  verificationUrl: `${base}/verify?sessionId=${sessionId}&token=Q2x8vN3kTg5RfY7wLz1bHc4mJp6sDa9e`,
  verificationUrlExpiresAt: '2026-11-26T09:00:10.000Z',
  expiresAt: '2026-11-26T09:15:00.000Z',
};
const detail = {
  sessionId,
  status: 'completed',
  callbackUrl: 'https://tenant.example/kyc/callback',
  verificationUrl: created.verificationUrl,
  verificationUrlExpiresAt: created.verificationUrlExpiresAt,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:04:12.000Z',
  expiresAt: created.expiresAt,
  documentType: 'drivers_license',
  preRegisteredInfo: { lastName: '山田', firstName: '太郎', birthDate: '1990-01-15' },
  userInput: {
    lastName: '山田',
    firstName: '太郎',
    lastNameKana: 'ヤマダ',
    firstNameKana: 'タロウ',
    birthDate: '1990-01-15',
    address: '東京都千代田区1-1',
  },
  documents: {
    frontUploaded: true,
    backUploaded: true,
    frontImageUrl: `${base}/v1/verification-sessions/${sessionId}/images/front`,
    backImageUrl: `${base}/v1/verification-sessions/${sessionId}/images/back`,
  },
  liveness: {
    status: 'success',
    confidence: 0.97,
    referenceImageUrl: `${base}/v1/verification-sessions/${sessionId}/images/liveness-reference`,
  },
  verification: {
    verificationId: sessionId,
    status: 'approved',
    createdAt: '2026-11-26T09:03:50.000Z',
    updatedAt: '2026-11-26T09:04:12.000Z',
    decision: {
      status: 'approved',
      reason: 'all_checks_passed',
      metadata: {
        faceMatchSimilarity: 0.82,
        livenessConfidence: 0.97,
        documentSpoofRisk: 'low',
        ocrConfidence: 0.94,
      },
    },
    preRegisteredInfoMatch: { lastName: true, firstName: true, birthDate: true },
    userInputMatch: true,
  },
};
const pending = {
  sessionId,
  status: 'pending',
  callbackUrl: detail.callbackUrl,
  verificationUrl: created.verificationUrl,
  verificationUrlExpiresAt: created.verificationUrlExpiresAt,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
  expiresAt: created.expiresAt,
};
const example = (summary: string, value: unknown) => ({ summary, value });

export const SESSION_SCHEMA_NAMES = {
  createSession: { request: 'CreateSessionRequest', response: 'CreatedSession' },
  listSessions: { response: 'SessionList' },
  getSession: { response: 'SessionDetail' },
  reprocessSession: { request: 'ReprocessRequest', response: 'ReprocessResult' },
  cancelSession: { request: 'EmptyRequest', response: 'SessionDetail' },
  redactSession: { request: 'EmptyRequest', response: 'SessionDetail' },
  reviewSession: { request: 'ReviewRequest', response: 'SessionDetail' },
};

export const SESSION_OPTIONAL_BODIES = ['reprocessSession', 'cancelSession', 'redactSession'];

export const SESSION_MEDIA_TYPES = { getSessionImage: 'image/jpeg' };

export const SESSION_EXAMPLES = {
  createSession: {
    request: {
      minimal: example('Only the callback URL', { callbackUrl: 'https://tenant.example/kyc/callback' }),
      full: example('With state, IP address and data to compare', {
        callbackUrl: 'https://tenant.example/kyc/callback',
        clientIpAddress: '203.0.113.7',
        state: 'b6f1c0e2-csrf',
        preRegisteredInfo: {
          lastName: '山田',
          firstName: '太郎',
          birthDate: '1990-01-15',
          address: '東京都千代田区',
        },
      }),
    },
    responses: { '201': { created: example('Created', created) } },
  },
  listSessions: {
    responses: {
      '200': {
        page: example('A page with more after it', {
          data: [
            {
              sessionId,
              status: 'completed',
              verificationStatus: 'approved',
              documentType: 'drivers_license',
              createdAt: '2026-11-26T09:00:00.000Z',
              updatedAt: '2026-11-26T09:04:12.000Z',
              expiresAt: created.expiresAt,
            },
          ],
          hasMore: true,
          nextCursor: sessionId,
        }),
      },
    },
  },
  getSession: {
    responses: {
      '200': {
        decided: example('Approved', detail),
        justCreated: example('Just created: fields with no value are absent', pending),
      },
    },
  },
  reprocessSession: {
    request: {
      all: example('Every check again', {}),
      some: example('Face match only, with a reason', {
        queues: ['faceMatch'],
        reason: 'face threshold raised',
      }),
    },
    responses: {
      '200': {
        queued: example('Queued', {
          sessionId,
          queuedAt: '2026-11-26T10:00:00.000Z',
          queued: [{ queue: 'faceMatch', queuedAt: '2026-11-26T10:00:00.000Z' }],
        }),
      },
    },
  },
  cancelSession: {
    responses: {
      '200': {
        cancelled: example('Cancelled', {
          ...pending,
          status: 'expired',
          expiresAt: '2026-11-26T09:02:00.000Z',
          updatedAt: '2026-11-26T09:02:00.000Z',
          cancelledAt: '2026-11-26T09:02:00.000Z',
        }),
      },
    },
  },
  redactSession: {
    responses: {
      '200': {
        redacted: example('Erased: the decision stays', {
          ...detail,
          preRegisteredInfo: undefined,
          userInput: undefined,
          dataErasedAt: '2026-11-27T00:00:00.000Z',
        }),
      },
    },
  },
  reviewSession: {
    request: {
      approve: example('Approve', {
        decision: 'approved',
        reason: 'Checked the document by hand; the photo matches.',
        reviewedBy: 'reviewer@tenant.example',
      }),
    },
  },
};
