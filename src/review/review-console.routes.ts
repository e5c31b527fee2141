// The console's session, review and blacklist routes (docs/console-api.md "Sessions, blacklist and
// review"), registered by the console inside its signed-in scope (cookie, CSRF and Origin checked).
// Sessions and images: tenant_admin and reviewer of the tenant; claim and decide: reviewer;
// blacklist: tenant_admin.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ConsoleRole, requireRole } from '../console/index.ts';
import { readSessionImage, type SessionImageName } from '../hosted-flow/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import {
  createBlacklistEntry,
  deleteBlacklistEntry,
  listBlacklist,
  updateBlacklistEntry,
} from './blacklist-service.ts';
import {
  BlacklistBody,
  BlacklistEntryParams,
  ConsoleReviewBody,
  ReviewIdParams,
  SessionImageParams,
  SessionQuery,
  TenantParams,
  TenantSessionParams,
} from './review.schemas.ts';
import { listCaseSessions, listReviewQueue, loadCase, readCase } from './review-case.ts';
import { claimCase, releaseCase } from './review-claims.ts';
import { confirmReview, submitReview } from './submit-review.ts';

const CASE_READERS: ConsoleRole[] = ['tenant_admin', 'reviewer'];

/** The signed-in user acting for `tenantId` in one of `roles`, with what the audit row needs. */
function actingUser(request: FastifyRequest, roles: ConsoleRole[], tenantId: string) {
  const user = requireRole(request, roles, tenantId);
  // Operators are not in these roles, so the user belongs to this very tenant.
  return { id: user.id, email: user.email, tenantId, ip: request.ip };
}

export function registerReviewConsoleRoutes(scope: FastifyInstance, platform: Platform): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const hidden = { hide: true };

  app.get(
    '/tenants/:tenantId/sessions',
    { schema: { ...hidden, params: TenantParams, querystring: SessionQuery } },
    async (request) => {
      const { tenantId } = request.params;
      actingUser(request, CASE_READERS, tenantId);
      return listCaseSessions(platform, tenantId, request.query);
    },
  );

  app.get(
    '/tenants/:tenantId/review-queue',
    { schema: { ...hidden, params: TenantParams, querystring: SessionQuery } },
    async (request) => {
      const { tenantId } = request.params;
      actingUser(request, CASE_READERS, tenantId);
      const { sessions } = await listReviewQueue(platform, tenantId, request.query);
      return { sessions };
    },
  );

  app.get(
    '/tenants/:tenantId/sessions/:sessionId',
    { schema: { ...hidden, params: TenantSessionParams } },
    async (request) => {
      const { tenantId, sessionId } = request.params;
      actingUser(request, CASE_READERS, tenantId);
      return { session: await readCase(platform, tenantId, sessionId) };
    },
  );

  app.get(
    '/tenants/:tenantId/sessions/:sessionId/images/:name',
    { schema: { ...hidden, params: SessionImageParams } },
    async (request, reply) => {
      const { tenantId, sessionId, name } = request.params;
      actingUser(request, CASE_READERS, tenantId);
      const session = await loadCase(platform, tenantId, sessionId);
      const bytes = await readSessionImage(platform, session, name as SessionImageName);
      if (!bytes) throw new AppError('NotFound', 'No such image for this session');
      return reply.type('image/jpeg').header('cache-control', 'no-store').send(bytes);
    },
  );

  app.post(
    '/tenants/:tenantId/sessions/:sessionId/claim',
    { schema: { ...hidden, params: TenantSessionParams } },
    async (request) => {
      const { tenantId, sessionId } = request.params;
      const reviewer = actingUser(request, ['reviewer'], tenantId);
      return { claim: await claimCase(platform, reviewer, sessionId) };
    },
  );

  app.delete(
    '/tenants/:tenantId/sessions/:sessionId/claim',
    { schema: { ...hidden, params: TenantSessionParams } },
    async (request, reply) => {
      const { tenantId, sessionId } = request.params;
      const reviewer = actingUser(request, ['reviewer'], tenantId);
      await releaseCase(platform, reviewer, sessionId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/tenants/:tenantId/sessions/:sessionId/review',
    { schema: { ...hidden, params: TenantSessionParams, body: ConsoleReviewBody } },
    async (request, reply) => {
      const { tenantId, sessionId } = request.params;
      const reviewer = actingUser(request, ['reviewer'], tenantId);
      await loadCase(platform, tenantId, sessionId);
      const outcome = await submitReview(platform, {
        tenantId,
        sessionId,
        ...request.body,
        reviewedBy: reviewer.email,
        reviewerUserId: reviewer.id,
        source: 'console',
        actor: reviewer.email,
        ip: reviewer.ip,
      });
      if (outcome.status === 'awaiting_confirmation') return reply.code(202).send({ review: outcome.review });
      return { review: outcome.review, session: await readCase(platform, tenantId, sessionId) };
    },
  );

  app.post(
    '/tenants/:tenantId/reviews/:reviewId/confirm',
    { schema: { ...hidden, params: ReviewIdParams } },
    async (request) => {
      const { tenantId, reviewId } = request.params;
      const reviewer = actingUser(request, ['reviewer'], tenantId);
      const outcome = await confirmReview(platform, {
        tenantId,
        reviewId,
        reviewedBy: reviewer.email,
        reviewerUserId: reviewer.id,
        actor: reviewer.email,
        ip: reviewer.ip,
      });
      return {
        review: outcome.review,
        session: await readCase(platform, tenantId, outcome.review.sessionId),
      };
    },
  );

  app.get(
    '/tenants/:tenantId/blacklist',
    { schema: { ...hidden, params: TenantParams } },
    async (request) => {
      const { tenantId } = request.params;
      actingUser(request, ['tenant_admin'], tenantId);
      return { entries: await listBlacklist(platform, tenantId) };
    },
  );

  app.post(
    '/tenants/:tenantId/blacklist',
    { schema: { ...hidden, params: TenantParams, body: BlacklistBody } },
    async (request, reply) => {
      const admin = actingUser(request, ['tenant_admin'], request.params.tenantId);
      return reply.code(201).send({ entry: await createBlacklistEntry(platform, admin, request.body) });
    },
  );

  app.put(
    '/tenants/:tenantId/blacklist/:entryId',
    { schema: { ...hidden, params: BlacklistEntryParams, body: BlacklistBody } },
    async (request) => {
      const admin = actingUser(request, ['tenant_admin'], request.params.tenantId);
      return { entry: await updateBlacklistEntry(platform, admin, request.params.entryId, request.body) };
    },
  );

  app.delete(
    '/tenants/:tenantId/blacklist/:entryId',
    { schema: { ...hidden, params: BlacklistEntryParams } },
    async (request, reply) => {
      const admin = actingUser(request, ['tenant_admin'], request.params.tenantId);
      await deleteBlacklistEntry(platform, admin, request.params.entryId);
      return reply.code(204).send();
    },
  );
}
