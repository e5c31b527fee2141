// helmet's default security headers on every response. The headers do not depend on the request, so
// helmet runs once at load against a recorder and each request only sets the recorded pairs: building
// helmet's middleware per request (what @fastify/helmet does) cost several per cent of a
// create-session's CPU.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

function recordHelmetHeaders(): readonly (readonly [string, string])[] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string) {
      headers.set(name, value);
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  let finished = false;
  helmet()({} as never, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middleware is synchronous; were it ever not, the headers recorded would be incomplete.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return [...headers];
}

const SECURITY_HEADERS = recordHelmetHeaders();

/**
 * On the raw response, as helmet does: a header the route sets through the reply still wins, and a
 * route that writes the raw response keeps them.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of SECURITY_HEADERS) raw.setHeader(name, value);
    done();
  });
}
