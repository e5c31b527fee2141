// Every id that comes from outside (path, query, body) is checked against its format before it
// reaches SQL (platform/http/id-schemas.ts): a NUL byte, a non-ASCII letter, a quote, another
// kind's prefix or an overlong id is a 4xx with a JSON body (the link page for /verify), never a 500.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { useConsoleWorld } from '../console/console-helpers.ts';
import { useTestApi } from '../helpers/api-client.ts';

/** Raw path/query segments (already URL-encoded) that are not ids of the kind `prefix`. */
const malformed = (prefix: string) => [
  `${prefix}_%00`,
  `%00`,
  `${prefix}_a%00b`,
  `${prefix}_%C3%A9t%C3%A9`,
  `${prefix}_'%20OR%20'1'%3D'1`,
  `${prefix}_${'A'.repeat(80)}`,
  prefix === 'vs' ? 'tn_0000000000' : 'vs_0000000000',
];

function assertRefused(res: LightMyRequestResponse, what: string, status = 400) {
  assert.equal(res.statusCode, status, `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  assert.equal(res.json().error, 'ValidationFailed', what);
}

describe('the hosted-flow link and the /v1 routes', () => {
  const t = useTestApi();

  test('GET /verify with a malformed session id or token: the expired-link page (410), not 500', async () => {
    const cases = [
      ...malformed('vs').map((id) => `sessionId=${id}&token=x`),
      'sessionId=vs_0000000000&token=%00',
      'sessionId=vs_0000000000&token=a%C3%A9',
    ];
    for (const query of cases) {
      const res = await t.api.app.inject({ method: 'GET', url: `/verify?${query}` });
      assert.equal(res.statusCode, 410, `${query}: ${res.statusCode}`);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
  });

  test('a well-formed unknown session id is still 404 on /v1', async () => {
    const res = await t.api.getSession('vs_00000000000000000000000000');
    assert.equal(res.statusCode, 404);
  });

  test('/v1 session routes with a malformed session id → 400 ValidationFailed', async () => {
    const auth = { authorization: `Bearer ${t.tenant.apiKey}` };
    for (const id of malformed('vs')) {
      const routes: [string, string, unknown?][] = [
        ['GET', `/v1/verification-sessions/${id}`],
        ['POST', `/v1/verification-sessions/${id}/reprocess`, {}],
        [
          'POST',
          `/v1/verification-sessions/${id}/review`,
          { decision: 'approved', reason: 'ok', reviewedBy: 'a@example.test' },
        ],
        ['GET', `/v1/verification-sessions/${id}/images/front`],
      ];
      for (const [method, url, body] of routes) {
        const res = await t.api.app.inject({
          method: method as 'GET' | 'POST',
          url,
          headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        assertRefused(res, `${method} ${url}`);
      }
    }
  });
});

describe('the console routes', () => {
  const w = useConsoleWorld();

  test('tenant, key, event, user, session, review and blacklist ids are checked before any query', async () => {
    const tenant = w.tenantA.tenantId;
    const cases: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', (id: string) => string, unknown?][] = [
      ['tn', 'GET', (id) => `/tenants/${id}`],
      ['tn', 'GET', (id) => `/audit?tenantId=${id}`],
      ['tn', 'GET', (id) => `/users?tenantId=${id}`],
      ['usr', 'POST', (id) => `/users/${id}/disable`, {}],
      ['key', 'POST', (id) => `/tenants/${tenant}/api-keys/${id}/disable`, {}],
      ['evt', 'GET', (id) => `/tenants/${tenant}/webhook-events/${id}`],
      ['evt', 'POST', (id) => `/tenants/${tenant}/webhook-events/${id}/redeliver`, {}],
      ['vs', 'GET', (id) => `/tenants/${tenant}/sessions/${id}`],
      ['vs', 'POST', (id) => `/tenants/${tenant}/sessions/${id}/claim`, {}],
      ['vs', 'GET', (id) => `/tenants/${tenant}/sessions/${id}/images/front`],
      ['rv', 'POST', (id) => `/tenants/${tenant}/reviews/${id}/confirm`, {}],
      ['bl', 'DELETE', (id) => `/tenants/${tenant}/blacklist/${id}`],
    ];
    for (const [prefix, method, path, body] of cases) {
      const as = prefix === 'tn' || prefix === 'usr' ? w.operator : w.adminA;
      for (const id of malformed(prefix)) {
        const res = await w.client.request(method, path(id), as, body);
        assertRefused(res, `${method} ${path(id)}`);
      }
    }
  });

  test('a body naming a malformed tenant id → 400', async () => {
    const res = await w.client.request('POST', '/users', w.operator, {
      email: 'new-user@example.test',
      role: 'reviewer',
      tenantId: 'tn_a\u0000b',
    });
    assertRefused(res, 'POST /users');
  });
});
