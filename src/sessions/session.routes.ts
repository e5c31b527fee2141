// The tenant REST API for sessions (interface §4).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { apiCaller } from '../api-keys/index.ts';
import { errorResponses } from '../platform/http/openapi.ts';
import type { Platform } from '../platform/platform.ts';
import { createSession } from './create-session.ts';
import { getSessionDetail } from './get-session-detail.ts';
import { reprocessSession } from './reprocess-session.ts';
import {
  CreatedSession,
  CreateSessionBody,
  ReprocessBody,
  ReprocessResult,
  SessionDetail,
  SessionIdParams,
} from './session.schemas.ts';

const security = [{ bearerAuth: [] }];

export function registerSessionRoutes(fastify: FastifyInstance, platform: Platform) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/verification-sessions',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Create a verification session',
        security,
        body: CreateSessionBody,
        response: { 201: CreatedSession, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createSession(platform, apiCaller(request), request.body);
    },
  );

  app.get(
    '/v1/verification-sessions/:sessionId',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Get a session with its results',
        security,
        params: SessionIdParams,
        response: { 200: SessionDetail, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => getSessionDetail(platform, apiCaller(request), request.params.sessionId),
  );

  app.post(
    '/v1/verification-sessions/:sessionId/reprocess',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Run checks of a submitted session again, then the decision',
        security,
        params: SessionIdParams,
        body: ReprocessBody,
        response: { 200: ReprocessResult, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
      // A reprocess of everything needs no body at all.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request) => reprocessSession(platform, apiCaller(request), request.params.sessionId, request.body),
  );
}
