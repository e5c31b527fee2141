// The guard in front of every /v1 route (interface §5, §7): API key, then the per-key rate limit.
// It runs on request, before the body is read, so an unauthenticated caller cannot make us parse.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../platform/http/app-error.ts';
import { TokenBuckets } from '../platform/http/token-bucket.ts';
import type { Platform } from '../platform/platform.ts';
import { type ApiCaller, authenticateApiKey, authenticateRecentApiKey } from './api-key-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller?: ApiCaller;
  }
}

/**
 * Route options of a route whose write statement checks the key itself (authenticateRecentApiKey):
 * its guard may take a key this process already knows from memory.
 */
export const API_KEY_RECHECKED_BY_WRITE = { config: { apiKeyRecheckedByWrite: true } } as const;

export function requireApiKey(app: FastifyInstance, platform: Platform) {
  const limit = platform.config.rateLimit;
  const buckets = limit && new TokenBuckets(limit.perSecond, limit.burst);
  app.addHook('onRequest', async (request, reply) => {
    const options = request.routeOptions.config as { apiKeyRecheckedByWrite?: boolean } | undefined;
    const caller = options?.apiKeyRecheckedByWrite
      ? await authenticateRecentApiKey(platform, request.headers.authorization)
      : await authenticateApiKey(platform, request.headers.authorization);
    if (buckets) {
      const taken = buckets.take(caller.keyId);
      reply.header('RateLimit-Limit', String(limit.burst));
      reply.header('RateLimit-Remaining', String(taken.remaining));
      if (!taken.allowed) {
        throw new AppError(
          'TooManyRequests',
          `Too many requests; retry after ${taken.retryAfterSeconds} s`,
          undefined,
          {
            'Retry-After': String(taken.retryAfterSeconds),
          },
        );
      }
    }
    request.apiCaller = caller;
  });
}

/** The caller of a request that passed requireApiKey. */
export function apiCaller(request: FastifyRequest): ApiCaller {
  if (!request.apiCaller) throw new AppError('Unauthorized');
  return request.apiCaller;
}
