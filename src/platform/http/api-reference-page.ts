// GET /docs: a readable reference rendered on the server from the OpenAPI document itself, so it
// cannot drift from the routes, plus the rules no schema carries (the link's lifetime, the
// callback URL's two uses, the webhook signature), in the words of docs/api-reference.md §1, §6
// and §8. No scripts, no third-party assets.
import { ERRORS } from './errors.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
  description?: string;
  format?: string;
  maxLength?: number;
  $ref?: string;
};
type Operation = {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
type OpenApiDocument = {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.replace(/^#\/components\/schemas\//, '');
  if (schema.anyOf) {
    const consts = schema.anyOf.filter((s) => s.const !== undefined).map((s) => JSON.stringify(s.const));
    if (consts.length === schema.anyOf.length) return consts.join(' | ');
    return schema.anyOf.map(typeOf).join(' | ');
  }
  if (schema.type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  const base = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return schema.format ? `${base} (${schema.format})` : base;
}

function rows(schema: Schema | undefined, prefix = '', depth = 0): string {
  const objectSchema = schema?.anyOf?.find((s) => s.properties) ?? schema;
  if (!objectSchema?.properties || depth > 3) return '';
  return Object.entries(objectSchema.properties)
    .map(([name, property]) => {
      const notes = [
        property.description,
        property.maxLength ? `at most ${property.maxLength} characters` : '',
      ]
        .filter(Boolean)
        .join('; ');
      const row = `<tr><td><code>${escapeHtml(prefix + name)}</code></td><td>${escapeHtml(typeOf(property))}</td><td>${
        objectSchema.required?.includes(name) ? 'yes' : ''
      }</td><td>${escapeHtml(notes)}</td></tr>`;
      const nested = property.type === 'array' ? property.items : property;
      return row + rows(nested, `${prefix + name}${property.type === 'array' ? '[]' : ''}.`, depth + 1);
    })
    .join('');
}

const table = (schema: Schema | undefined) => {
  const body = rows(schema);
  return body
    ? `<table><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr>${body}</table>`
    : '';
};

/** The rules of docs/api-reference.md §1, §6 and §8 that the route schemas cannot say. */
const RULES = `<h2>How a verification runs</h2>
<ol><li>Your server creates a session (<code>POST /v1/verification-sessions</code>) and sends the user's browser to its
<code>verificationUrl</code> at once: the link is valid <b>10 seconds</b> and opens once (later or again: an "expired link"
page, HTTP 410). With an IPv4 <code>clientIpAddress</code> it opens only from that address (403 otherwise); leave it out
when you cannot know the browser's address.</li>
<li>The user has 15 minutes (<code>expiresAt</code>) to photograph a document, pass the live face check and type their data.</li>
<li>Their browser is then sent with a <b>GET</b> to <code>callbackUrl?sessionId=…&amp;state=…</code> (<code>state</code> when you gave one:
compare it with yours). The checks may still be running.</li>
<li>The decision (<code>approved</code>, <code>rejected</code>, <code>pending_review</code>) is <b>POST</b>ed to the same
<code>callbackUrl</code> as a signed webhook, and shows in <code>GET /v1/verification-sessions/{sessionId}</code>.</li></ol>
<h2>Webhooks</h2>
<p>Headers: <code>Content-Type: application/json</code>; <code>X-Service-Signature: sha256=&lt;hex HMAC-SHA256 of the raw body,
keyed with your webhook secret&gt;</code>; <code>X-Service-Event</code> (the event kind); <code>X-Service-Delivery</code> (the
event's id, the same on every retry); <code>X-Service-Attempt</code> (1, 2, …).</p>
<p>Verify the signature over the raw body bytes (before any JSON parser) and compare in constant time; answer 401 when it
does not match. Answer 2xx within 5 seconds and work afterwards: anything else is retried about 10 s, 1 min, 5 min, 30 min,
2 h, 6 h, 12 h and 24 h after the first try (a 410 answer stops the retries). The same event can arrive twice: deduplicate
by <code>verificationId</code> and <code>status</code>. Accept event kinds and fields you do not know. Production delivers
only to https URLs on public addresses. Delivery status is not in this API: the console's Webhooks page shows every attempt.</p>
<h2>Limits</h2>
<p>JSON bodies up to 64 KB; a rate limit per API key (429 with <code>Retry-After</code>); 3 face check attempts per session.</p>`;

export function renderApiReference(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<li><code>${escapeHtml(p.name)}</code> (${p.in}) ${escapeHtml(p.schema?.description ?? '')}</li>`,
        )
        .join('');
      const responses = Object.entries(op.responses ?? {})
        .map(([status, response]) => {
          const schema = response.content?.['application/json']?.schema;
          const detail = Number(status) < 400 ? table(schema) : '';
          return `<li><b>${status}</b> ${escapeHtml(response.description ?? '')}${detail}</li>`;
        })
        .join('');
      return `<section><h3><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h3><p>${escapeHtml(op.summary ?? '')}</p>
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
${op.requestBody ? `<h4>Request body (application/json)</h4>${table(op.requestBody.content?.['application/json']?.schema)}` : ''}
<h4>Responses</h4><ul>${responses}</ul></section>`;
    }),
  );
  const errors = Object.entries(ERRORS)
    .map(
      ([code, e]) =>
        `<tr><td>${e.status}</td><td><code>${code}</code></td><td>${escapeHtml(e.message)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f3f3;padding:0 .2rem}section{border-top:1px solid #ddd;margin-top:1.5rem}</style></head><body>
<h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">OpenAPI 3.1</a> · <a href="/schemas/webhook-payload.json">webhook payload JSON Schema</a></p>
${RULES}
<h2>Endpoints</h2>${operations.join('')}
<h2>Errors</h2><p>Every error body is <code>{"error": code, "message": text}</code>, with <code>details</code> for validation errors.</p>
<table><tr><th>status</th><th>error</th><th>message</th></tr>${errors}</table></body></html>`;
}
