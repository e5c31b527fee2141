// The console's session, review and blacklist routes (docs/console-api.md "Sessions, blacklist and
// review"), registered by the console inside its signed-in scope (cookie, CSRF and Origin checked).
// Sessions, their CSV export and images: tenant_admin and reviewer of the tenant, and operators of
// any tenant, read-only, each opening recorded in the audit log; the queue: tenant_admin and
// reviewer; claim and decide: reviewer; blacklist: tenant_admin.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ConsoleRole, onlyRoles, recordAudit, requestActor, requireRole } from '../actors/index.ts';
import { readSessionImage, type SessionImageName } from '../hosted-flow/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findTenant } from '../tenants/index.ts';
import {
  createBlacklistEntry,
  deleteBlacklistEntry,
  listBlacklist,
  updateBlacklistEntry,
} from './blacklist-service.ts';
import { FACE_CROP_NAMES, type FaceCropName, readFaceCrop } from './face-crops.ts';
import {
  BlacklistBody,
  BlacklistEntryParams,
  ConsoleReviewBody,
  QueueQuery,
  ReviewIdParams,
  SessionImageParams,
  SessionQuery,
  TenantParams,
  TenantSessionParams,
} from './review.schemas.ts';
import { type CaseListItem, listCaseSessions, listReviewQueue, loadCase, readCase } from './review-case.ts';
import { claimCase, releaseCase } from './review-claims.ts';
import { sessionsCsv } from './sessions-csv.ts';
import { confirmReview, submitReview } from './submit-review.ts';

const CASE_READERS: ConsoleRole[] = ['tenant_admin', 'reviewer'];
const SESSION_READERS: ConsoleRole[] = ['tenant_admin', 'reviewer', 'operator'];
/** Rows of one CSV export at most (pages of 200 through the list's own search). */
export const EXPORT_MAX_ROWS = 10_000;

/** The signed-in user acting for `tenantId` in one of `roles`, with what the audit row needs. */
function actingUser(request: FastifyRequest, roles: ConsoleRole[], tenantId: string) {
  const user = requireRole(request, roles, tenantId);
  // Operators are not in these roles, so the user belongs to this very tenant.
  return { id: user.id, email: user.email, tenantId, ip: request.ip };
}

/**
 * A reader of the tenant's sessions: its own admin or reviewer, or an operator (any existing tenant,
 * read-only). Returns whether the reader is an operator, whose reads the audit log records.
 */
async function sessionReader(platform: Platform, request: FastifyRequest, tenantId: string) {
  const user = requireRole(request, SESSION_READERS, tenantId);
  if (user.role !== 'operator') return { isOperator: false };
  if (!(await findTenant(platform.database.db, tenantId))) throw new AppError('NotFound', 'No such tenant');
  return { isOperator: true };
}

/** One audit row for a read: what was opened, and the names (never the values) of the filters used. */
async function recordRead(
  platform: Platform,
  request: FastifyRequest,
  entry: { tenantId: string; action: string; targetType: string; targetId: string | null; after?: unknown },
) {
  await recordAudit(platform.database.db, platform, { ...requestActor(request), ...entry });
}

const filterNames = (query: object) =>
  Object.keys(query)
    .filter((key) => key !== 'limit' && key !== 'before')
    .sort();

export function registerReviewConsoleRoutes(scope: FastifyInstance, platform: Platform): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const hidden = { hide: true };

  app.get(
    '/tenants/:tenantId/sessions',
    { ...onlyRoles(SESSION_READERS), schema: { ...hidden, params: TenantParams, querystring: SessionQuery } },
    async (request) => {
      const { tenantId } = request.params;
      const { isOperator } = await sessionReader(platform, request, tenantId);
      const page = await listCaseSessions(platform, tenantId, request.query);
      if (isOperator)
        await recordRead(platform, request, {
          tenantId,
          action: 'session.list',
          targetType: 'tenant',
          targetId: tenantId,
          after: { filters: filterNames(request.query), rows: page.sessions.length },
        });
      return page;
    },
  );

  app.get(
    '/tenants/:tenantId/sessions.csv',
    { ...onlyRoles(SESSION_READERS), schema: { ...hidden, params: TenantParams, querystring: SessionQuery } },
    async (request, reply) => {
      const { tenantId } = request.params;
      await sessionReader(platform, request, tenantId);
      const items: CaseListItem[] = [];
      let before = request.query.before;
      let isTruncated = false;
      for (;;) {
        const page = await listCaseSessions(platform, tenantId, { ...request.query, limit: '200', before });
        items.push(...page.sessions);
        if (!page.next) break;
        if (items.length >= EXPORT_MAX_ROWS) {
          isTruncated = true;
          break;
        }
        before = page.next;
      }
      const rows = items.slice(0, EXPORT_MAX_ROWS);
      await recordRead(platform, request, {
        tenantId,
        action: 'session.export',
        targetType: 'tenant',
        targetId: tenantId,
        after: { filters: filterNames(request.query), rows: rows.length, truncated: isTruncated },
      });
      const day = platform.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sessions-${tenantId}-${day}.csv"`)
        .header('x-export-truncated', String(isTruncated || items.length > EXPORT_MAX_ROWS))
        .send(sessionsCsv(rows));
    },
  );

  app.get(
    '/tenants/:tenantId/review-queue',
    { ...onlyRoles(CASE_READERS), schema: { ...hidden, params: TenantParams, querystring: QueueQuery } },
    async (request) => {
      const { tenantId } = request.params;
      actingUser(request, CASE_READERS, tenantId);
      return listReviewQueue(platform, tenantId, request.query);
    },
  );

  app.get(
    '/tenants/:tenantId/sessions/:sessionId',
    { schema: { ...hidden, params: TenantSessionParams } },
    async (request) => {
      const { tenantId, sessionId } = request.params;
      const { isOperator } = await sessionReader(platform, request, tenantId);
      const session = await readCase(platform, tenantId, sessionId);
      if (isOperator)
        await recordRead(platform, request, {
          tenantId,
          action: 'session.view',
          targetType: 'session',
          targetId: sessionId,
        });
      return { session };
    },
  );

  app.get(
    '/tenants/:tenantId/sessions/:sessionId/images/:name',
    { schema: { ...hidden, params: SessionImageParams } },
    async (request, reply) => {
      const { tenantId, sessionId, name } = request.params;
      // An operator's images are part of the case view the audit log records.
      await sessionReader(platform, request, tenantId);
      const session = await loadCase(platform, tenantId, sessionId);
      const bytes = (FACE_CROP_NAMES as readonly string[]).includes(name)
        ? await readFaceCrop(platform, session, name as FaceCropName)
        : await readSessionImage(platform, session, name as SessionImageName);
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
    // The role and tenant before the body (docs/console-api.md): another tenant's reviewer gets 403,
    // never a validation error about a body it may not send.
    {
      ...onlyRoles(['reviewer']),
      schema: { ...hidden, params: TenantSessionParams, body: ConsoleReviewBody },
    },
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
    { ...onlyRoles(['tenant_admin']), schema: { ...hidden, params: TenantParams, body: BlacklistBody } },
    async (request, reply) => {
      const admin = actingUser(request, ['tenant_admin'], request.params.tenantId);
      return reply.code(201).send({ entry: await createBlacklistEntry(platform, admin, request.body) });
    },
  );

  app.put(
    '/tenants/:tenantId/blacklist/:entryId',
    {
      ...onlyRoles(['tenant_admin']),
      schema: { ...hidden, params: BlacklistEntryParams, body: BlacklistBody },
    },
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
