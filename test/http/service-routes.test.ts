import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALLBACK_PREFIX, useTestApi } from '../helpers/api-client.ts';

describe('service routes', () => {
  const t = useTestApi();

  const get = (url: string) => t.api.app.inject({ method: 'GET', url });

  it('GET /healthz answers without a key', async () => {
    const res = await get('/healthz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('GET /readyz checks the database', async () => {
    const res = await get('/readyz');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'ready');
  });

  it('GET /openapi.json is OpenAPI 3.1 with every route, its own errors, examples and the webhooks', async () => {
    const doc = (await get('/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    const create = doc.paths['/v1/verification-sessions'].post;
    const list = doc.paths['/v1/verification-sessions'].get;
    const detail = doc.paths['/v1/verification-sessions/{sessionId}'].get;
    const reprocess = doc.paths['/v1/verification-sessions/{sessionId}/reprocess'].post;
    const image = doc.paths['/v1/verification-sessions/{sessionId}/images/{kind}'].get;
    for (const route of ['cancel', 'redact', 'review'])
      assert.ok(doc.paths[`/v1/verification-sessions/{sessionId}/${route}`].post, route);
    assert.deepEqual(Object.keys(create.responses).sort(), [
      '201',
      '400',
      '401',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    // Every /v1 operation may answer 503 while the database is unreachable, saying when to retry.
    for (const [path, methods] of Object.entries<
      Record<string, { responses: Record<string, { headers?: object }> }>
    >(doc.paths))
      for (const [method, operation] of Object.entries(methods))
        if (path.startsWith('/v1/'))
          assert.ok(
            operation.responses['503']?.headers?.['Retry-After' as never],
            `${method} ${path}: 503 with Retry-After`,
          );
    assert.ok(detail.responses['403'] && detail.responses['404']);
    assert.ok(reprocess.responses['409']);
    assert.ok(list.parameters.some((p: { name: string }) => p.name === 'startingAfter'));
    // Per-route errors only: a console error is no answer of GET session.
    assert.doesNotMatch(JSON.stringify(detail.responses), /EmailTaken|ImageBlurred/);
    assert.deepEqual(Object.keys(detail.responses['404'].content['application/json'].examples), ['NotFound']);
    assert.deepEqual(create.security, [{ bearerAuth: [] }]);
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    const body = doc.components.schemas.CreateSessionRequest;
    assert.deepEqual(body.required, ['callbackUrl']);
    assert.equal(body.additionalProperties, false);
    assert.ok(create.requestBody.content['application/json'].examples.minimal);
    // The image route sends JPEG bytes; reprocess takes no body at all as well as {}.
    assert.deepEqual(Object.keys(image.responses['200'].content), ['image/jpeg']);
    assert.equal(reprocess.requestBody.required, false);
    const detailSchema = doc.components.schemas.SessionDetail;
    // Answers may gain fields (additive change): response schemas are open, request schemas closed.
    for (const name of ['SessionDetail', 'SessionList', 'CreatedSession', 'ReprocessResult'])
      assert.doesNotMatch(JSON.stringify(doc.components.schemas[name]), /"additionalProperties":false/, name);
    for (const field of ['documentType', 'userInput', 'documents', 'liveness', 'ocrResult', 'verification']) {
      assert.ok(!detailSchema.required.includes(field), `${field} is optional`);
      assert.doesNotMatch(JSON.stringify(detailSchema.properties[field]), /"null"/, `${field} is never null`);
    }
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'verification.approved',
      'verification.expired',
      'verification.pending_review',
      'verification.rejected',
    ]);
    assert.match(JSON.stringify(create.responses['422']), /CallbackUrlNotAllowed/);
  });

  it('GET /docs renders the document with Swagger UI from this origin, under a CSP that allows nothing else', async () => {
    const res = await get('/docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/);
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(sources.length >= 4);
    for (const source of sources) assert.match(source, /^\//, `${source} is on this origin`);
    assert.ok(!/<script>/.test(res.body), 'no inline script');
    for (const asset of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/docs.js',
    ]) {
      const served = await get(asset);
      assert.equal(served.statusCode, 200, asset);
      assert.ok(served.body.length > 0);
    }
    const guides = (await get('/openapi.json')).json().info.description as string;
    for (const heading of [
      'Quick start',
      'The hosted flow',
      'Webhooks and signatures',
      'Reason codes',
      'Reprocess',
      'Test personas',
    ])
      assert.ok(guides.includes(`## ${heading}`), heading);
    for (const language of ['**Python**', '**Go**', '**Ruby**', '**PHP**', '**Node (SDK)**'])
      assert.ok(guides.includes(language), language);
  });

  it('GET /schemas/webhook-payload.json serves the payload JSON Schema, chosen by event kind', async () => {
    const res = await get('/schemas/webhook-payload.json');
    assert.equal(res.statusCode, 200);
    const schema = res.json();
    assert.equal(schema.$id, '/schemas/webhook-payload.json');
    assert.ok(Array.isArray(schema.allOf));
  });

  it('GET /metrics exposes Prometheus metrics including API request durations', async () => {
    await t.api.createSession({ callbackUrl: CALLBACK_PREFIX });
    const res = await get('/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.match(
      res.body,
      /mimoto_http_request_duration_seconds_count\{method="POST",route="\/v1\/verification-sessions",status="201"\} [1-9]/,
    );
    assert.match(res.body, /mimoto_process_cpu_seconds_total/);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await get('/nope');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'NotFound');
  });
});
