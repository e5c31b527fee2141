import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, test } from 'node:test';
import { deliverWebhook, type WebhookRequest } from '../../src/webhooks/deliver-webhook.ts';
import { EndpointConcurrencyLimiter, endpointKey } from '../../src/webhooks/endpoint-concurrency.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

const receivers: LocalReceiver[] = [];
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const request = (url: string, n: number): WebhookRequest => ({
  url,
  body: Buffer.from(`{"n":${n}}`),
  secret: 's',
  event: 'verification.approved',
  deliveryId: `evt_${n}`,
  attempt: 1,
});

test('endpoints are keyed by origin', () => {
  assert.equal(endpointKey('https://Tenant.example.com:443/a?b'), 'https://tenant.example.com');
  assert.equal(endpointKey('https://tenant.example.com/other'), 'https://tenant.example.com');
  assert.notEqual(
    endpointKey('https://tenant.example.com:8443/'),
    endpointKey('https://tenant.example.com/'),
  );
  assert.notEqual(endpointKey('http://127.0.0.1:1/'), endpointKey('http://127.0.0.1:2/'));
});

test('a hanging endpoint holds at most its limit of connections and does not delay a healthy one', async () => {
  const hanging = await startLocalReceiver(() => {});
  const healthy = await startLocalReceiver((_req, res) => res.writeHead(200).end());
  receivers.push(hanging, healthy);
  const limiter = new EndpointConcurrencyLimiter(2);
  const options = { environment: 'development' as const, timeoutMs: 4000 };

  // Baseline: 20 deliveries to the healthy endpoint alone.
  let start = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      limiter.run(endpointKey(healthy.url()), () => deliverWebhook(request(healthy.url(), n), options)),
    ),
  );
  const alone = performance.now() - start;

  // Now 30 deliveries to the hanging endpoint are queued first, then 20 to the healthy one.
  const stuck = Array.from({ length: 30 }, (_, n) =>
    limiter.run(endpointKey(hanging.url()), () => deliverWebhook(request(hanging.url(), n), options)),
  );
  start = performance.now();
  const healthyResults = await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      limiter.run(endpointKey(healthy.url()), () => deliverWebhook(request(healthy.url(), 100 + n), options)),
    ),
  );
  const alongside = performance.now() - start;

  assert.ok(healthyResults.every((r) => r.outcome === 'success'));
  // Finished long before the hanging deliveries' 4 s limit: no queueing behind them.
  assert.ok(
    alongside < 2000,
    `healthy deliveries took ${alongside.toFixed(0)} ms next to a hanging endpoint`,
  );
  assert.equal(hanging.maxInFlight(), 2);
  assert.equal(limiter.inFlight(endpointKey(hanging.url())), 2);
  assert.equal(limiter.waiting(endpointKey(hanging.url())), 28);
  console.log(
    `# 20 healthy deliveries: ${alone.toFixed(0)} ms alone, ${alongside.toFixed(0)} ms next to a hanging endpoint`,
  );

  // Release the hanging endpoint: the rest of its queue drains, still two at a time.
  await hanging.close();
  const stuckResults = await Promise.all(stuck);
  assert.equal(stuckResults.length, 30);
  assert.ok(stuckResults.every((r) => r.outcome === 'failure'));
  assert.ok(hanging.maxInFlight() <= 2);
  assert.equal(limiter.inFlight(endpointKey(hanging.url())), 0);
});

test('tryRun refuses at once when the endpoint is full, and frees the slot when a task ends', async () => {
  const limiter = new EndpointConcurrencyLimiter(1);
  let release = () => {};
  const first = limiter.tryRun(
    'https://a.example',
    () => new Promise<string>((r) => (release = () => r('done'))),
  );
  assert.equal(first.ran, true);
  assert.deepEqual(
    limiter.tryRun('https://a.example', async () => 'second'),
    { ran: false },
  );
  const other = limiter.tryRun('https://b.example', async () => 'other');
  assert.equal(other.ran && (await other.result), 'other');
  release();
  assert.equal(first.ran && (await first.result), 'done');
  const again = limiter.tryRun('https://a.example', async () => 'third');
  assert.equal(again.ran && (await again.result), 'third');
});

test('waiting tasks run in arrival order and a failing task still frees its slot', async () => {
  const limiter = new EndpointConcurrencyLimiter(1);
  const order: number[] = [];
  const tasks = [0, 1, 2, 3].map((n) =>
    limiter.run('https://a.example', async () => {
      order.push(n);
      await new Promise((r) => setTimeout(r, 5));
      if (n === 1) throw new Error('boom');
      return n;
    }),
  );
  const settled = await Promise.allSettled(tasks);
  assert.deepEqual(order, [0, 1, 2, 3]);
  assert.equal(settled[1]?.status, 'rejected');
  assert.equal(limiter.inFlight('https://a.example'), 0);
  assert.throws(() => new EndpointConcurrencyLimiter(0), RangeError);
});
