// Reading multipart uploads (the hosted flow's document and liveness routes). Everything that
// goes wrong while parsing is the client's fault and is answered 400/413 with the usual JSON body
// (docs/decisions.md "Errors"): no boundary, a body cut off early, broken part headers, too many parts.
// The size is refused from Content-Length before a byte is read; parts are handed over one at a
// time (the caller reads each file before the next arrives), so nothing is buffered ahead.
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

export interface MultipartLimits {
  /** The whole request, headers of the parts included. */
  maxRequestBytes: number;
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  maxFieldBytes: number;
}

/** An error raised while parsing, as the answer the client gets. */
export function multipartError(error: unknown, tooLarge: () => AppError): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('ValidationFailed', 'The upload has too many parts');
  }
  return new AppError('BadRequest', 'The upload is not a valid multipart form');
}

const payloadTooLarge = () => new AppError('PayloadTooLarge');

/**
 * Checks the request's type and declared size; nothing of the body is read. `tooLarge` names what
 * is too large (a single-image upload says the image is).
 */
export function requireMultipart(
  request: FastifyRequest,
  limits: Pick<MultipartLimits, 'maxRequestBytes'>,
  tooLarge: () => AppError = payloadTooLarge,
) {
  if (!request.isMultipart())
    throw new AppError('UnsupportedMediaType', 'Send the upload as multipart/form-data');
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(String(request.headers['content-type']))) {
    throw new AppError('BadRequest', 'The upload is not a valid multipart form (no boundary)');
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limits.maxRequestBytes) throw tooLarge();
}

/**
 * The parts of a multipart request in order, parse errors as AppErrors. A file part must be read
 * (`readFile`) or the iteration stalls. The bytes received are counted, so a chunked body is
 * held to `maxRequestBytes` too. `tooLarge` answers a file over its limit, `requestTooLarge` a
 * whole request over its own.
 */
export async function* multipartParts(
  request: FastifyRequest,
  limits: MultipartLimits,
  tooLarge: () => AppError = payloadTooLarge,
  requestTooLarge: () => AppError = payloadTooLarge,
): AsyncGenerator<Multipart> {
  requireMultipart(request, limits, requestTooLarge);
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
  };
  request.raw.on('data', count);
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: limits.maxFields,
        fieldSize: limits.maxFieldBytes,
        parts: limits.maxFiles + limits.maxFields,
        headerPairs: 20,
      },
    });
    while (true) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        if (received > limits.maxRequestBytes) throw requestTooLarge();
        throw multipartError(error, tooLarge);
      }
      if (next.done) return;
      // Checked between parts: a chunked body (no Content-Length) overshoots by one part at most.
      if (received > limits.maxRequestBytes) throw requestTooLarge();
      yield next.value;
    }
  } finally {
    request.raw.off('data', count);
  }
}

/** A file part's bytes (at most the file limit), parse errors as AppErrors. */
export async function readFile(part: MultipartFile, tooLarge: () => AppError): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (error) {
    throw multipartError(error, tooLarge);
  }
}
