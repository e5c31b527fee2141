// A dead endpoint never delays anyone else's deliveries: two workers — standing in
// for two worker processes, since the per-endpoint cap is enforced by the claim query in the
// database — share the events of a hanging endpoint and a healthy one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import {
  addSession,
  createTenantWithSession,
  recordApproval,
  waitFor,
  warmUpDelivery,
} from './event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

const MAX_PER_ENDPOINT = 3;
const HANG_LIMIT_MS = 4_000;

let platform: TestPlatform;
let dead: LocalReceiver;
let healthy: LocalReceiver;

before(async () => {
  platform = await createTestPlatform();
  dead = await startLocalReceiver(() => {}); // accepts, reads the body, never answers
  healthy = await startLocalReceiver((_req, res) => {
    res.writeHead(200).end('ok');
  });
  await warmUpDelivery(platform, healthy.url('/warm-up'));
});

after(async () => {
  await dead?.close();
  await healthy?.close();
  await platform?.close();
});

test('healthy deliveries finish while a hanging endpoint holds at most its cap, across workers', async () => {
  const deadTenant = await createTenantWithSession(platform, dead.url());
  const healthyTenant = await createTenantWithSession(platform, healthy.url());
  // The dead endpoint's events are older: a queue in due order would serve them first.
  const deadEvents = [await recordApproval(platform, deadTenant.tenantId, deadTenant.sessionId)];
  for (let i = 1; i < 12; i++) {
    const sessionId = await addSession(platform, deadTenant.tenantId, dead.url());
    deadEvents.push(await recordApproval(platform, deadTenant.tenantId, sessionId));
  }
  const healthyEvents = [await recordApproval(platform, healthyTenant.tenantId, healthyTenant.sessionId)];
  for (let i = 1; i < 12; i++) {
    const sessionId = await addSession(platform, healthyTenant.tenantId, healthy.url());
    healthyEvents.push(await recordApproval(platform, healthyTenant.tenantId, sessionId));
  }

  const options = {
    pollIntervalMs: 50,
    concurrency: 5, // 10 slots in all: fewer than the dead endpoint's 12 events
    maxPerEndpoint: MAX_PER_ENDPOINT,
    timeoutMs: HANG_LIMIT_MS,
  };
  const started = Date.now();
  const workers = [
    startWebhookDeliveryWorker(platform, options),
    startWebhookDeliveryWorker(platform, options),
  ];
  try {
    await waitFor('every healthy delivery', async () => {
      const delivered = await platform.database.db
        .selectFrom('webhook_events')
        .select('id')
        .where('id', 'in', healthyEvents)
        .where('state', '=', 'delivered')
        .execute();
      return delivered.length === healthyEvents.length ? true : undefined;
    });
    const healthyDoneMs = Date.now() - started;
    const deadAttempts = await platform.database.db
      .selectFrom('webhook_attempts')
      .select('event_id')
      .where('event_id', 'in', deadEvents)
      .execute();
    assert.equal(
      deadAttempts.length,
      0,
      `all healthy deliveries done after ${healthyDoneMs} ms, before any hanging attempt ended`,
    );
    assert.ok(healthyDoneMs < HANG_LIMIT_MS, `${healthyDoneMs} ms`);
    assert.equal(healthy.received.length, 1 + healthyEvents.length, 'warm-up + one per event');
    assert.ok(dead.maxInFlight() <= MAX_PER_ENDPOINT, `dead endpoint had ${dead.maxInFlight()} at once`);
    assert.ok(dead.maxInFlight() >= 1);
    assert.ok(
      healthy.maxInFlight() <= MAX_PER_ENDPOINT,
      `healthy endpoint had ${healthy.maxInFlight()} at once`,
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
});
