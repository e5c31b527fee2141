// The /v1 session endpoints (interface §4), the session detail and the erasure of a session's data
// (redact, retention sweep), which combine sessions with the hosted flow's and the pipeline's parts:
// above all three, so none of them imports the others back.

export { getSessionDetail } from './get-session-detail.ts';
export { startRetentionSweep } from './retention-sweep.ts';
export { registerSessionRoutes } from './session.routes.ts';
