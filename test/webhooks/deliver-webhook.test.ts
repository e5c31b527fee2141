import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import { after, test } from 'node:test';
import {
  deliverWebhook,
  parseRetryAfter,
  postToVettedAddresses,
  type WebhookRequest,
} from '../../src/webhooks/deliver-webhook.ts';
import { nextAttemptAt } from '../../src/webhooks/retry-schedule.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

const secret = 'whsec_delivery_test';
const body = Buffer.from(
  '{"event":"verification.approved","verificationId":"vs_01","tenantId":"tn_01","status":"approved","note":"山田"}',
  'utf8',
);
const request = (url: string, attempt = 1): WebhookRequest => ({
  url,
  body,
  secret,
  event: 'verification.approved',
  deliveryId: 'evt_01JNV8ZK4Q3W5X7Y9A1B2C3D4E',
  attempt,
});
const development = { environment: 'development' as const, timeoutMs: 300 };
const receivers: LocalReceiver[] = [];
async function receiver(respond: Parameters<typeof startLocalReceiver>[0]): Promise<LocalReceiver> {
  const started = await startLocalReceiver(respond);
  receivers.push(started);
  return started;
}
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

test('200: success; the receiver gets the exact bytes and headers, verifiable with a stock HMAC', async () => {
  const ok = await receiver((_req, res) => res.writeHead(200).end('thanks'));
  const result = await deliverWebhook(request(ok.url('/hooks/kyc?tenant=1')), development);
  assert.equal(result.outcome, 'success');
  assert.equal(result.status, 200);
  assert.equal(result.errorClass, null);
  assert.equal(result.responseSnippet, 'thanks');
  const [got] = ok.received;
  assert.ok(got);
  assert.equal(got.method, 'POST');
  assert.equal(got.url, '/hooks/kyc?tenant=1');
  assert.ok(got.body.equals(body), 'the bytes received equal the bytes sent');
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers['x-service-event'], 'verification.approved');
  assert.equal(got.headers['x-service-delivery'], 'evt_01JNV8ZK4Q3W5X7Y9A1B2C3D4E');
  assert.equal(got.headers['x-service-attempt'], '1');
  const independent = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(got.body).digest('hex')}`;
  assert.equal(got.headers['x-service-signature'], independent);
});

test('retries send byte-identical bodies with the same delivery id and the next attempt number', async () => {
  const flaky = await receiver((_req, res) => res.writeHead(flaky.received.length === 1 ? 503 : 204).end());
  const first = await deliverWebhook(request(flaky.url(), 1), development);
  const second = await deliverWebhook(request(flaky.url(), 2), development);
  assert.equal(first.outcome, 'failure');
  assert.equal(second.outcome, 'success');
  const [a, b] = flaky.received;
  assert.ok(a && b);
  assert.ok(a.body.equals(b.body));
  assert.equal(a.headers['x-service-signature'], b.headers['x-service-signature']);
  assert.equal(a.headers['x-service-delivery'], b.headers['x-service-delivery']);
  assert.deepEqual([a.headers['x-service-attempt'], b.headers['x-service-attempt']], ['1', '2']);
});

test('500: failure of class http_status, with the response snippet', async () => {
  const broken = await receiver((_req, res) => res.writeHead(500).end('database down'));
  const result = await deliverWebhook(request(broken.url()), development);
  assert.deepEqual([result.outcome, result.status, result.errorClass], ['failure', 500, 'http_status']);
  assert.equal(result.responseSnippet, 'database down');
});

test('404: failure of class http_status (retried, unlike 410)', async () => {
  const missing = await receiver((_req, res) => res.writeHead(404).end());
  const result = await deliverWebhook(request(missing.url()), development);
  assert.deepEqual([result.outcome, result.status, result.errorClass], ['failure', 404, 'http_status']);
});

test('410: outcome gone', async () => {
  const gone = await receiver((_req, res) => res.writeHead(410).end('endpoint removed'));
  const result = await deliverWebhook(request(gone.url()), development);
  assert.deepEqual([result.outcome, result.status], ['gone', 410]);
});

test('302: failure of class redirect, and the Location is not followed', async () => {
  const target = await receiver((_req, res) => res.writeHead(200).end());
  const redirecting = await receiver((_req, res) => res.writeHead(302, { Location: target.url() }).end());
  const result = await deliverWebhook(request(redirecting.url()), development);
  assert.deepEqual([result.outcome, result.status, result.errorClass], ['failure', 302, 'redirect']);
  assert.equal(target.received.length, 0);
});

test('no answer within the limit: failure of class timeout, after about the limit', async () => {
  const silent = await receiver(() => {});
  const result = await deliverWebhook(request(silent.url()), development);
  assert.deepEqual([result.outcome, result.status, result.errorClass], ['failure', null, 'timeout']);
  assert.ok(result.durationMs >= 290 && result.durationMs < 1500, `${result.durationMs} ms`);
});

test('a 200 whose body never ends counts as a timeout', async () => {
  const endless = await receiver((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('still thinking');
  });
  const result = await deliverWebhook(request(endless.url()), development);
  assert.deepEqual([result.outcome, result.status, result.errorClass], ['failure', 200, 'timeout']);
  assert.equal(result.responseSnippet, 'still thinking');
});

test('connection refused: failure of class connection_refused', async () => {
  const closed = await startLocalReceiver(() => {});
  const url = closed.url();
  await closed.close();
  const result = await deliverWebhook(request(url), development);
  assert.deepEqual(
    [result.outcome, result.status, result.errorClass],
    ['failure', null, 'connection_refused'],
  );
});

test('the connection is cut mid-response: failure of class connection_error', async () => {
  const cutting = await receiver((_req, res) => {
    res.writeHead(200, { 'Content-Length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  const result = await deliverWebhook(request(cutting.url()), development);
  assert.deepEqual([result.outcome, result.errorClass], ['failure', 'connection_error']);
});

test('Retry-After on 503 and 429 is reported in milliseconds', async () => {
  const busy = await receiver((_req, res) => res.writeHead(503, { 'Retry-After': '120' }).end());
  const result = await deliverWebhook(request(busy.url()), development);
  assert.equal(result.retryAfterMs, 120_000);
  const limited = await receiver((_req, res) =>
    res.writeHead(429, { 'Retry-After': new Date(Date.now() + 30_000).toUTCString() }).end(),
  );
  const dated = await deliverWebhook(request(limited.url()), development);
  assert.ok(dated.retryAfterMs !== null && dated.retryAfterMs > 25_000 && dated.retryAfterMs <= 30_000);
  assert.equal(parseRetryAfter('soon', Date.now()), null);
  assert.equal(parseRetryAfter(undefined, Date.now()), null);
});

test('only the first 1 KB of a long response is kept, and a long error body does not hold the attempt', async () => {
  const chatty = await receiver((_req, res) => {
    res.writeHead(500);
    res.write('x'.repeat(5000)); // and never ends
  });
  const result = await deliverWebhook(request(chatty.url()), { environment: 'development', timeoutMs: 3000 });
  assert.equal(result.responseSnippet, 'x'.repeat(1024));
  assert.equal(result.errorClass, 'http_status');
  assert.ok(result.durationMs < 1500, `${result.durationMs} ms, expected well before the 3 s limit`);
});

test('production refuses http://127.0.0.1 before any connection (ssrf_refused)', async () => {
  const local = await receiver((_req, res) => res.writeHead(200).end());
  const result = await deliverWebhook(request(local.url()), { environment: 'production', timeoutMs: 300 });
  assert.deepEqual([result.outcome, result.errorClass], ['failure', 'ssrf_refused']);
  const https127 = await deliverWebhook(request(`https://127.0.0.1:${local.port}/`), {
    environment: 'production',
    timeoutMs: 300,
  });
  assert.equal(https127.errorClass, 'ssrf_refused');
  assert.equal(local.received.length, 0);
});

test('a host that resolves to a private address is refused; the resolver is asked once', async () => {
  let asked = 0;
  const result = await deliverWebhook(request('https://rebinding.example.com/hook'), {
    environment: 'production',
    timeoutMs: 300,
    resolveHost: async () => {
      asked++;
      return [{ address: '10.0.0.8', family: 4 }];
    },
  });
  assert.equal(result.errorClass, 'ssrf_refused');
  assert.match(result.errorMessage ?? '', /10\.0\.0\.8: private/);
  assert.equal(asked, 1);
});

test('a resolver that never answers ends as dns_error within the limit', async () => {
  const result = await deliverWebhook(request('https://slow-dns.example.com/'), {
    environment: 'production',
    timeoutMs: 200,
    resolveHost: () => new Promise(() => {}),
  });
  assert.equal(result.errorClass, 'dns_error');
  assert.ok(result.durationMs < 1000);
});

test('the connection goes to the vetted address while Host keeps the name (no DNS at connect)', async () => {
  const pinned = await receiver((_req, res) => res.writeHead(200).end());
  // .invalid never resolves (RFC 2606): success proves the pinned address was used.
  const url = new URL(`http://receiver.invalid:${pinned.port}/hook`);
  const result = await postToVettedAddresses(
    { url, addresses: [{ address: '127.0.0.1', family: 4 }] },
    request(url.href),
    {
      timeoutMs: 300,
    },
  );
  assert.equal(result.outcome, 'success');
  assert.equal(pinned.received[0]?.headers.host, `receiver.invalid:${pinned.port}`);
});

test('https: SNI and the certificate check use the host name while connecting to the pinned address', async () => {
  const fixtures = new URL('./fixtures/', import.meta.url);
  const cert = readFileSync(new URL('receiver.test.cert.pem', fixtures));
  const key = readFileSync(new URL('receiver.test.key.pem', fixtures));
  let sni: string | undefined;
  const server = https.createServer({
    cert,
    key,
    SNICallback: (name, cb) => {
      sni = name;
      cb(null, undefined);
    },
  });
  const tlsReceiver = await startLocalReceiver(
    (_req, res) => res.writeHead(200).end('ok'),
    server as unknown as http.Server,
  );
  receivers.push(tlsReceiver);
  const addresses = [{ address: '127.0.0.1', family: 4 as const }];
  const url = new URL(`https://receiver.test:${tlsReceiver.port}/hook`);
  const trusted = await postToVettedAddresses({ url, addresses }, request(url.href), {
    timeoutMs: 1000,
    ca: cert,
  });
  assert.equal(trusted.outcome, 'success', trusted.errorMessage ?? '');
  assert.equal(sni, 'receiver.test');
  assert.ok(tlsReceiver.received[0]?.body.equals(body));
  // The same server under another name fails the certificate check: the name, not the address, is verified.
  const otherName = new URL(`https://other.test:${tlsReceiver.port}/hook`);
  const mismatch = await postToVettedAddresses({ url: otherName, addresses }, request(otherName.href), {
    timeoutMs: 1000,
    ca: cert,
  });
  assert.deepEqual([mismatch.outcome, mismatch.errorClass], ['failure', 'tls_error']);
  // And without trusting the self-signed root, it is refused too.
  const untrusted = await postToVettedAddresses({ url, addresses }, request(url.href), { timeoutMs: 1000 });
  assert.equal(untrusted.errorClass, 'tls_error');
});

test('each failure class leads to the right next step of the schedule', async () => {
  const firstTryAt = new Date();
  const classes: Array<[string, (res: http.ServerResponse) => void, 'retry' | 'stop']> = [
    ['200', (res) => res.writeHead(200).end(), 'stop'],
    ['204', (res) => res.writeHead(204).end(), 'stop'],
    ['410', (res) => res.writeHead(410).end(), 'stop'],
    ['404', (res) => res.writeHead(404).end(), 'retry'],
    ['500', (res) => res.writeHead(500).end(), 'retry'],
    ['302', (res) => res.writeHead(302, { Location: '/elsewhere' }).end(), 'retry'],
    ['no answer', () => {}, 'retry'],
    ['endless body', (res) => res.writeHead(200).write('...'), 'retry'],
  ];
  for (const [name, respond, expected] of classes) {
    const endpoint = await receiver((_req, res) => respond(res));
    const result = await deliverWebhook(request(endpoint.url()), development);
    const next = nextAttemptAt(1, firstTryAt, result, () => 0.5);
    assert.equal(next === null ? 'stop' : 'retry', expected, name);
    if (next) assert.equal(next.getTime(), firstTryAt.getTime() + 10_000, name);
  }
});
