// Bad input to every console route that takes a body (style.md "Bad input"): malformed, oversized,
// missing, unknown and hostile values get a clear 4xx and leave nothing written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countRows, PASSWORD, type Signed, useConsoleWorld } from './console-helpers.ts';

describe('console input', () => {
  const world = useConsoleWorld();

  const bodies = (
    a: string,
  ): {
    method: 'POST' | 'PUT' | 'DELETE';
    url: string;
    as: () => Signed | undefined;
    valid: Record<string, unknown>;
  }[] => [
    {
      method: 'POST',
      url: '/login',
      as: () => undefined,
      valid: { email: world.operator.email, password: PASSWORD },
    },
    {
      method: 'POST',
      url: '/password',
      as: () => undefined,
      valid: { token: 'A'.repeat(43), password: PASSWORD },
    },
    {
      method: 'POST',
      url: '/users',
      as: () => world.operator,
      valid: { email: 'x@example.test', role: 'reviewer', tenantId: a },
    },
    {
      method: 'POST',
      url: '/tenants',
      as: () => world.operator,
      valid: { name: 'N', callbackUrlPrefixes: ['https://n.example/'] },
    },
    {
      method: 'POST',
      url: `/tenants/${a}/callback-url-prefixes`,
      as: () => world.operator,
      valid: { prefix: 'https://p.example/' },
    },
    {
      method: 'DELETE',
      url: `/tenants/${a}/callback-url-prefixes`,
      as: () => world.operator,
      valid: { prefix: 'https://p.example/' },
    },
    { method: 'POST', url: `/tenants/${a}/api-keys`, as: () => world.adminA, valid: { label: 'l' } },
    {
      method: 'PUT',
      url: `/tenants/${a}/settings`,
      as: () => world.adminA,
      valid: {
        settings: {
          faceSimilarityThreshold: 0.6,
          ocrConfidenceThreshold: 0.6,
          fraudSensitivity: 'normal',
          allowedDocumentTypes: ['passport'],
          requiredUserInputFields: [],
          minimumAge: 18,
          retentionDays: 90,
          secondReviewForRejectedApproval: false,
        },
      },
    },
  ];

  it('answers malformed, oversized, wrongly typed, missing and unknown bodies with 4xx and writes nothing', async () => {
    const before = await countRows(world.platform);
    for (const route of bodies(world.tenantA.tenantId)) {
      const as = route.as();
      const send = (payload: string, headers: Record<string, string> = {}) =>
        world.client.request(route.method, route.url, as, payload, headers);
      const label = `${route.method} ${route.url}`;
      const cases: [string, string, Record<string, string>, number, string][] = [
        ['not JSON', '{"email":', {}, 400, 'BadRequest'],
        ['empty', '', {}, 400, 'BadRequest'],
        ['an array', '[]', {}, 400, 'ValidationFailed'],
        [
          'form encoded',
          'email=a',
          { 'content-type': 'application/x-www-form-urlencoded' },
          415,
          'UnsupportedMediaType',
        ],
        [
          'over 64 KB',
          JSON.stringify({ ...route.valid, pad: 'x'.repeat(70_000) }),
          {},
          413,
          'PayloadTooLarge',
        ],
        ['an unknown field', JSON.stringify({ ...route.valid, isAdmin: true }), {}, 400, 'ValidationFailed'],
        [
          'a prototype key',
          `{"__proto__":{"role":"operator"},${JSON.stringify(route.valid).slice(1)}`,
          {},
          400,
          '',
        ],
        [
          'a missing field',
          JSON.stringify(Object.fromEntries(Object.entries(route.valid).slice(1))),
          {},
          400,
          'ValidationFailed',
        ],
        [
          'numbers for strings',
          JSON.stringify(Object.fromEntries(Object.keys(route.valid).map((k) => [k, 12]))),
          {},
          400,
          'ValidationFailed',
        ],
      ];
      for (const [what, payload, headers, status, code] of cases) {
        if (what === 'a missing field' && route.url.endsWith('/api-keys')) continue; // label is optional
        const response = await send(payload, headers);
        assert.equal(response.statusCode, status, `${label} with ${what}: ${response.body}`);
        if (code) assert.equal(response.json().error, code, `${label} with ${what}`);
        assert.ok(response.json().message, 'a message says what is wrong');
      }
    }
    assert.deepEqual(await countRows(world.platform), before);
  });

  it('treats hostile values as data: long, control-character and injection-looking strings', async () => {
    const before = await countRows(world.platform);
    const hostile = [
      "x@example.test' OR '1'='1",
      'a\u0000b@example.test',
      'line\nbreak@example.test',
      `${'a'.repeat(250)}@example.test`,
      '<script>alert(1)</script>@example.test',
    ];
    for (const email of hostile) {
      const created = await world.client.request('POST', '/users', world.operator, {
        email,
        role: 'operator',
      });
      assert.equal(created.statusCode, 400, `create ${JSON.stringify(email)}: ${created.body}`);
      const login = await world.client.login(email, PASSWORD, '10.9.9.9');
      assert.ok([400, 401].includes(login.statusCode), `login ${JSON.stringify(email)}: ${login.statusCode}`);
    }
    for (const id of ["tn_X' OR 1=1 --", '%00', 'a'.repeat(65), '../../etc/passwd']) {
      const response = await world.client.request(
        'GET',
        `/tenants/${encodeURIComponent(id)}/settings`,
        world.operator,
      );
      assert.ok([400, 403, 404].includes(response.statusCode), `${id}: ${response.statusCode}`);
      const asOperator = await world.client.request(
        'GET',
        `/tenants/${encodeURIComponent(id)}`,
        world.operator,
      );
      assert.ok([400, 404].includes(asOperator.statusCode), `${id}: ${asOperator.statusCode}`);
    }
    const name = await world.client.request('POST', '/tenants', world.operator, {
      name: 'a\u0007b',
      callbackUrlPrefixes: ['javascript:alert(1)'],
    });
    assert.equal(name.statusCode, 400);
    const label = await world.client.request(
      'POST',
      `/tenants/${world.tenantA.tenantId}/api-keys`,
      world.adminA,
      {
        label: 'bell\u0007',
      },
    );
    assert.equal(label.statusCode, 400);
    const cookie = await world.client.request('GET', '/me', {
      ...world.operator,
      cookie: "'; DROP TABLE console_users; --",
    });
    assert.equal(cookie.statusCode, 401);
    assert.deepEqual(await countRows(world.platform), before);
  });

  it('does not count a malformed sign-in as a failed password', async () => {
    const user = await world.client.createUser(world.platform, 'reviewer', world.tenantA.tenantId);
    for (let i = 0; i < 6; i++) {
      const response = await world.client.request('POST', '/login', undefined, {
        email: user.email,
        password: 12,
      });
      assert.equal(response.statusCode, 400);
    }
    assert.equal((await world.client.login(user.email)).statusCode, 200);
  });
});
