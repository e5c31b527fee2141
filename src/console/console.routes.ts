// The console's HTTP surface (docs/console-api.md): a scope at /console/api with the public
// sign-in routes and a nested signed-in scope (cookie → user, CSRF and Origin checks) holding the
// admin routes and the review routes; the browser app's pages beside it.
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.ts';
import { registerReviewConsoleRoutes } from '../review/index.ts';
import { registerConsolePages } from './console-pages.ts';

export async function registerConsole(app: FastifyInstance, platform: Platform): Promise<void> {
  await app.register(async (api) => consoleApiScope(api, platform), { prefix: '/console/api' });
  await registerConsolePages(app, platform);
}

async function consoleApiScope(api: FastifyInstance, platform: Platform) {
  await api.register(cookie);
  api.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  await api.register(async (signedIn) => {
    registerReviewConsoleRoutes(signedIn, platform);
  });
}
