// The one place that turns any thrown error into an HTTP answer (docs/decisions.md "Errors").
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/database-availability.ts';
import { AppError, type ErrorDetail } from './app-error.ts';
import type { ErrorCode } from './errors.ts';

/** Fastify's own errors that are the client's fault, by their code. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PayloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BadRequest',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BadRequest',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BadRequest',
  FST_ERR_BAD_URL: 'BadRequest',
};

/**
 * The AppError a thrown error answers with. A Fastify error of the client's making keeps its
 * meaning (validation, body size, media type, a malformed body or URL; any other 400 is BadRequest
 * without Fastify's text); anything else is `unexpected`: logged, and answered 500 (503 while
 * closing) with nothing internal in the body.
 */
export function toAppError(error: FastifyError): { appError: AppError; unexpected: boolean } {
  const known = clientError(error);
  if (known) return { appError: known, unexpected: false };
  // The database went away (a restart, a fail-over): nothing was done, and the client may try
  // again (the SDK does on 503). The outage itself is logged once by the database's availability.
  if (isDatabaseUnavailable(error)) return { appError: databaseUnavailable(), unexpected: false };
  return {
    appError: new AppError(error.statusCode === 503 ? 'ServiceUnavailable' : 'InternalError'),
    unexpected: true,
  };
}

/** Seconds a client is asked to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): AppError {
  return new AppError('ServiceUnavailable', undefined, undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });
}

function clientError(error: FastifyError): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const details: ErrorDetail[] = error.validation.map((issue) => {
      const path = `${error.validationContext ?? ''}${issue.instancePath}`;
      // Ajv's "must NOT have additional properties" names no field; a typo (callback_url,
      // redirectUrl) is found only when the answer says which one.
      const unknown = issue.keyword === 'additionalProperties' ? issue.params?.additionalProperty : undefined;
      if (typeof unknown === 'string')
        return { path: `${path}/${unknown}`, message: `is not a known field (${unknown})` };
      return { path, message: issue.message ?? 'is not valid' };
    });
    return new AppError('ValidationFailed', `The request is not valid: ${describe(details)}`, details);
  }
  const code = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (code) return new AppError(code, code === 'BadRequest' ? error.message : undefined);
  if (error.statusCode === 413) return new AppError('PayloadTooLarge');
  if (error.statusCode === 415) return new AppError('UnsupportedMediaType');
  if (error.statusCode === 400) return new AppError('BadRequest');
  return undefined;
}

function describe(details: ErrorDetail[]): string {
  return details
    .slice(0, 3)
    .map((d) => `${d.path || 'body'} ${d.message}`)
    .join('; ');
}

export function sendError(error: AppError) {
  return {
    error: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The body of an error answer: the API's `{error, message[, details]}` unless a scope words it its own way. */
export type ErrorBody = (request: FastifyRequest, error: AppError) => unknown;

/**
 * Answers every error thrown in `app` (and the scopes it encapsulates) by toAppError; a scope that
 * words its answers differently (the hosted flow, in the user's language) installs it again with
 * its own body.
 */
export function installErrorHandler(
  app: FastifyInstance,
  body: ErrorBody = (_request, error) => sendError(error),
) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { appError, unexpected } = toAppError(error);
    // 5xx bodies never carry internals; the log has them.
    if (unexpected) request.log.error({ err: error }, 'unhandled error');
    if (appError.headers) reply.headers(appError.headers);
    return reply.code(appError.statusCode).send(body(request, appError));
  });
}

export function installNotFoundHandler(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        sendError(new AppError('NotFound', `No route for ${request.method} ${request.url.slice(0, 200)}`)),
      );
  });
}
