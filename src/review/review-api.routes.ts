// POST /v1/verification-sessions/{sessionId}/review (docs/console-api.md "Review
// through the tenant API"): the tenant's own back office decides a pending_review case.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { apiCaller } from '../api-keys/index.ts';
import {
  API_KEY_ERRORS,
  errorResponses,
  JSON_BODY_ERRORS,
  SESSION_ID_ERRORS,
} from '../platform/http/openapi.ts';
import type { Platform } from '../platform/platform.ts';
import { getSessionDetail } from '../session-api/index.ts';
import { SessionDetail, SessionIdParams } from '../sessions/index.ts';
import { ApiReviewBody } from './review.schemas.ts';
import { submitReview } from './submit-review.ts';

export function registerReviewApiRoutes(fastify: FastifyInstance, platform: Platform): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/v1/verification-sessions/:sessionId/review',
    {
      schema: {
        tags: ['sessions'],
        operationId: 'reviewSession',
        summary: "Decide a pending_review verification (a reviewer's decision is final)",
        description:
          'Only for sessions whose verification is pending_review (else 409 SessionNotPendingReview); ' +
          'a decided review is final (409 DecisionFinal); a case claimed in the console by a reviewer ' +
          'is 409 ReviewClaimed. Sends verification.approved or verification.rejected with the review field.',
        security: [{ bearerAuth: [] }],
        params: SessionIdParams,
        body: ApiReviewBody,
        response: {
          200: SessionDetail,
          202: SessionDetail,
          ...errorResponses(
            ...API_KEY_ERRORS,
            ...JSON_BODY_ERRORS,
            ...SESSION_ID_ERRORS,
            'SessionNotPendingReview',
            'DecisionFinal',
            'ReviewClaimed',
            'SecondReviewerRequired',
          ),
        },
      },
    },
    async (request, reply) => {
      const caller = apiCaller(request);
      const { sessionId } = request.params;
      const outcome = await submitReview(platform, {
        tenantId: caller.tenantId,
        sessionId,
        decision: request.body.decision,
        reasonCode: request.body.reasonCode ?? 'other',
        reason: request.body.reason,
        reviewedBy: request.body.reviewedBy,
        source: 'api',
        actor: `api_key:${caller.keyId}`,
        ip: request.ip,
      });
      // docs/console-api.md "Second review": an approval waiting for a second reviewer is 202.
      if (outcome.status === 'awaiting_confirmation') reply.code(202);
      return getSessionDetail(platform, caller, sessionId);
    },
  );
}
