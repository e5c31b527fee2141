// What other capabilities use of sessions: the verification_sessions repository, the /v1 session
// schemas, tenant access to a session, and the create, cancel, list, redact, expiry and retention
// operations. The endpoints that also read the hosted flow and the pipeline are in session-api/.

export { cancelSession } from './cancel-session.ts';
export { createSession, preRegisteredInfoContext, verificationUrlContext } from './create-session.ts';
export { startExpirySweep } from './expire-sessions.ts';
export { listSessions } from './list-sessions.ts';
export { redactSession } from './redact-session.ts';
export { startRetentionSweep } from './retention-sweep.ts';
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
export { findSession, type SessionRow } from './session-repository.ts';
