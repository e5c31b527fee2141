// GET /docs: the OpenAPI document (guides, routes, webhooks, examples) rendered in the browser by
// Swagger UI (the swagger-ui-dist package), served from our own origin: no CDN, no inline script,
// "try it out" off (the API is server-to-server and takes an API key no browser should hold).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: [],
    validatorUrl: null,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mimoto API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head><body>
<noscript><p>The reference needs JavaScript. The same content is machine-readable at
<a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1) and <a href="/schemas/webhook-payload.json">/schemas/webhook-payload.json</a>.</p></noscript>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body></html>
`;

const CSS =
  'body{margin:0} .swagger-ui .info .markdown table td, .swagger-ui .info .markdown table th{padding:4px 8px;border:1px solid #ddd}\n';

/** Scripts and styles from this origin only; images inline (Swagger UI's icons are data: URIs). */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function assetDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

export function registerApiDocs(app: FastifyInstance): void {
  // Resolved at the first request, so that an install without the renderer breaks /docs only.
  let directory: string | undefined;
  const cache = new Map<string, Buffer>();
  const read = (name: keyof typeof ASSETS) => {
    let bytes = cache.get(name);
    if (!bytes) {
      directory ??= assetDirectory();
      bytes = fs.readFileSync(path.join(directory, name));
      cache.set(name, bytes);
    }
    return bytes;
  };
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', DOCS_CSP);
    return PAGE;
  });
  app.get('/docs/assets/docs.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(INIT_SCRIPT),
  );
  app.get('/docs/assets/docs.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(CSS),
  );
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/docs/assets/${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'public, max-age=3600')
        .send(read(name as keyof typeof ASSETS)),
    );
  }
}
