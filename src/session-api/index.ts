// The /v1 session endpoints (interface §4) and the session detail, which combine sessions with the
// hosted flow's and the pipeline's parts: above all three, so none of them imports the others back.

export { getSessionDetail } from './get-session-detail.ts';
export { registerSessionRoutes } from './session.routes.ts';
