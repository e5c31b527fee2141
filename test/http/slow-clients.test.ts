// Slow clients over a real socket to 127.0.0.1: headers dripped, a body dripped (with the right
// key and with a wrong one, whose 401 comes before the body), a body that stalls, and one that is
// merely slow but steady. The limits are the service's settings (config.http), made small here so
// that the test takes seconds: headers 600 ms, whole request 3 s, a body at least 1000 B/s on
// average after its first second.
import assert from 'node:assert/strict';
import net from 'node:net';
import { before, describe, it } from 'node:test';
import { CALLBACK_PREFIX, useTestApi } from '../helpers/api-client.ts';

const HEADERS_MS = 600;
const REQUEST_MS = 3000;

interface Outcome {
  /** What the server wrote before closing. */
  answer: string;
  /** From the connection to the server's close. */
  closedAfterMs: number;
}

describe('slow clients cannot hold a connection open', () => {
  const t = useTestApi({
    env: {
      MIMOTO_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      MIMOTO_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      MIMOTO_HTTP_BODY_MIN_BYTES_PER_SECOND: '1000',
      MIMOTO_HTTP_BODY_GRACE_MS: '1000',
    },
  });
  let port: number;
  before(async () => {
    await t.api.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.api.app.server.address() as net.AddressInfo).port;
    // The first request compiles the route's validators: not in the timings below.
    await t.api.createSession({ callbackUrl: CALLBACK_PREFIX });
    await t.platform.database.db.deleteFrom('verification_sessions').execute();
  });

  /** Writes `head`, then `chunk` every `everyMs` until the server closes (or `maxMs`, a failure). */
  function drip(head: string, chunk: string, everyMs: number, maxMs = 15_000): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let timer: NodeJS.Timeout | undefined;
      const give = setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`still open after ${maxMs} ms; answered so far: ${answer.slice(0, 200)}`));
      }, maxMs);
      socket.on('data', (data) => {
        answer += data.toString();
      });
      socket.on('error', () => {}); // a reset after the close is the same outcome
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(give);
        resolve({ answer, closedAfterMs: Date.now() - started });
      });
      socket.on('connect', () => {
        if (head) socket.write(head);
        timer = setInterval(() => {
          if (!socket.destroyed && socket.writable) socket.write(chunk);
        }, everyMs);
      });
    });
  }

  const bodyHead = (length: number, key = t.tenant.apiKey) =>
    `POST /v1/verification-sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('cuts headers sent a byte at a time once the header limit has passed (408)', async () => {
    const outcome = await drip('GET /healthz HTTP/1.1\r\n', 'X', 100);
    assert.match(outcome.answer, /^HTTP\/1\.1 408/);
    assert.ok(outcome.closedAfterMs >= HEADERS_MS, `closed after ${outcome.closedAfterMs} ms`);
    assert.ok(outcome.closedAfterMs < HEADERS_MS + 1500, `closed after ${outcome.closedAfterMs} ms`);
  });

  it('closes a connection that sends nothing at all within the header limit', async () => {
    const outcome = await drip('', '', 1_000_000);
    assert.ok(outcome.closedAfterMs < HEADERS_MS + 1500, `closed after ${outcome.closedAfterMs} ms`);
  });

  it('cuts a body dripped a byte every 100 ms (far below the minimum rate): 408, nothing created', async () => {
    const outcome = await drip(bodyHead(10_000), ' ', 100);
    assert.match(outcome.answer, /^HTTP\/1\.1 408/);
    assert.match(outcome.answer, /RequestTimeout/);
    assert.ok(outcome.closedAfterMs < 3000, `closed after ${outcome.closedAfterMs} ms`);
    const sessions = await t.platform.database.db.selectFrom('verification_sessions').select('id').execute();
    assert.equal(sessions.length, 0);
  });

  it('a wrong key gets its 401 at once, and the connection does not stay open while the body drips', async () => {
    const outcome = await drip(bodyHead(10_000, 'mmt_wrong_key_000000000000000000000000'), ' ', 100);
    assert.match(outcome.answer, /^HTTP\/1\.1 401/);
    assert.ok(outcome.closedAfterMs < 3000, `closed after ${outcome.closedAfterMs} ms`);
  });

  it('cuts a steady body that would outlast the whole-request limit', async () => {
    // 6000 B/s is well above the minimum rate; 36 KB of it takes 6 s, more than the 3 s allowed.
    const outcome = await drip(bodyHead(36_000), ' '.repeat(600), 100);
    assert.match(outcome.answer, /^HTTP\/1\.1 408/, outcome.answer.slice(0, 300));
    assert.ok(outcome.closedAfterMs >= REQUEST_MS - 100, `closed after ${outcome.closedAfterMs} ms`);
    assert.ok(outcome.closedAfterMs < REQUEST_MS + 1500, `closed after ${outcome.closedAfterMs} ms`);
  });

  it('answers a slow but steady request that fits the limits', async () => {
    const body = JSON.stringify({
      callbackUrl: CALLBACK_PREFIX,
      state: 'x'.repeat(500),
      preRegisteredInfo: { lastName: 'y'.repeat(40) },
      clientIpAddress: '203.0.113.9',
    });
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let offset = 0;
      socket.on('data', (data) => {
        received += data.toString();
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.on('connect', () => {
        socket.write(bodyHead(Buffer.byteLength(body)));
        // 300 bytes every 100 ms: 3000 B/s, the body in about 0.7 s.
        const timer = setInterval(() => {
          socket.write(body.slice(offset, offset + 300));
          offset += 300;
          if (offset >= body.length) clearInterval(timer);
        }, 100);
      });
    });
    assert.match(answer, /^HTTP\/1\.1 201/);
    assert.ok(Date.now() - started >= 250, 'the body was sent over at least 250 ms');
  });
});
