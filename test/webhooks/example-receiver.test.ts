// Tests of examples/webhook-receiver: what a tenant's receiver built from it would do.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { buildReceiver, type VerificationEvent } from '../../examples/webhook-receiver/server.ts';
import { buildWebhookPayload, serializeWebhookPayload } from '../../src/webhooks/build-webhook-payload.ts';
import { deliverWebhook } from '../../src/webhooks/deliver-webhook.ts';

const secret = 'whsec_example_receiver';
const sign = (body: Buffer | string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function startReceiver() {
  const handled: VerificationEvent[] = [];
  const ignored: string[] = [];
  let notify = () => {};
  const app = buildReceiver({
    secret,
    handleEvent: (event) => {
      handled.push(event);
      notify();
    },
    onIgnored: (reason) => {
      ignored.push(reason);
      notify();
    },
  });
  /** Resolves once `count` deliveries have been handled or ignored (the work runs after the 200). */
  const settled = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => handled.length + ignored.length >= count && resolve();
      notify = check;
      check();
    });
  return { app, handled, ignored, settled };
}

const approved = serializeWebhookPayload(
  buildWebhookPayload('decision', {
    generation: 1,
    verificationId: 'vs_A',
    tenantId: 'tn_1',
    decision: { status: 'approved', reason: 'all_checks_passed' },
    results: {},
    processedAt: new Date(),
  }),
);

async function post(app: ReturnType<typeof buildReceiver>, body: Buffer | string, signature?: string) {
  return app.inject({
    method: 'POST',
    url: '/webhooks/mimoto',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-service-signature': signature }),
    },
    payload: body,
  });
}

test('a correctly signed event is answered 200 and handled once', async () => {
  const { app, handled, settled } = startReceiver();
  const response = await post(app, approved, sign(approved));
  assert.equal(response.statusCode, 200);
  await settled(1);
  assert.equal(handled.length, 1);
  assert.deepEqual(
    [handled[0]?.event, handled[0]?.verificationId, handled[0]?.status],
    ['verification.approved', 'vs_A', 'approved'],
  );
});

test('a bad, missing or truncated signature is answered 401 and nothing is handled', async () => {
  const { app, handled, ignored } = startReceiver();
  const otherSecret = `sha256=${createHmac('sha256', 'wrong').update(approved).digest('hex')}`;
  for (const signature of [otherSecret, undefined, sign(approved).slice(0, -2), 'garbage']) {
    assert.equal((await post(app, approved, signature)).statusCode, 401, String(signature));
  }
  // Signed over re-serialised JSON instead of the raw bytes: also refused.
  const reformatted = JSON.stringify(JSON.parse(approved.toString()), null, 2);
  assert.equal((await post(app, approved, sign(reformatted))).statusCode, 401);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual([handled.length, ignored.length], [0, 0]);
});

test('the raw bytes are verified even with pretty-printed JSON and non-ASCII text', async () => {
  const { app, handled, settled } = startReceiver();
  const body = Buffer.from(
    '{\n  "event": "verification.rejected",\n  "verificationId": "vs_日本",\n  "status": "rejected"\n}',
    'utf8',
  );
  assert.equal((await post(app, body, sign(body))).statusCode, 200);
  await settled(1);
  assert.equal(handled[0]?.verificationId, 'vs_日本');
});

test('a repeated delivery is answered 200 but handled only once; a later status of the same verification is new', async () => {
  const { app, handled, ignored, settled } = startReceiver();
  const pending = Buffer.from(
    '{"event":"verification.pending_review","verificationId":"vs_B","status":"pending_review"}',
  );
  const reviewed = Buffer.from(
    '{"event":"verification.approved","verificationId":"vs_B","status":"approved","review":{"id":"rv_1"}}',
  );
  for (const body of [pending, pending, reviewed, reviewed]) {
    assert.equal((await post(app, body, sign(body))).statusCode, 200);
  }
  await settled(4);
  assert.deepEqual(
    handled.map((e) => e.status),
    ['pending_review', 'approved'],
  );
  assert.equal(ignored.filter((reason) => reason.startsWith('duplicate')).length, 2);
});

test('unknown event kinds and unexpected payloads are acknowledged and ignored without crashing', async () => {
  const { app, handled, ignored, settled } = startReceiver();
  const bodies = [
    '{"event":"verification.added_later","verificationId":"vs_C","status":"expired"}',
    'not json at all',
    '[1,2,3]',
    'null',
    '{"event":"verification.approved"}',
    '{"event":"verification.approved","verificationId":42,"status":"approved"}',
    '',
  ];
  for (const body of bodies) {
    assert.equal((await post(app, body, sign(body))).statusCode, 200, body);
  }
  await settled(bodies.length);
  assert.equal(handled.length, 0);
  assert.equal(ignored.length, bodies.length);
  // Still serving afterwards.
  assert.equal((await post(app, approved, sign(approved))).statusCode, 200);
});

test('a signed body with another content type is still verified on its raw bytes', async () => {
  const { app, settled, handled } = startReceiver();
  const response = await app.inject({
    method: 'POST',
    url: '/webhooks/mimoto',
    headers: { 'content-type': 'text/plain', 'x-service-signature': sign(approved) },
    payload: approved,
  });
  assert.equal(response.statusCode, 200);
  await settled(1);
  assert.equal(handled.length, 1);
});

test('a handler that is slow or throws does not delay or change the 200', async () => {
  let finish = () => {};
  const app = buildReceiver({
    secret,
    handleEvent: () => new Promise<void>((resolve) => (finish = resolve)),
  });
  const response = await post(app, approved, sign(approved));
  assert.equal(response.statusCode, 200);
  finish();
  const throwing = buildReceiver({
    secret,
    handleEvent: () => {
      throw new Error('business logic failed');
    },
  });
  assert.equal((await post(throwing, approved, sign(approved))).statusCode, 200);
  await new Promise((r) => setImmediate(r));
  assert.equal((await post(throwing, approved, sign(approved))).statusCode, 200);
});

test('end to end: the service delivers over HTTP and the example verifies it with the same secret', async () => {
  const { app, handled, settled } = startReceiver();
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const port = (app.server.address() as AddressInfo).port;
    const result = await deliverWebhook(
      {
        url: `http://127.0.0.1:${port}/webhooks/mimoto`,
        body: approved,
        secret,
        event: 'verification.approved',
        deliveryId: 'evt_1',
        attempt: 1,
      },
      { environment: 'development' },
    );
    assert.equal(result.outcome, 'success');
    assert.ok(result.durationMs < 1000);
    await settled(1);
    assert.equal(handled[0]?.deliveryId, 'evt_1');
    const refused = await deliverWebhook(
      {
        url: `http://127.0.0.1:${port}/webhooks/mimoto`,
        body: approved,
        secret: 'rotated-away',
        event: 'verification.approved',
        deliveryId: 'evt_1',
        attempt: 2,
      },
      { environment: 'development' },
    );
    assert.deepEqual([refused.outcome, refused.status], ['failure', 401]);
  } finally {
    await app.close();
  }
});

test('the browser redirect to the same callback URL (GET ?sessionId&state) gets a page, not a 404, and no event', async () => {
  const { app, handled, ignored } = startReceiver();
  const res = await app.inject({
    method: 'GET',
    url: '/webhooks/mimoto?sessionId=vs_A%3Cb%3E&state=csrf-token',
  });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.ok(res.body.includes('vs_A&#60;b&#62;'), 'the session id, escaped');
  assert.ok(!res.body.includes('<b>'));
  assert.deepEqual([handled.length, ignored.length], [0, 0]);
});
