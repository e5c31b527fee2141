// What operators and tenant admins do in the console, end to end over HTTP, with the audit rows
// each change leaves (docs/console-api.md "Operator", "Tenant admin").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveThresholds } from '../../src/decision/index.ts';
import { findTenant } from '../../src/tenants/index.ts';
import { addSession, recordApproval } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';
import { countRows, useConsoleWorld } from './console-helpers.ts';

interface AuditEntry {
  actor: string;
  actorUserId: string | null;
  tenantId: string | null;
  action: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  at: string;
}

describe('console administration', () => {
  const world = useConsoleWorld();
  let receiver: LocalReceiver;
  before(async () => {
    receiver = await startLocalReceiver((_req, res) => res.writeHead(200).end('ok'));
  });
  after(async () => receiver?.close());

  async function latestAudit(action: string): Promise<AuditEntry> {
    const response = await world.client.request('GET', '/audit?limit=200', world.operator);
    const entry = response.json().entries.find((e: AuditEntry) => e.action === action);
    assert.ok(entry, `an audit entry ${action}`);
    return entry;
  }

  it('operator: creates a tenant (secret shown once), edits its allow list, and every change is audited', async () => {
    const created = await world.client.request('POST', '/tenants', world.operator, {
      name: 'Console tenant',
      callbackUrlPrefixes: ['https://console.example/hooks/'],
    });
    assert.equal(created.statusCode, 201);
    const { tenantId, webhookSecret } = created.json();
    assert.match(webhookSecret, /^whsec_[0-9A-Za-z]{40}$/);
    const audit = await latestAudit('tenant.create');
    assert.equal(audit.actor, world.operator.email);
    assert.equal(audit.actorUserId, world.operator.userId);
    assert.equal(audit.tenantId, tenantId);
    assert.equal((audit.after as { webhookSecret: string }).webhookSecret, '[redacted]');
    assert.ok(!JSON.stringify(audit).includes(webhookSecret), 'the secret never reaches the log');

    const listed = await world.client.request('GET', '/tenants', world.operator);
    assert.ok(listed.json().tenants.some((t: { tenantId: string }) => t.tenantId === tenantId));

    const path = `/tenants/${tenantId}/callback-url-prefixes`;
    const added = await world.client.request('POST', path, world.operator, {
      prefix: 'https://console.example/other/',
    });
    assert.equal(added.statusCode, 200);
    assert.deepEqual(added.json().tenant.callbackUrlPrefixes, [
      'https://console.example/hooks/',
      'https://console.example/other/',
    ]);
    const addAudit = await latestAudit('tenant.callback_prefix.add');
    assert.deepEqual(addAudit.before, { callbackUrlPrefixes: ['https://console.example/hooks/'] });
    assert.deepEqual(addAudit.after, {
      callbackUrlPrefixes: ['https://console.example/hooks/', 'https://console.example/other/'],
    });

    const removed = await world.client.request('DELETE', path, world.operator, {
      prefix: 'https://console.example/hooks/',
    });
    assert.equal(removed.statusCode, 200);
    assert.deepEqual(removed.json().tenant.callbackUrlPrefixes, ['https://console.example/other/']);
    assert.equal((await latestAudit('tenant.callback_prefix.remove')).tenantId, tenantId);
    const last = await world.client.request('DELETE', path, world.operator, {
      prefix: 'https://console.example/other/',
    });
    assert.equal(last.statusCode, 400, 'the last prefix stays');
    const absent = await world.client.request('DELETE', path, world.operator, {
      prefix: 'https://nope.example/',
    });
    assert.equal(absent.statusCode, 404);
    const bad = await world.client.request('POST', path, world.operator, {
      prefix: 'ftp://console.example/',
    });
    assert.equal(bad.statusCode, 400);
    const unknown = await world.client.request(
      'POST',
      '/tenants/tn_UNKNOWN/callback-url-prefixes',
      world.operator,
      {
        prefix: 'https://a.example/',
      },
    );
    assert.equal(unknown.statusCode, 404);
  });

  it('tenant admin: issues a key that works on /v1 (shown once), lists it, disables it and it stops at once', async () => {
    const { tenantA } = world;
    const created = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/api-keys`,
      world.adminA,
      { label: 'backend' },
    );
    assert.equal(created.statusCode, 201);
    const { keyId, apiKey } = created.json();
    const probe = () =>
      world.client.app.inject({
        method: 'GET',
        url: '/v1/verification-sessions/vs_00000000000000000000000000',
        headers: { authorization: `Bearer ${apiKey}` },
      });
    assert.equal((await probe()).statusCode, 404, 'the new key authenticates');
    const listed = await world.client.request('GET', `/tenants/${tenantA.tenantId}/api-keys`, world.adminA);
    const key = listed.json().keys.find((k: { keyId: string }) => k.keyId === keyId);
    assert.equal(key.label, 'backend');
    assert.ok(apiKey.startsWith(key.prefix.replace(/…$/, '')), `${key.prefix} is the start of the key`);
    assert.ok(!listed.body.includes(apiKey), 'the key is never shown again');
    const createAudit = await latestAudit('api_key.create');
    assert.equal(createAudit.targetId, keyId);
    assert.ok(!JSON.stringify(createAudit).includes(apiKey));

    const disabled = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/api-keys/${keyId}/disable`,
      world.adminA,
    );
    assert.equal(disabled.statusCode, 200);
    assert.ok(disabled.json().key.disabledAt);
    assert.equal((await probe()).statusCode, 401);
    const disableAudit = await latestAudit('api_key.disable');
    assert.deepEqual(disableAudit.before, { disabledAt: null });
    assert.equal((disableAudit.after as { disabledAt: string }).disabledAt, disabled.json().key.disabledAt);
    const again = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/api-keys/${keyId}/disable`,
      world.adminA,
    );
    assert.equal(again.json().key.disabledAt, disabled.json().key.disabledAt, 'the first time is kept');
    const againAudit = await latestAudit('api_key.disable');
    assert.deepEqual(againAudit.before, againAudit.after);
  });

  it('tenant admin: rotates the webhook secret (shown once, redacted in the log)', async () => {
    const { tenantA } = world;
    const rotated = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/webhook-secret/rotate`,
      world.adminA,
    );
    assert.equal(rotated.statusCode, 200);
    const { webhookSecret } = rotated.json();
    assert.match(webhookSecret, /^whsec_[0-9A-Za-z]{40}$/);
    assert.notEqual(webhookSecret, tenantA.webhookSecret);
    const audit = await latestAudit('tenant.webhook_secret.rotate');
    assert.deepEqual(audit.after, { webhookSecret: '[redacted]' });
    assert.ok(!JSON.stringify(audit).includes(webhookSecret));
  });

  it('tenant admin: reads default settings, writes them all, and the decision and flow readers see them', async () => {
    const path = `/tenants/${world.tenantB.tenantId}/settings`;
    const defaults = await world.client.request('GET', path, world.adminB);
    assert.equal(defaults.statusCode, 200);
    assert.deepEqual(Object.keys(defaults.json().settings).sort(), [
      'allowedDocumentTypes',
      'faceSimilarityThreshold',
      'fraudSensitivity',
      'minimumAge',
      'ocrConfidenceThreshold',
      'requiredUserInputFields',
      'retentionDays',
      'secondReviewForRejectedApproval',
      'thicknessCapture',
      'verificationMethods',
      'webhookExpiredEvent',
    ]);
    assert.equal(defaults.json().settings.minimumAge, 18);
    assert.equal(defaults.json().settings.webhookExpiredEvent, false, 'verification.expired is opt-in');
    assert.equal(defaults.json().settings.allowedDocumentTypes.length, 4);
    const settings = {
      faceSimilarityThreshold: 0.7,
      ocrConfidenceThreshold: 0.5,
      fraudSensitivity: 'high',
      allowedDocumentTypes: ['passport', 'my_number_card'],
      requiredUserInputFields: ['lastName', 'firstName', 'birthDate'],
      minimumAge: 20,
      retentionDays: 30,
      secondReviewForRejectedApproval: true,
    };
    const put = await world.client.request('PUT', path, world.adminB, { settings });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().settings, {
      ...settings,
      allowedDocumentTypes: ['my_number_card', 'passport'],
      webhookExpiredEvent: false,
      thicknessCapture: false,
      verificationMethods: ['image'],
    });
    const stored = (await findTenant(world.platform.database.db, world.tenantB.tenantId))!.settings;
    const thresholds = resolveThresholds(stored);
    assert.equal(thresholds.faceSimilarityThreshold, 0.7);
    assert.equal(thresholds.ocrConfidenceThreshold, 0.5);
    assert.equal(thresholds.fraudSensitivity, 'high');
    assert.equal(thresholds.fraudRejectScore, 50, 'the sensitivity sets the scores');
    assert.equal(thresholds.minimumAge, 20);
    assert.deepEqual(stored.allowedDocumentTypes, ['passport', 'my_number_card']);
    assert.equal(stored.secondReviewForRejectedApproval, true);
    const audit = await latestAudit('tenant.settings.update');
    assert.equal(audit.actor, world.adminB.email);
    assert.equal((audit.before as { minimumAge: number }).minimumAge, 18);
    assert.equal((audit.after as { minimumAge: number }).minimumAge, 20);
  });

  it('tenant admin: refuses bad settings with a detail per field and changes nothing', async () => {
    const path = `/tenants/${world.tenantA.tenantId}/settings`;
    const before = (await world.client.request('GET', path, world.adminA)).json();
    const rows = await countRows(world.platform);
    const bad = await world.client.request('PUT', path, world.adminA, {
      settings: {
        faceSimilarityThreshold: 1.5,
        ocrConfidenceThreshold: -0.1,
        fraudSensitivity: 'extreme',
        allowedDocumentTypes: [],
        requiredUserInputFields: ['lastName', 'lastName'],
        minimumAge: 121,
        retentionDays: 0,
        secondReviewForRejectedApproval: 'yes',
      },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'ValidationFailed');
    const paths = new Set(bad.json().details.map((d: { path: string }) => d.path));
    for (const field of [
      'faceSimilarityThreshold',
      'ocrConfidenceThreshold',
      'fraudSensitivity',
      'allowedDocumentTypes',
      'requiredUserInputFields',
      'minimumAge',
      'retentionDays',
      'secondReviewForRejectedApproval',
    ]) {
      assert.ok(paths.has(`body/settings/${field}`), `a detail for ${field}: ${[...paths].join(', ')}`);
    }
    const extra = await world.client.request('PUT', path, world.adminA, {
      settings: { ...before.settings, admin: true },
    });
    assert.equal(extra.statusCode, 400, 'unknown fields are refused');
    const partial = await world.client.request('PUT', path, world.adminA, { settings: { minimumAge: 30 } });
    assert.equal(partial.statusCode, 400, 'every field is required');
    assert.deepEqual((await world.client.request('GET', path, world.adminA)).json(), before);
    assert.deepEqual(await countRows(world.platform), rows);
  });

  it('tenant admin: lists webhook deliveries, shows attempts, redelivers to a real receiver', async () => {
    const { tenantA } = world;
    const added = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/callback-url-prefixes`,
      world.operator,
      {
        prefix: receiver.url('/'),
      },
    );
    assert.equal(added.statusCode, 200, added.body);
    const sessionId = await addSession(world.platform, tenantA.tenantId, receiver.url('/hook'));
    const eventId = await recordApproval(world.platform, tenantA.tenantId, sessionId);
    const list = await world.client.request(
      'GET',
      `/tenants/${tenantA.tenantId}/webhook-events?status=pending`,
      world.adminA,
    );
    assert.equal(list.statusCode, 200);
    const listed = list.json().events.find((e: { eventId: string }) => e.eventId === eventId);
    assert.equal(listed.status, 'pending');
    assert.equal(listed.attempts, 0);
    assert.equal(listed.sessionId, sessionId);
    const none = await world.client.request(
      'GET',
      `/tenants/${tenantA.tenantId}/webhook-events?status=delivered`,
      world.adminA,
    );
    assert.ok(!none.json().events.some((e: { eventId: string }) => e.eventId === eventId));
    // Tenant B does not see A's event, by list or by id.
    const other = await world.client.request(
      'GET',
      `/tenants/${world.tenantB.tenantId}/webhook-events`,
      world.adminB,
    );
    assert.ok(!other.json().events.some((e: { eventId: string }) => e.eventId === eventId));
    assert.equal(
      (
        await world.client.request(
          'GET',
          `/tenants/${world.tenantB.tenantId}/webhook-events/${eventId}`,
          world.adminB,
        )
      ).statusCode,
      404,
    );
    assert.equal(
      (
        await world.client.request(
          'POST',
          `/tenants/${world.tenantB.tenantId}/webhook-events/${eventId}/redeliver`,
          world.adminB,
        )
      ).statusCode,
      404,
    );
    assert.equal(receiver.received.length, 0);

    const redelivered = await world.client.request(
      'POST',
      `/tenants/${tenantA.tenantId}/webhook-events/${eventId}/redeliver`,
      world.adminA,
    );
    assert.equal(redelivered.statusCode, 202, redelivered.body);
    assert.equal(redelivered.json().event.status, 'delivered');
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0]!.url, '/hook');
    const detail = await world.client.request(
      'GET',
      `/tenants/${tenantA.tenantId}/webhook-events/${eventId}`,
      world.adminA,
    );
    assert.equal(detail.statusCode, 200);
    assert.equal(detail.json().event.lastStatusCode, 200);
    assert.equal(detail.json().attempts.length, 1);
    assert.equal(detail.json().attempts[0].statusCode, 200);
    assert.equal(detail.json().attempts[0].trigger, 'manual');
    // The log shows where it went, the exact body sent, and what the receiver answered.
    assert.equal(detail.json().request.url, receiver.url('/hook'));
    assert.equal(detail.json().request.body, receiver.received[0]!.body.toString('utf8'));
    assert.equal(JSON.parse(detail.json().request.body).verificationId, sessionId);
    assert.equal(detail.json().request.truncated, false);
    assert.equal(detail.json().attempts[0].responseBody, 'ok');
    const audit = await latestAudit('webhook_event.redeliver');
    assert.deepEqual(audit.before, { status: 'pending', attempts: 0 });
    assert.deepEqual(audit.after, { status: 'delivered', attempts: 1, outcome: 'success' });
  });

  it('operator and tenant admin create and disable users; e-mail addresses are unique whatever their case', async () => {
    const made = await world.client.request('POST', '/users', world.adminA, {
      email: 'New.Reviewer@example.test',
      role: 'reviewer',
    });
    assert.equal(made.statusCode, 201);
    assert.equal(
      made.json().user.tenantId,
      world.tenantA.tenantId,
      "a tenant admin's user joins their tenant",
    );
    assert.match(made.json().setPasswordUrl, /\/console\/set-password\?token=/);
    const audit = await latestAudit('user.create');
    assert.equal(audit.actor, world.adminA.email);
    assert.ok(
      !JSON.stringify(audit).includes(new URL(made.json().setPasswordUrl).searchParams.get('token')!),
    );
    const rows = await countRows(world.platform);
    const taken = await world.client.request('POST', '/users', world.operator, {
      email: 'new.reviewer@EXAMPLE.test',
      role: 'tenant_admin',
      tenantId: world.tenantB.tenantId,
    });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().error, 'EmailTaken');
    const operatorWithTenant = await world.client.request('POST', '/users', world.operator, {
      email: 'op2@example.test',
      role: 'operator',
      tenantId: world.tenantA.tenantId,
    });
    assert.equal(operatorWithTenant.statusCode, 400);
    const reviewerWithout = await world.client.request('POST', '/users', world.operator, {
      email: 'r2@example.test',
      role: 'reviewer',
    });
    assert.equal(reviewerWithout.statusCode, 400);
    const unknownTenant = await world.client.request('POST', '/users', world.operator, {
      email: 'r3@example.test',
      role: 'reviewer',
      tenantId: 'tn_UNKNOWN',
    });
    assert.equal(unknownTenant.statusCode, 404);
    assert.deepEqual(await countRows(world.platform), rows, 'refused creations leave nothing');

    const disabled = await world.client.request(
      'POST',
      `/users/${made.json().user.id}/disable`,
      world.operator,
    );
    assert.equal(disabled.statusCode, 200);
    const disableAudit = await latestAudit('user.disable');
    assert.equal((disableAudit.before as { disabled: boolean }).disabled, false);
    assert.equal((disableAudit.after as { disabled: boolean }).disabled, true);
    assert.equal(
      (await world.client.request('POST', '/users/usr_UNKNOWN/disable', world.operator)).statusCode,
      404,
    );
  });

  it('pages the audit log newest first', async () => {
    const first = await world.client.request('GET', '/audit?limit=2', world.operator);
    assert.equal(first.statusCode, 200);
    const entries = first.json().entries;
    assert.equal(entries.length, 2);
    assert.ok(Number(entries[0].id) > Number(entries[1].id));
    const next = await world.client.request('GET', `/audit?limit=2&before=${entries[1].id}`, world.operator);
    assert.ok(Number(next.json().entries[0].id) < Number(entries[1].id));
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'before=-1', 'extra=1']) {
      assert.equal(
        (await world.client.request('GET', `/audit?${query}`, world.operator)).statusCode,
        400,
        query,
      );
    }
  });
});
