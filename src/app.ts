// buildApp: every plugin, route and the one error handler, separate from the process that listens
// (style.md), so tests drive it with app.inject().
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { apiDocumentExtras } from './api-document.ts';
import { requireApiKey } from './api-keys/index.ts';
import { registerConsole } from './console/index.ts';
import { MAX_UPLOAD_REQUEST_BYTES, registerHostedFlow } from './hosted-flow/index.ts';
import { registerApiDocs } from './platform/http/api-docs-page.ts';
import { AppError } from './platform/http/app-error.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  installErrorHandler,
  installNotFoundHandler,
  sendError,
} from './platform/http/error-handler.ts';
import { loggerOptions } from './platform/http/log-redaction.ts';
import { registerMetrics } from './platform/http/metrics.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { parseJsonBody } from './platform/http/parse-json-body.ts';
import { installSecurityHeaders } from './platform/http/security-headers.ts';
import { installSlowBodyGuard, serverTimeoutOptions } from './platform/http/slow-clients.ts';
import { installUnreadBodyGuard } from './platform/http/unread-body.ts';
import type { Platform } from './platform/platform.ts';
import { registerReviewApiRoutes } from './review/index.ts';
import { registerSessionRoutes } from './session-api/index.ts';
import { publishedWebhookPayloadSchema, WEBHOOK_PAYLOAD_SCHEMA_ID } from './webhooks/index.ts';

/** Interface §8: JSON bodies over 64 KB are refused with 413. */
export const JSON_BODY_LIMIT = 64 * 1024;

export interface BuildAppOptions {
  /** Where the log lines go (default stdout); the log-secrets test reads them. */
  logStream?: { write(line: string): void };
}

export async function buildApp(platform: Platform, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = platform;
  const app = Fastify({
    // Never a key, cookie, one-time token, hand-off code or personal data (log-redaction.ts).
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    // Header, whole-request and body-rate limits: a slow client cannot hold a connection (slow-clients.ts).
    ...serverTimeoutOptions(config.http),
    bodyLimit: JSON_BODY_LIMIT,
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, useDefaults: false },
    },
    return503OnClosing: true,
    // Errors the router raises before any route runs (a path parameter too long, a bad URL).
    frameworkErrors: (error, _request, reply) => {
      const code = error.statusCode === 414 ? 'UriTooLong' : 'BadRequest';
      const appError = new AppError(code, code === 'UriTooLong' ? undefined : 'The request URL is not valid');
      (reply as FastifyReply).code(appError.statusCode).send(sendError(appError));
    },
    requestIdHeader: false,
  });
  installErrorHandler(app);
  installNotFoundHandler(app);
  // A body left unread by an early answer is drained (up to the largest upload) or the connection
  // closed, so the next request on a keep-alive connection is answered (unread-body.ts).
  installUnreadBodyGuard(app, MAX_UPLOAD_REQUEST_BYTES);
  installSlowBodyGuard(app, config.http);

  // Only JSON (strict parser) at the root; the hosted flow adds its own parsers in its scope.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // A route whose body is optional takes an empty one as none (session.routes.ts OPTIONAL_BODY).
    const config = request.routeOptions.config as { emptyBodyAllowed?: boolean } | undefined;
    if ((body as Buffer).length === 0 && config?.emptyBodyAllowed) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  installSecurityHeaders(app);
  await registerOpenApi(app, config.publicUrl, apiDocumentExtras());
  registerMetrics(app);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await platform.database.executeSql('SELECT 1');
      return { status: 'ready' };
    } catch {
      reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return { status: 'unavailable', message: 'database unreachable' };
    }
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerApiDocs(app);
  app.get(WEBHOOK_PAYLOAD_SCHEMA_ID, { schema: { hide: true } }, async (_request, reply) => {
    reply.type('application/schema+json');
    return publishedWebhookPayloadSchema();
  });

  // The tenant API (interface §4): server-to-server, so no CORS headers at all, preflight included.
  await app.register(async (v1) => {
    requireApiKey(v1, platform);
    registerSessionRoutes(v1, platform);
    registerReviewApiRoutes(v1, platform);
  });
  await registerHostedFlow(app, platform);
  await registerConsole(app, platform);
  return app;
}
