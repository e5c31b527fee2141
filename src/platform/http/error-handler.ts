// The one place that turns any thrown error into an HTTP answer (docs/decisions.md "Errors").
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorDetail } from './app-error.ts';
import { ERRORS, type ErrorCode } from './errors.ts';

/** Fastify's own errors that are the client's fault, by their code. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PayloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BadRequest',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BadRequest',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BadRequest',
  FST_ERR_BAD_URL: 'BadRequest',
};

function toAppError(error: FastifyError): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const details: ErrorDetail[] = error.validation.map((issue) => ({
      path: `${error.validationContext ?? ''}${issue.instancePath}`,
      message: issue.message ?? 'is not valid',
    }));
    return new AppError('ValidationFailed', `The request is not valid: ${describe(details)}`, details);
  }
  const code = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (code) return new AppError(code, code === 'BadRequest' ? error.message : undefined);
  if (error.statusCode === 413) return new AppError('PayloadTooLarge');
  if (error.statusCode === 415) return new AppError('UnsupportedMediaType');
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

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (!appError) {
      // 5xx bodies never carry internals; the log has them.
      request.log.error({ err: error }, 'unhandled error');
      const code = error.statusCode === 503 ? 'ServiceUnavailable' : 'InternalError';
      return reply.code(ERRORS[code].status).send(sendError(new AppError(code)));
    }
    if (appError.headers) reply.headers(appError.headers);
    return reply.code(appError.statusCode).send(sendError(appError));
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        sendError(new AppError('NotFound', `No route for ${request.method} ${request.url.slice(0, 200)}`)),
      );
  });
}
