// Operator and tenant-admin routes of the console (docs/console-api.md "Operator", "Tenant admin").
// Each handler first asks requireRole; every change goes through a function that writes its audit
// row in the same transaction.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  type ConsoleRole,
  listAuditRows,
  onlyRoles,
  recordAudit,
  requestActor,
  requireRole,
} from '../actors/index.ts';
import { type ApiKeyView, listTenantApiKeys } from '../api-keys/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { ApiKeyId, TenantId, WebhookEventId } from '../platform/http/id-schemas.ts';
import type { Platform } from '../platform/platform.ts';
import {
  callbackUrlProblem,
  findTenant,
  isCallbackUrlAllowed,
  listTenantViews,
  showTenant,
} from '../tenants/index.ts';
import {
  isSnippetFull,
  listTenantWebhookEvents,
  readWebhookEventBody,
  redeliverWebhookEvent,
  sendTestWebhook,
  showWebhookEvent,
  WebhookEventBusyError,
  type WebhookEventView,
} from '../webhooks/index.ts';
import {
  changeCallbackPrefixAudited,
  createApiKeyAudited,
  createTenantAudited,
  disableApiKeyAudited,
  rotateWebhookSecretAudited,
} from './admin-actions.ts';
import { Text } from './console-schemas.ts';
import { LOGO_MAX_BYTES, setTenantLogo } from './tenant-logo.ts';
import { readTenantSettings, TenantSettingsSchema, writeTenantSettings } from './tenant-settings.ts';

const hide = true;
const WEBHOOK_LOG_READERS: ConsoleRole[] = ['tenant_admin', 'operator'];
const TenantParams = Type.Object({ tenantId: TenantId });
const KeyParams = Type.Object({ tenantId: TenantId, keyId: ApiKeyId });
const EventParams = Type.Object({ tenantId: TenantId, eventId: WebhookEventId });
const Limit = Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' }));
const Timestamp = Type.String({ format: 'date-time', maxLength: 40 });

const CreateTenantBody = Type.Object(
  {
    name: Text(200),
    callbackUrlPrefixes: Type.Array(Text(2048), {
      minItems: 1,
      maxItems: 20,
    }),
  },
  { additionalProperties: false },
);
const PrefixBody = Type.Object({ prefix: Text(2048) }, { additionalProperties: false });
const CreateKeyBody = Type.Object({ label: Type.Optional(Text(200)) }, { additionalProperties: false });
const SettingsBody = Type.Object({ settings: TenantSettingsSchema }, { additionalProperties: false });
/** The hosted flow's logo as base64 (null removes it); checked by content in tenant-logo.ts. */
const LogoBody = Type.Object(
  {
    image: Type.Union([
      Type.String({ maxLength: Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4, pattern: '^[A-Za-z0-9+/=]+$' }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
const WebhookTestBody = Type.Object({ url: Text(2048) }, { additionalProperties: false });
const AuditQuery = Type.Object(
  {
    tenantId: Type.Optional(TenantId),
    limit: Limit,
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
  },
  { additionalProperties: false },
);
const EventsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([
        Type.Literal('pending'),
        Type.Literal('delivered'),
        Type.Literal('failed'),
        Type.Literal('gone'),
      ]),
    ),
    limit: Limit,
    before: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);

/** The console calls a key's hint its prefix (docs/console-api.md). */
const keyView = ({ hint, ...key }: ApiKeyView) => ({ ...key, prefix: hint });

/** `limit` of a list query: 1–200, 50 when absent. */
function pageSize(limit: string | undefined): number {
  const value = limit === undefined ? 50 : Number(limit);
  if (value < 1 || value > 200) throw new AppError('ValidationFailed', 'limit must be between 1 and 200');
  return value;
}

const eventSummary = (event: WebhookEventView) => ({
  eventId: event.eventId,
  sessionId: event.sessionId,
  event: event.event,
  status: event.state,
  attempts: event.attempts.length,
  nextAttemptAt: event.nextAttemptAt,
  lastStatusCode: event.attempts.at(-1)?.httpStatus ?? null,
  createdAt: event.createdAt,
  callbackUrl: event.callbackUrl,
});

/** What a delivery sends besides the body (the signature changes with the secret, so it is not kept). */
const requestHeaders = (event: WebhookEventView) => ({
  'Content-Type': 'application/json',
  'X-Service-Event': event.event,
  'X-Service-Delivery': event.eventId,
});

/** The event, the exact body it sends (cut for display), and every attempt with the start of the receiver's answer. */
const eventDetail = (event: WebhookEventView, request: { body: string; truncated: boolean } | undefined) => ({
  event: eventSummary(event),
  request: {
    url: event.callbackUrl,
    headers: requestHeaders(event),
    body: request?.body ?? null,
    truncated: request?.truncated ?? false,
  },
  attempts: event.attempts.map((attempt) => ({
    attempt: attempt.attempt,
    trigger: attempt.trigger,
    at: attempt.startedAt,
    outcome: attempt.outcome,
    statusCode: attempt.httpStatus,
    error: attempt.errorClass ? `${attempt.errorClass}: ${attempt.errorMessage ?? ''}` : null,
    durationMs: attempt.durationMs,
    responseBody: attempt.responseSnippet,
    responseBodyTruncated: isSnippetFull(attempt.responseSnippet),
  })),
});

export function registerAdminRoutes(scope: FastifyInstance, platform: Platform) {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  // Operators: tenants and their callback allow lists.
  app.get('/tenants', { ...onlyRoles(['operator']), schema: { hide } }, async (request) => {
    requireRole(request, ['operator']);
    return { tenants: await listTenantViews(platform) };
  });

  app.post(
    '/tenants',
    { ...onlyRoles(['operator']), schema: { hide, body: CreateTenantBody } },
    async (request, reply) => {
      requireRole(request, ['operator']);
      const created = await createTenantAudited(platform, requestActor(request), request.body);
      reply.code(201);
      return created;
    },
  );

  app.get(
    '/tenants/:tenantId',
    { ...onlyRoles(['operator', 'tenant_admin', 'reviewer']), schema: { hide, params: TenantParams } },
    async (request) => {
      requireRole(request, ['operator', 'tenant_admin', 'reviewer'], request.params.tenantId);
      return { tenant: await showTenant(platform, request.params.tenantId) };
    },
  );

  for (const [method, add] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/tenants/:tenantId/callback-url-prefixes',
      ...onlyRoles(['operator']),
      schema: { hide, params: TenantParams, body: PrefixBody },
      handler: async (request) => {
        requireRole(request, ['operator']);
        const change = { tenantId: request.params.tenantId, prefix: request.body.prefix, add };
        return { tenant: await changeCallbackPrefixAudited(platform, requestActor(request), change) };
      },
    });
  }

  app.get(
    '/audit',
    { ...onlyRoles(['operator', 'tenant_admin']), schema: { hide, querystring: AuditQuery } },
    async (request) => {
      const user = requireRole(request, ['operator', 'tenant_admin'], request.query.tenantId);
      const tenantId = user.role === 'operator' ? request.query.tenantId : user.tenantId!;
      const entries = await listAuditRows(platform.database.db, {
        tenantId,
        limit: pageSize(request.query.limit),
        before: request.query.before,
      });
      return { entries: entries.map((entry) => ({ ...entry, at: entry.at.toISOString() })) };
    },
  );

  // Tenant admins: their own tenant's keys, webhook secret, settings and deliveries.
  app.get(
    '/tenants/:tenantId/api-keys',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams } },
    async (request) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      const keys = await listTenantApiKeys(platform, request.params.tenantId);
      return { keys: keys.map(keyView) };
    },
  );

  app.post(
    '/tenants/:tenantId/api-keys',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams, body: CreateKeyBody } },
    async (request, reply) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      const created = await createApiKeyAudited(
        platform,
        requestActor(request),
        request.params.tenantId,
        request.body.label,
      );
      reply.code(201);
      return created;
    },
  );

  app.post(
    '/tenants/:tenantId/api-keys/:keyId/disable',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: KeyParams } },
    async (request) => {
      const { tenantId, keyId } = request.params;
      requireRole(request, ['tenant_admin'], tenantId);
      return { key: keyView(await disableApiKeyAudited(platform, requestActor(request), keyId, tenantId)) };
    },
  );

  app.post(
    '/tenants/:tenantId/webhook-secret/rotate',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams } },
    async (request) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      return rotateWebhookSecretAudited(platform, requestActor(request), request.params.tenantId);
    },
  );

  app.get(
    '/tenants/:tenantId/settings',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams } },
    async (request) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      return { settings: await readTenantSettings(platform, request.params.tenantId) };
    },
  );

  app.put(
    '/tenants/:tenantId/settings',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams, body: SettingsBody } },
    async (request) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      const settings = await writeTenantSettings(
        platform,
        requestActor(request),
        request.params.tenantId,
        request.body.settings,
      );
      return { settings };
    },
  );

  app.put(
    '/tenants/:tenantId/logo',
    {
      ...onlyRoles(['tenant_admin']),
      bodyLimit: Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 1024,
      schema: { hide, params: TenantParams, body: LogoBody },
    },
    async (request) => {
      requireRole(request, ['tenant_admin'], request.params.tenantId);
      const { image } = request.body;
      return setTenantLogo(
        platform,
        requestActor(request),
        request.params.tenantId,
        image === null ? null : Buffer.from(image, 'base64'),
      );
    },
  );

  /**
   * The webhook log's readers: the tenant's admin, and operators (any existing tenant, read-only,
   * each read an audit row, as their session reads), who are the ones a tenant asks why a
   * delivery failed. Sending and redelivering stay the tenant admin's.
   */
  async function webhookLogReader(
    request: Parameters<typeof requestActor>[0],
    tenantId: string,
    read: { action: string; targetType: string; targetId: string | null },
  ) {
    const user = requireRole(request, WEBHOOK_LOG_READERS, tenantId);
    if (user.role !== 'operator') return;
    if (!(await findTenant(platform.database.db, tenantId))) throw new AppError('NotFound', 'No such tenant');
    await recordAudit(platform.database.db, platform, { ...requestActor(request), tenantId, ...read });
  }

  app.get(
    '/tenants/:tenantId/webhook-events',
    { ...onlyRoles(WEBHOOK_LOG_READERS), schema: { hide, params: TenantParams, querystring: EventsQuery } },
    async (request) => {
      await webhookLogReader(request, request.params.tenantId, {
        action: 'webhook_event.list',
        targetType: 'tenant',
        targetId: request.params.tenantId,
      });
      const { status, limit, before } = request.query;
      const events = await listTenantWebhookEvents(platform, {
        tenantId: request.params.tenantId,
        state: status,
        limit: pageSize(limit),
        before: before === undefined ? undefined : new Date(before),
      });
      return { events: events.map(eventSummary) };
    },
  );

  /** The tenant's own event, or 404 (another tenant's event id is unknown here). */
  async function tenantEvent(tenantId: string, eventId: string) {
    const event = await showWebhookEvent(platform, eventId);
    if (!event || event.tenantId !== tenantId) throw new AppError('NotFound', 'no such webhook event');
    return event;
  }

  app.get(
    '/tenants/:tenantId/webhook-events/:eventId',
    { ...onlyRoles(WEBHOOK_LOG_READERS), schema: { hide, params: EventParams } },
    async (request) => {
      const event = await tenantEvent(request.params.tenantId, request.params.eventId);
      await webhookLogReader(request, request.params.tenantId, {
        action: 'webhook_event.view',
        targetType: 'webhook_event',
        targetId: event.eventId,
      });
      return eventDetail(event, await readWebhookEventBody(platform, event.eventId));
    },
  );

  app.post(
    '/tenants/:tenantId/webhook-test',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: TenantParams, body: WebhookTestBody } },
    async (request) => {
      const { tenantId } = request.params;
      requireRole(request, ['tenant_admin'], tenantId);
      const { url } = request.body;
      // The rules of a session's callbackUrl: a test reaches only where real events may go.
      const problem = callbackUrlProblem(url, platform.config.env);
      if (problem)
        throw new AppError('ValidationFailed', `url ${problem}`, [{ path: '/url', message: problem }]);
      const tenant = await findTenant(platform.database.db, tenantId);
      if (!tenant) throw new AppError('NotFound', 'no such tenant');
      if (!isCallbackUrlAllowed(url, tenant.callbackUrlPrefixes)) throw new AppError('CallbackUrlNotAllowed');
      const sent = await sendTestWebhook(platform, { tenantId, url });
      const { result } = sent;
      await recordAudit(platform.database.db, platform, {
        ...requestActor(request),
        tenantId,
        action: 'webhook.test',
        targetType: 'tenant',
        targetId: tenantId,
        after: { url, outcome: result.outcome, statusCode: result.status },
      });
      return {
        test: {
          url,
          event: sent.event,
          deliveryId: sent.deliveryId,
          requestBody: sent.requestBody,
          outcome: result.outcome,
          statusCode: result.status,
          error: result.errorClass ? `${result.errorClass}: ${result.errorMessage ?? ''}` : null,
          durationMs: result.durationMs,
          responseBody: result.responseSnippet,
          responseBodyTruncated: isSnippetFull(result.responseSnippet),
        },
      };
    },
  );

  app.post(
    '/tenants/:tenantId/webhook-events/:eventId/redeliver',
    { ...onlyRoles(['tenant_admin']), schema: { hide, params: EventParams } },
    async (request, reply) => {
      const { tenantId, eventId } = request.params;
      requireRole(request, ['tenant_admin'], tenantId);
      const before = await tenantEvent(tenantId, eventId);
      // One attempt now, as `mimoto webhooks redeliver`; it records itself, so the audit row follows it.
      let outcome: Awaited<ReturnType<typeof redeliverWebhookEvent>>;
      try {
        outcome = await redeliverWebhookEvent(platform, eventId);
      } catch (error) {
        if (error instanceof WebhookEventBusyError) throw new AppError('WebhookEventBusy');
        throw error;
      }
      const after = await tenantEvent(tenantId, eventId);
      await recordAudit(platform.database.db, platform, {
        ...requestActor(request),
        tenantId,
        action: 'webhook_event.redeliver',
        targetType: 'webhook_event',
        targetId: eventId,
        before: { status: before.state, attempts: before.attempts.length },
        after: {
          status: after.state,
          attempts: after.attempts.length,
          outcome: outcome?.result.outcome ?? null,
        },
      });
      reply.code(202);
      return { event: eventSummary(after) };
    },
  );
}
