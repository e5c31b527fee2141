// Bounds on how long a client may take to send its request (config.http), so that a slow or
// stalled client — or a thousand of them — cannot hold connections open. Node enforces the header
// and whole-request limits itself (answering 408 and closing), but only checks them every
// `connectionsCheckingInterval` (30 s by default: a 60 s header limit cut at up to 90 s), so the
// interval is tied to the limits here. Node has no limit on how slowly a body may arrive within the
// whole-request limit: a body that has all but stopped is cut by the guard below. Both hold for a
// request already answered whose body is still being drained (a wrong API key's 401 before its
// upload is read: platform/http/unread-body.ts).
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HttpTimeouts } from '../../config.ts';

/** The server options of `Fastify({...})` that carry the limits. */
export function serverTimeoutOptions(timeouts: HttpTimeouts) {
  const checkEveryMs = Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 4)));
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: checkEveryMs },
  };
}

interface BodyWatch {
  request: FastifyRequest;
  startedAt: number;
  received: number;
}

const TIMEOUT_BODY = JSON.stringify({
  error: 'RequestTimeout',
  message: 'The request body arrived too slowly',
});
const REQUEST_TIMEOUT_ANSWER = `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n${TIMEOUT_BODY}`;

/**
 * Cuts a request whose body arrives slower than `bodyMinBytesPerSecond` on average once
 * `bodyGraceMs` have passed since its headers: answered 408 when nothing was answered yet, and the
 * connection closed. Progress is counted per chunk and compared once a second for all requests
 * together (one timer for the server, not one per request).
 */
export function installSlowBodyGuard(app: FastifyInstance, timeouts: HttpTimeouts) {
  if (timeouts.bodyMinBytesPerSecond === 0) return;
  const watched = new Set<BodyWatch>();
  const tickMs = Math.max(50, Math.min(1000, Math.floor(timeouts.bodyGraceMs / 2) || 50));
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    for (const watch of watched) {
      const raw = watch.request.raw;
      const socket = raw.socket;
      if (raw.complete || raw.destroyed || !socket || socket.destroyed) {
        watched.delete(watch);
        continue;
      }
      const elapsedMs = now - watch.startedAt;
      if (elapsedMs <= timeouts.bodyGraceMs) continue;
      const { received } = watch;
      if (received >= (timeouts.bodyMinBytesPerSecond * elapsedMs) / 1000) continue;
      watched.delete(watch);
      watch.request.log.info(
        { receivedBytes: received, elapsedMs },
        'request body too slow: connection closed',
      );
      if (!headersSent(watch.request)) socket.end(REQUEST_TIMEOUT_ANSWER);
      else socket.end();
      // A client that does not read the answer either: gone within a second regardless.
      setTimeout(() => socket.destroy(), 1000).unref();
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const hasBody =
      raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    // Only a real connection (app.inject's requests have a stand-in socket and their whole body).
    if (!hasBody || raw.complete || !(raw.socket instanceof net.Socket)) return;
    const watch: BodyWatch = { request, startedAt: Date.now(), received: 0 };
    // Node's HTTP parser hands each body chunk to push() whether or not anyone reads it yet; the
    // socket's own byte count does not move while the parser consumes it natively.
    const push = raw.push;
    raw.push = function countedPush(this: typeof raw, chunk: unknown, encoding?: BufferEncoding) {
      if (chunk) watch.received += (chunk as Buffer).length;
      return push.call(this, chunk, encoding);
    };
    watched.add(watch);
    if (!timer) {
      timer = setInterval(check, tickMs);
      timer.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    watched.clear();
  });
}

function headersSent(request: FastifyRequest): boolean {
  // The reply of this request, when one was started, owns the socket's output.
  return (
    (request.raw.socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage
      ?.headersSent === true
  );
}
