// The hosted flow's browser app (web/, built by `npm run build:web` into dist/web): its page at
// /verify/flow and its files (scripts, styles, Human's face models, tfjs wasm) under
// /verify/assets/. The page's CSP allows our own origin only — no inline script, no third party;
// 'wasm-unsafe-eval' because Human's wasm backend compiles WebAssembly (docs/hosted-flow-api.md).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Language } from './flow-messages.ts';
import { sendPage } from './flow-pages.ts';

export const FLOW_APP_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export const FLOW_APP_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

let indexHtml: string | null = null;

function readIndexHtml(): string | null {
  const file = path.join(FLOW_APP_DIR, 'index.html');
  indexHtml ??= existsSync(file) ? readFileSync(file, 'utf8') : null;
  return indexHtml;
}

/** Static files of the built app; nothing is registered when it was not built (API-only tests). */
export async function registerFlowAppAssets(scope: FastifyInstance) {
  if (!existsSync(FLOW_APP_DIR)) return;
  await scope.register(fastifyStatic, {
    root: FLOW_APP_DIR,
    prefix: '/verify/assets/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
  });
}

/** The app's page, or the server-rendered placeholder when the app was not built. */
export function sendFlowApp(reply: FastifyReply, language: Language) {
  const html = readIndexHtml();
  if (!html) return sendPage(reply, 200, 'flowPlaceholder', language);
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', FLOW_APP_CSP)
    .send(html);
}
