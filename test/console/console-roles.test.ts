// Roles (docs/console-api.md "Roles"): each role can do its own things and nothing else, and
// nothing across tenants — operator, tenant_admin of A, reviewer of A, tenant_admin of B.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countRows, type Signed, useConsoleWorld } from './console-helpers.ts';

const FORBIDDEN = { error: 'Forbidden', message: 'Access denied to this resource' };
type Who = 'operator' | 'adminA' | 'reviewerA' | 'adminB';
const EVERYONE: Who[] = ['operator', 'adminA', 'reviewerA', 'adminB'];

describe('console roles', () => {
  const world = useConsoleWorld();

  /** Every route of src/console with tenant A in its path, and who may call it. */
  const routes = (
    a: string,
  ): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown; may: Who[] }[] => [
    { method: 'GET', url: '/tenants', may: ['operator'] },
    {
      method: 'POST',
      url: '/tenants',
      body: { name: 'X', callbackUrlPrefixes: ['https://x.example/'] },
      may: ['operator'],
    },
    { method: 'GET', url: `/tenants/${a}`, may: ['operator', 'adminA', 'reviewerA'] },
    {
      method: 'POST',
      url: `/tenants/${a}/callback-url-prefixes`,
      body: { prefix: 'https://y.example/' },
      may: ['operator'],
    },
    {
      method: 'DELETE',
      url: `/tenants/${a}/callback-url-prefixes`,
      body: { prefix: 'https://y.example/' },
      may: ['operator'],
    },
    { method: 'GET', url: `/users?tenantId=${a}`, may: ['operator', 'adminA'] },
    {
      method: 'POST',
      url: '/users',
      body: { email: 'm@example.test', role: 'reviewer', tenantId: a },
      may: ['operator', 'adminA'],
    },
    { method: 'GET', url: `/audit?tenantId=${a}`, may: ['operator', 'adminA'] },
    { method: 'GET', url: `/tenants/${a}/api-keys`, may: ['adminA'] },
    { method: 'POST', url: `/tenants/${a}/api-keys`, body: {}, may: ['adminA'] },
    { method: 'POST', url: `/tenants/${a}/api-keys/key_unknown/disable`, may: ['adminA'] },
    { method: 'POST', url: `/tenants/${a}/webhook-secret/rotate`, may: ['adminA'] },
    { method: 'GET', url: `/tenants/${a}/settings`, may: ['adminA'] },
    { method: 'PUT', url: `/tenants/${a}/settings`, body: { settings: {} }, may: ['adminA'] },
    // Operators read any tenant's webhook log too, read-only (redeliver stays the admin's).
    { method: 'GET', url: `/tenants/${a}/webhook-events`, may: ['operator', 'adminA'] },
    { method: 'GET', url: `/tenants/${a}/webhook-events/evt_unknown`, may: ['operator', 'adminA'] },
    { method: 'POST', url: `/tenants/${a}/webhook-events/evt_unknown/redeliver`, may: ['adminA'] },
    // A URL off the allow list: the role check passes first, then 422 (nothing is sent).
    {
      method: 'POST',
      url: `/tenants/${a}/webhook-test`,
      body: { url: 'https://not-allowed.example/hook' },
      may: ['adminA'],
    },
    // Operators read any tenant's sessions, read-only; the queue is for the tenant's own users.
    { method: 'GET', url: `/tenants/${a}/sessions`, may: ['operator', 'adminA', 'reviewerA'] },
    { method: 'GET', url: `/tenants/${a}/sessions.csv`, may: ['operator', 'adminA', 'reviewerA'] },
    { method: 'GET', url: `/tenants/${a}/review-queue`, may: ['adminA', 'reviewerA'] },
  ];

  it('answers 403 Forbidden (interface §7 body) to every role outside a route, and writes nothing', async () => {
    const users: Record<Who, Signed> = {
      operator: world.operator,
      adminA: world.adminA,
      reviewerA: world.reviewerA,
      adminB: world.adminB,
    };
    const before = await countRows(world.platform);
    let checked = 0;
    for (const route of routes(world.tenantA.tenantId)) {
      for (const who of EVERYONE.filter((w) => !route.may.includes(w))) {
        const response = await world.client.request(route.method, route.url, users[who], route.body);
        assert.equal(response.statusCode, 403, `${who} ${route.method} ${route.url}: ${response.body}`);
        assert.deepEqual(response.json(), FORBIDDEN);
        checked++;
      }
    }
    assert.ok(checked >= 35, `checked ${checked} refusals`);
    assert.deepEqual(await countRows(world.platform), before);
  });

  it('lets every allowed role through each route (2xx, or 404/400 for the placeholder ids and bodies)', async () => {
    const users: Record<Who, Signed> = {
      operator: world.operator,
      adminA: world.adminA,
      reviewerA: world.reviewerA,
      adminB: world.adminB,
    };
    for (const route of routes(world.tenantA.tenantId)) {
      for (const who of route.may) {
        const body =
          route.method === 'POST' && route.url === '/users'
            ? {
                email: `${who}-made-${Math.random().toString(36).slice(2)}@example.test`,
                role: 'reviewer',
                tenantId: world.tenantA.tenantId,
              }
            : route.body;
        const response = await world.client.request(route.method, route.url, users[who], body);
        const expected = route.url.includes('_unknown')
          ? [404]
          : route.url.endsWith('/webhook-test')
            ? [422]
            : route.method === 'PUT'
              ? [400]
              : [200, 201, 202];
        assert.ok(
          expected.includes(response.statusCode),
          `${who} ${route.method} ${route.url}: ${response.statusCode} ${response.body}`,
        );
      }
    }
  });

  it('keeps a tenant admin to their own tenant even when the body or query names another', async () => {
    const { tenantB } = world;
    const create = await world.client.request('POST', '/users', world.adminA, {
      email: 'sneaky@example.test',
      role: 'reviewer',
      tenantId: tenantB.tenantId,
    });
    assert.equal(create.statusCode, 403);
    const operator = await world.client.request('POST', '/users', world.adminA, {
      email: 'sneaky-op@example.test',
      role: 'operator',
    });
    assert.equal(operator.statusCode, 403, 'a tenant admin cannot make an operator');
    const users = await world.client.request('GET', `/users?tenantId=${tenantB.tenantId}`, world.adminA);
    assert.equal(users.statusCode, 403);
    const audit = await world.client.request('GET', `/audit?tenantId=${tenantB.tenantId}`, world.adminA);
    assert.equal(audit.statusCode, 403);
    // Without a tenantId the lists are the admin's own tenant only.
    const own = await world.client.request('GET', '/users', world.adminA);
    assert.ok(own.json().users.length > 0);
    assert.ok(own.json().users.every((u: { tenantId: string }) => u.tenantId === world.tenantA.tenantId));
    const ownAudit = await world.client.request('GET', '/audit', world.adminA);
    assert.ok(
      ownAudit.json().entries.every((e: { tenantId: string }) => e.tenantId === world.tenantA.tenantId),
    );
    // Disabling a user of tenant B, or an operator, is refused.
    const disableB = await world.client.request(
      'POST',
      `/users/${world.adminB.userId}/disable`,
      world.adminA,
    );
    assert.equal(disableB.statusCode, 403);
    const disableOp = await world.client.request(
      'POST',
      `/users/${world.operator.userId}/disable`,
      world.adminA,
    );
    assert.equal(disableOp.statusCode, 403);
    assert.equal((await world.client.request('GET', '/me', world.adminB)).statusCode, 200);
    // A key of tenant B cannot be disabled through tenant A's path.
    const keyB = await world.client.request(
      'POST',
      `/tenants/${world.tenantA.tenantId}/api-keys/${tenantB.keyId}/disable`,
      world.adminA,
    );
    assert.equal(keyB.statusCode, 404);
    const still = await world.client.app.inject({
      method: 'GET',
      url: '/v1/verification-sessions/vs_00000000000000000000000000',
      headers: { authorization: `Bearer ${tenantB.apiKey}` },
    });
    assert.notEqual(still.statusCode, 401, "tenant B's key still works");
  });

  it('lets a reviewer see only their tenant and a user listing of every tenant to operators', async () => {
    assert.equal(
      (await world.client.request('GET', `/tenants/${world.tenantB.tenantId}`, world.reviewerA)).statusCode,
      403,
    );
    const all = await world.client.request('GET', '/users', world.operator);
    const tenants = new Set(all.json().users.map((u: { tenantId: string | null }) => u.tenantId));
    assert.ok(
      tenants.has(null) && tenants.has(world.tenantA.tenantId) && tenants.has(world.tenantB.tenantId),
    );
    assert.equal((await world.client.request('GET', '/users', world.reviewerA)).statusCode, 403);
  });
});
