// One error type with a stable code; errors.ts is the one place that maps codes to HTTP.
import { ERRORS, type ErrorCode } from './errors.ts';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERRORS[code].status;
  }
}
