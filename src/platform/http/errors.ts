// Every error the API answers with, by stable code (design.md "Errors"). The body is always
// { error: <code>, message: <text> } plus `details` for validation; 401 and 403 bodies are exactly
// those of interface §7. docs and the OpenAPI document are generated from this table.
export const ERRORS = {
  BadRequest: { status: 400, message: 'The request body is not valid JSON' },
  ValidationFailed: { status: 400, message: 'The request is not valid' },
  Unauthorized: { status: 401, message: 'Invalid or missing API key' },
  Forbidden: { status: 403, message: 'Access denied to this resource' },
  NotFound: { status: 404, message: 'Not found' },
  SessionNotSubmitted: { status: 409, message: 'The session has no submission to process yet' },
  DecisionFinal: { status: 409, message: "A reviewer's decision is final" },
  PayloadTooLarge: { status: 413, message: 'The request body is too large' },
  UriTooLong: { status: 414, message: 'The request URL is too long' },
  UnsupportedMediaType: { status: 415, message: 'The request body must be application/json' },
  CallbackUrlNotAllowed: { status: 422, message: "callbackUrl is not on the tenant's allow list" },
  TooManyRequests: { status: 429, message: 'Too many requests' },
  InternalError: { status: 500, message: 'Something went wrong on our side' },
  ServiceUnavailable: { status: 503, message: 'The service is not ready' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
