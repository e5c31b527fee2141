// A browser app built by Vite (the hosted flow's dist/web, the console's dist/console): its HTML
// shell and its static files, served under a strict CSP — our own origin only, no inline script,
// no third party, never framed. Nothing is registered when the app was not built (API-only tests).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** `wasm` adds 'wasm-unsafe-eval' for apps that compile WebAssembly (Human's tfjs backend). */
export function builtAppCsp({ wasm }: { wasm: boolean }): string {
  return [
    "default-src 'none'",
    wasm ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export interface BuiltApp {
  /** The build's index.html, read once; null when the app was not built. */
  shell(): string | null;
  /** Serves the build's files under `prefix` (e.g. `/console/assets/`). */
  registerAssets(scope: FastifyInstance): Promise<void>;
  /** Sends the shell with the app's CSP; `lang` replaces the shell's `<html lang>` attribute. */
  sendShell(reply: FastifyReply, lang?: string): FastifyReply;
}

export function builtApp(dir: string, prefix: string, csp: string): BuiltApp {
  let cached: string | null = null;
  const shell = () => {
    const file = path.join(dir, 'index.html');
    cached ??= existsSync(file) ? readFileSync(file, 'utf8') : null;
    return cached;
  };
  return {
    shell,
    async registerAssets(scope) {
      if (!existsSync(dir)) return;
      await scope.register(fastifyStatic, {
        root: dir,
        prefix,
        decorateReply: false,
        index: false,
        dotfiles: 'deny',
      });
    },
    sendShell(reply, lang) {
      const html = shell() ?? '';
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', csp)
        .send(lang ? html.replace(/<html lang="[^"]*"/, `<html lang="${lang}"`) : html);
    },
  };
}
