// The console's browser app (web/console, built by `npm run build:web` into dist/console): the
// same HTML shell at /console and at every page path below it (the app routes in the browser, so a
// reload or a one-time link such as /console/set-password?token=… opens the right screen), its files
// under /console/assets/. Same strict CSP as the hosted flow, without wasm (docs/console-api.md).
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { negotiateLanguage } from '../hosted-flow/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { builtApp, builtAppCsp } from '../platform/http/built-app.ts';
import type { Platform } from '../platform/platform.ts';

export const CONSOLE_APP_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));
export const CONSOLE_APP_CSP = builtAppCsp({ wasm: false });

const consoleApp = builtApp(CONSOLE_APP_DIR, '/console/assets/', CONSOLE_APP_CSP);

export async function registerConsolePages(app: FastifyInstance, _platform: Platform): Promise<void> {
  await consoleApp.registerAssets(app);
  const sendShell = async (request: FastifyRequest, reply: Parameters<typeof consoleApp.sendShell>[0]) => {
    // Unknown API routes and missing files stay JSON 404s, never the HTML shell.
    const pathname = request.url.split('?')[0] ?? '';
    if (/^\/console\/(api|assets)(\/|$)/.test(pathname)) throw new AppError('NotFound');
    // Without a build (API-only checkouts) there is no page to serve: say so rather than a blank page.
    if (!consoleApp.shell()) throw new AppError('ServiceUnavailable', 'The console app is not built');
    // The shell starts in the language of Accept-Language; the app's switch takes over from there.
    reply.header('cache-control', 'no-store');
    return consoleApp.sendShell(reply, negotiateLanguage(request));
  };
  app.get('/console', { schema: { hide: true } }, sendShell);
  app.get('/console/*', { schema: { hide: true } }, sendShell);
}
