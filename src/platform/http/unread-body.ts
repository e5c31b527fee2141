// A request answered before its body was read to the end (an upload refused at its first part: a
// wrong field name, a second file, an unknown challenge) leaves the rest of the body in the
// connection. Node discards it by itself only when nothing started reading; once the multipart
// parser has, the bytes stay unread and the next request on that keep-alive connection is never
// parsed. So the rest is read and discarded here: a body whose declared length is within
// `drainLimitBytes` is drained and the connection stays open; a larger or chunked one is
// discarded while the answer is sent with `Connection: close`, and Node closes the socket then.
import type { FastifyInstance, FastifyRequest } from 'fastify';

function hasUnreadBody(request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Starts discarding what is left of the body; whether the connection can be kept. */
function discardRest(request: FastifyRequest, drainLimitBytes: number): boolean {
  const raw = request.raw;
  // The parser piped into may have stopped reading (backpressure): it gets nothing more.
  raw.unpipe();
  raw.resume();
  const declared = Number(raw.headers['content-length']);
  return raw.headers['transfer-encoding'] === undefined && declared <= drainLimitBytes;
}

export function installUnreadBodyGuard(app: FastifyInstance, drainLimitBytes: number) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (hasUnreadBody(request) && !discardRest(request, drainLimitBytes)) {
      reply.header('connection', 'close');
    }
    return payload;
  });
}
