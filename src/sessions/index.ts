// What other capabilities use of sessions: the verification_sessions repository (the table's only
// SQL: the hosted flow, the pipeline and review change the row through it), the /v1 session
// schemas, tenant access to a session, and the create, cancel, list and expiry operations. The
// endpoints that also read the hosted flow and the pipeline, and the erasure of a session's data
// in every table (redact, retention), are in session-api/.

export { cancelSession } from './cancel-session.ts';
export { createSession, preRegisteredInfoContext, verificationUrlContext } from './create-session.ts';
export { startExpirySweep } from './expire-sessions.ts';
export { listSessions } from './list-sessions.ts';
export { type ErasableSession, lockErasableSessions } from './retention-repository.ts';
export {
  CreatedSession,
  CreateSessionBody,
  EmptyBody,
  ListSessionsQuery,
  type PreRegisteredInfo,
  ReprocessBody,
  ReprocessResult,
  SessionDetail,
  SessionIdParams,
  SessionList,
} from './session.schemas.ts';
export { effectiveStatus, loadCallerSession } from './session-access.ts';
export {
  SESSION_EXAMPLES,
  SESSION_MEDIA_TYPES,
  SESSION_OPTIONAL_BODIES,
  SESSION_SCHEMA_NAMES,
} from './session-api-examples.ts';
export {
  completeSession,
  countLivenessAttempt,
  failSession,
  listLivenessReferenceBlobs,
  markSessionSubmitted,
  markSessionsErased,
  recordConsent,
  recordLivenessOutcome,
  saveUserInput,
  sessionIdsFromIp,
  setDocumentType,
  setFlowCookie,
  setSessionStatus,
  setVerificationMethod,
  setVerificationStatus,
  startFlow,
  startGeneration,
  touchSession,
} from './session-progress-repository.ts';
export {
  findSession,
  findSessionByCookieHash,
  type SessionFilters,
  type SessionRow,
  searchSessions,
} from './session-repository.ts';
