// The hosted flow's browser app (web/, built by `npm run build:web` into dist/web): its page at
// /verify/flow and its files (scripts, styles, Human's face models, tfjs wasm) under
// /verify/assets/. The page's CSP allows our own origin only — no inline script, no third party;
// 'wasm-unsafe-eval' because Human's wasm backend compiles WebAssembly (docs/hosted-flow-api.md).
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { builtApp, builtAppCsp } from '../platform/http/built-app.ts';
import type { Language } from './flow-messages.ts';
import { sendPage } from './flow-pages.ts';

export const FLOW_APP_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export const FLOW_APP_CSP = builtAppCsp({ wasm: true });

const flowApp = builtApp(FLOW_APP_DIR, '/verify/assets/', FLOW_APP_CSP);

/** Static files of the built app; nothing is registered when it was not built (API-only tests). */
export async function registerFlowAppAssets(scope: FastifyInstance) {
  await flowApp.registerAssets(scope);
}

/** The app's page, or the server-rendered placeholder when the app was not built. */
export function sendFlowApp(reply: FastifyReply, language: Language) {
  if (!flowApp.shell()) return sendPage(reply, 200, 'flowPlaceholder', language);
  return flowApp.sendShell(reply, language);
}
