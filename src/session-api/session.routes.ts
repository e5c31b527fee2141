// The tenant REST API for sessions (interface §4, and the list, cancel and redact routes of
// docs/api-reference.md beyond it).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { API_KEY_RECHECKED_BY_WRITE, apiCaller, confirmApiKey } from '../api-keys/index.ts';
import {
  API_KEY_ERRORS,
  errorResponses,
  JSON_BODY_ERRORS,
  SESSION_ID_ERRORS,
} from '../platform/http/openapi.ts';
import type { Platform } from '../platform/platform.ts';
import {
  CreatedSession,
  CreateSessionBody,
  cancelSession,
  createSession,
  EmptyBody,
  ListSessionsQuery,
  listSessions,
  ReprocessBody,
  ReprocessResult,
  SessionDetail,
  SessionIdParams,
  SessionList,
} from '../sessions/index.ts';
import { getSessionDetail } from './get-session-detail.ts';
import { redactSession } from './redact-session.ts';
import { reprocessSession } from './reprocess-session.ts';

const security = [{ bearerAuth: [] }];

/** Routes whose body is optional: no body, or an empty one under Content-Type: application/json. */
export const OPTIONAL_BODY = { config: { emptyBodyAllowed: true } } as const;
const emptyBodyIsEmptyObject = async (request: { body: unknown }) => {
  if (request.body === undefined) request.body = {};
};

export function registerSessionRoutes(fastify: FastifyInstance, platform: Platform) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/verification-sessions',
    {
      // Its INSERT checks the key again (create-session.ts): the guard may take it from memory, and
      // an invalid body is answered here, after the key is confirmed (a disabled key is 401 first).
      ...API_KEY_RECHECKED_BY_WRITE,
      attachValidation: true,
      schema: {
        tags: ['sessions'],
        operationId: 'createSession',
        summary: 'Create a verification session',
        security,
        body: CreateSessionBody,
        response: {
          201: CreatedSession,
          ...errorResponses(...API_KEY_ERRORS, ...JSON_BODY_ERRORS, 'CallbackUrlNotAllowed'),
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        await confirmApiKey(platform, apiCaller(request));
        throw request.validationError;
      }
      reply.code(201);
      return createSession(platform, apiCaller(request), request.body);
    },
  );

  app.get(
    '/v1/verification-sessions',
    {
      schema: {
        tags: ['sessions'],
        operationId: 'listSessions',
        summary: "List the tenant's sessions, newest first",
        description:
          'Cursor pagination: pass the nextCursor of a page as startingAfter to get the next one; ' +
          'hasMore is false on the last page. The items carry statuses and times, no personal data: ' +
          'GET the session for its detail.',
        security,
        querystring: ListSessionsQuery,
        response: { 200: SessionList, ...errorResponses(...API_KEY_ERRORS, 'ValidationFailed') },
      },
    },
    async (request) => listSessions(platform, apiCaller(request), request.query),
  );

  app.get(
    '/v1/verification-sessions/:sessionId',
    {
      schema: {
        tags: ['sessions'],
        operationId: 'getSession',
        summary: 'Get a session with its results',
        description: 'A field with no value yet is absent, never null.',
        security,
        params: SessionIdParams,
        response: { 200: SessionDetail, ...errorResponses(...API_KEY_ERRORS, ...SESSION_ID_ERRORS) },
      },
    },
    async (request) => getSessionDetail(platform, apiCaller(request), request.params.sessionId),
  );

  app.post(
    '/v1/verification-sessions/:sessionId/reprocess',
    {
      ...OPTIONAL_BODY,
      schema: {
        tags: ['sessions'],
        operationId: 'reprocessSession',
        summary: 'Run checks of a submitted session again, then the decision',
        description:
          'The body is optional: none (or {}) runs every check again. When the new decision differs ' +
          "from the last one a webhook is sent whose payload carries reprocess: {requestedAt, reason, previousStatus}. A reviewer's decision is final (409 DecisionFinal).",
        security,
        params: SessionIdParams,
        body: ReprocessBody,
        response: {
          200: ReprocessResult,
          ...errorResponses(
            ...API_KEY_ERRORS,
            ...JSON_BODY_ERRORS,
            ...SESSION_ID_ERRORS,
            'SessionNotSubmitted',
            'SessionDataErased',
            'DecisionFinal',
          ),
        },
      },
      preValidation: emptyBodyIsEmptyObject,
    },
    async (request) => reprocessSession(platform, apiCaller(request), request.params.sessionId, request.body),
  );

  // Cancel and redact: an empty body, the session's detail as the answer, one conflict code each.
  const sessionAction = (
    action: 'cancel' | 'redact',
    doc: { operationId: string; summary: string; description: string },
    conflict: 'SessionNotCancellable' | 'SessionNotRedactable',
    run: (caller: ReturnType<typeof apiCaller>, sessionId: string) => Promise<unknown>,
  ) =>
    app.post(
      `/v1/verification-sessions/:sessionId/${action}`,
      {
        ...OPTIONAL_BODY,
        schema: {
          tags: ['sessions'],
          ...doc,
          security,
          params: SessionIdParams,
          body: EmptyBody,
          response: {
            200: SessionDetail,
            ...errorResponses(...API_KEY_ERRORS, ...JSON_BODY_ERRORS, ...SESSION_ID_ERRORS, conflict),
          },
        },
        preValidation: emptyBodyIsEmptyObject,
      },
      async (request) => {
        const caller = apiCaller(request);
        await run(caller, request.params.sessionId);
        return getSessionDetail(platform, caller, request.params.sessionId);
      },
    );

  sessionAction(
    'cancel',
    {
      operationId: 'cancelSession',
      summary: 'Cancel a session the user has not submitted',
      description:
        'The session becomes expired with cancelledAt set; its link and the browser cookie stop ' +
        'working at once. Cancelling a cancelled session again answers the same detail. A submitted, ' +
        'expired or failed session is 409 SessionNotCancellable. No body (or {}).',
    },
    'SessionNotCancellable',
    (caller, sessionId) => cancelSession(platform, caller, sessionId),
  );

  sessionAction(
    'redact',
    {
      operationId: 'redactSession',
      summary: "Erase a finished session's personal data and images",
      description:
        'As the retention period does: images, pre-registered and typed data, OCR and check results, ' +
        'face descriptors, identity keys and webhook bodies are erased; the session, its statuses, ' +
        'decision and audit trail stay, and dataErasedAt is set. Only for a decided (approved or ' +
        'rejected), expired or failed session: 409 SessionNotRedactable while it is processed or ' +
        'waits for review. Redacting again answers the same detail. No body (or {}).',
    },
    'SessionNotRedactable',
    (caller, sessionId) => redactSession(platform, caller, sessionId),
  );
}
