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

  it('GET /openapi.json is OpenAPI 3.1 with the three endpoints, their errors and nullable detail fields', async () => {
    const doc = (await get('/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    const create = doc.paths['/v1/verification-sessions'].post;
    const detail = doc.paths['/v1/verification-sessions/{sessionId}'].get;
    const reprocess = doc.paths['/v1/verification-sessions/{sessionId}/reprocess'].post;
    assert.deepEqual(Object.keys(create.responses).sort(), ['201', '400', '401', '413', '415', '422', '429']);
    assert.ok(detail.responses['403'] && detail.responses['404']);
    assert.ok(reprocess.responses['409']);
    assert.deepEqual(create.security, [{ bearerAuth: [] }]);
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    const body = create.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required, ['callbackUrl']);
    assert.equal(body.additionalProperties, false);
    const detailSchema = detail.responses['200'].content['application/json'].schema;
    for (const field of ['documentType', 'userInput', 'documents', 'liveness', 'ocrResult', 'verification']) {
      const types = JSON.stringify(detailSchema.properties[field]);
      assert.match(types, /"null"/, `${field} is documented as nullable`);
      assert.ok(detailSchema.properties[field].description, `${field} says when it is null`);
    }
    assert.match(JSON.stringify(create.responses['422']), /CallbackUrlNotAllowed/);
  });

  it('GET /docs is a readable page listing the endpoints and the error codes', async () => {
    const res = await get('/docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    for (const text of [
      'POST /v1/verification-sessions',
      'GET /v1/verification-sessions/{sessionId}',
      'reprocess',
      'CallbackUrlNotAllowed',
      'preRegisteredInfo.birthDate',
    ]) {
      assert.ok(res.body.includes(text), `page mentions ${text}`);
    }
    assert.ok(!/<script/i.test(res.body), 'no scripts');
  });

  it('GET /schemas/webhook-payload.json serves the payload JSON Schema', async () => {
    const res = await get('/schemas/webhook-payload.json');
    assert.equal(res.statusCode, 200);
    const schema = res.json();
    assert.equal(schema.$id, '/schemas/webhook-payload.json');
    assert.ok(Array.isArray(schema.anyOf));
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
