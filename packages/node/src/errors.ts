// The SDK's errors: one class per kind of failure, each with what a caller needs to act on it.
import type { ErrorCode, OperationId, Operations } from './types.gen.js';

export class MimotoError extends Error {
  override name = 'MimotoError';
}

/** The API answered with an error status. `code` is the body's `error` field. */
export class MimotoApiError<Code extends string = ErrorCode> extends MimotoError {
  override name = 'MimotoApiError';
  constructor(
    /** The operation that failed, e.g. 'getSession'. */
    readonly operation: OperationId,
    /** HTTP status. */
    readonly status: number,
    /** Stable error code (`UnexpectedResponse` when the body was not the API's error JSON). */
    readonly code: Code | 'UnexpectedResponse',
    message: string,
    /** Per-field problems of a ValidationFailed. */
    readonly details: { path: string; message: string }[] | undefined,
    /** Seconds to wait, from Retry-After, when the API gave one (429, 503). */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`${operation}: ${status} ${code}: ${message}`);
  }
}

/** No answer: the connection failed or the request timed out (after the retries, if any). */
export class MimotoConnectionError extends MimotoError {
  override name = 'MimotoConnectionError';
  constructor(
    readonly operation: OperationId,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
  }
}

/**
 * Narrows an error to the API error of one operation, whose `code` is then one of the codes that
 * operation can answer with (from the OpenAPI document).
 */
export function isApiError<Op extends OperationId>(
  error: unknown,
  operation?: Op,
): error is MimotoApiError<Operations[Op]['errors']> {
  return error instanceof MimotoApiError && (operation === undefined || error.operation === operation);
}
