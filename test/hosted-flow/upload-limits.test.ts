// Hostile and malformed uploads on the hosted flow's upload routes (docs/hosted-flow-api.md): a
// liveness attempt is judged before its frames are read, its size is bounded, one attempt per
// session is received at a time; broken multipart is a 400 JSON answer; and a request answered
// before its body was read leaves its keep-alive connection usable. Socket tests use a real
// server on 127.0.0.1, since app.inject() has no connection to stall.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { before, describe, type TestContext, test } from 'node:test';
import sharp from 'sharp';
import {
  AttemptsInFlight,
  LIVENESS_UPLOAD_LIMITS,
  MAX_LIVENESS_ATTEMPT_PIXELS,
  MAX_LIVENESS_FRAME_PIXELS,
  MAX_LIVENESS_FRAMES,
} from '../../src/hosted-flow/liveness-attempt.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const CORPUS = 'test/fixtures/corpus';
const front = readFileSync(`${CORPUS}/drivers_license-genuine-0/front.jpg`);
const staticFrames = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8'))
  .samples.find((s: { id: string }) => s.id === 'static_photo-0')
  .files.frames.map((f: { file: string }) => readFileSync(`${CORPUS}/${f.file}`)) as Buffer[];
const UNKNOWN_CHALLENGE = `lc_${'0'.repeat(26)}`;

/** A real JPEG of `size` bytes: a small picture padded with comment segments. */
async function paddedJpeg(size: number): Promise<Buffer> {
  const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a7' } })
    .jpeg()
    .toBuffer();
  const segments: Buffer[] = [];
  for (let left = size - base.length; left > 4; ) {
    const payload = Math.min(65_533, left - 4);
    const head = Buffer.from([0xff, 0xfe, 0, 0]);
    head.writeUInt16BE(payload + 2, 2);
    segments.push(head, Buffer.alloc(payload, 0x20));
    left -= payload + 4;
  }
  return Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
}

const BOUNDARY = 'test-boundary-7d3f';
const fieldPart = (name: string, value: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const filePart = (name: string, bytes: Buffer, i = 0) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="f${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);

function attemptBody(challengeId: string, frames: Buffer[], timestamps = frames.map((_, i) => i * 400)) {
  return Buffer.concat([
    fieldPart('challengeId', challengeId),
    fieldPart('timestamps', JSON.stringify(timestamps)),
    ...frames.map((f, i) => filePart('frames', f, i)),
    closing,
  ]);
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 connection to the server, read by hand: what a browser's keep-alive socket sees. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  ended = false;
  readonly socket: net.Socket;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    const end = () => {
      this.ended = true;
      this.waiting?.();
    };
    this.socket.on('end', end).on('close', end).on('error', end);
  }

  write(head: string, body?: Buffer) {
    this.socket.write(body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head));
  }

  /** The next whole response (Content-Length bodies), or null if none comes within `ms`. */
  async response(ms = 5000): Promise<RawResponse | null> {
    const deadline = Date.now() + ms;
    while (true) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.ended || Date.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
  }

  private parse(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(lines[0]?.split(' ')[1]), headers, body };
  }

  close() {
    this.socket.destroy();
  }
}

function postHead(client: FlowClient, path: string, length: number | 'chunked', extra = '') {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
    `Cookie: mimoto_flow=${client.cookie}\r\nX-CSRF-Token: ${client.csrf}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
    (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
    `${extra}\r\n`
  );
}

function stateRequest(client: FlowClient) {
  return `GET /verify/api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: mimoto_flow=${client.cookie}\r\n\r\n`;
}

const chunk = (bytes: Buffer) =>
  Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);

test('one attempt in flight per session: released when done, and a silent one stops blocking after a while', () => {
  const inFlight = new AttemptsInFlight(60_000);
  const leave = inFlight.enter('vs_A', 0);
  assert.throws(() => inFlight.enter('vs_A', 1000), { code: 'LivenessAttemptInProgress' });
  const other = inFlight.enter('vs_B', 1000);
  leave();
  const again = inFlight.enter('vs_A', 2000);
  // An upload gone silent for a minute no longer holds the session; its late end frees nothing.
  const takeover = inFlight.enter('vs_A', 62_001);
  again();
  assert.throws(() => inFlight.enter('vs_A', 62_002), { code: 'LivenessAttemptInProgress' });
  takeover();
  other();
  inFlight.enter('vs_A', 62_003)();
});

describe('liveness uploads are judged before their frames are read', () => {
  // These uploads are held half-sent on purpose while another request is made: no minimum body
  // rate here (test/http/slow-clients.test.ts covers it).
  const t = useTestApi({ env: { ...dataDirEnv(), MIMOTO_HTTP_BODY_MIN_BYTES_PER_SECOND: '0' } });
  let port = 0;
  const connect = (context: TestContext) => {
    const c = new RawConnection(port);
    // Closed before the app: a keep-alive connection left open would hold app.close() up.
    context.after(() => c.close());
    return c;
  };
  before(async () => {
    await t.api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.api.app.server.address() as net.AddressInfo).port;
  });

  const readyForLiveness = async () => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    return a;
  };

  test('an unknown challenge is answered 409 while the frames are still on their way', async (context) => {
    const a = await readyForLiveness();
    const frame = await paddedJpeg(500_000);
    const body = attemptBody(UNKNOWN_CHALLENGE, [frame, frame, frame, frame]);
    const c = connect(context);
    // Only the fields and the start of the first frame are sent; the rest never comes.
    c.write(postHead(a, '/verify/api/liveness/attempts', body.length), body.subarray(0, 1000));
    const res = await c.response(3000);
    assert.ok(res, 'answered without the rest of the body');
    assert.equal(res.status, 409);
    assert.equal(JSON.parse(res.body).error, 'LivenessChallengeInvalid');
  });

  test('a request declaring more than the limit is refused (413) before its body is read', async (context) => {
    const a = await readyForLiveness();
    const c = connect(context);
    c.write(postHead(a, '/verify/api/liveness/attempts', LIVENESS_UPLOAD_LIMITS.maxRequestBytes + 1));
    const res = await c.response(3000);
    assert.ok(res, 'answered without the body');
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).error, 'PayloadTooLarge');
    assert.equal(res.headers.connection, 'close');
  });

  test('a frame over the per-frame limit → 413 and the attempt is not used up', async () => {
    const a = await readyForLiveness();
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    const big = await paddedJpeg(LIVENESS_UPLOAD_LIMITS.maxFileBytes + 1000);
    const frames = staticFrames.slice(0, 4).map((bytes) => ({ field: 'frames', bytes }));
    frames[2] = { field: 'frames', bytes: big };
    const res = await a.upload('/verify/api/liveness/attempts', frames, {
      challengeId,
      timestamps: JSON.stringify([0, 400, 800, 1200]),
    });
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().error, 'PayloadTooLarge');
    assert.equal((await a.state()).json().steps.liveness.attemptsLeft, 3);
  });

  /** A flat JPEG of width×height: many pixels in few bytes, as a bomb or an oversized camera sends. */
  const flatJpeg = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#8a7' } })
      .jpeg({ quality: 50 })
      .toBuffer();
  const challengeRow = (challengeId: string) =>
    t.platform.database.db
      .selectFrom('liveness_challenges')
      .select(['used_at', 'passed'])
      .where('id', '=', challengeId)
      .executeTakeFirstOrThrow();

  test('a frame over the pixel budget (1920×1080) → 422 ImageTooManyPixels, no try used, the challenge still open', async () => {
    assert.equal(MAX_LIVENESS_FRAME_PIXELS, 1920 * 1080);
    const a = await readyForLiveness();
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    // 7000×7000 = 49 MP in a few hundred KB: under the byte limit, far over the pixel budget.
    const huge = await flatJpeg(7000, 7000);
    assert.ok(huge.length < LIVENESS_UPLOAD_LIMITS.maxFileBytes, `${huge.length} bytes`);
    const frames = staticFrames.slice(0, 4).map((bytes) => ({ field: 'frames', bytes }));
    frames[1] = { field: 'frames', bytes: huge };
    const res = await a.upload('/verify/api/liveness/attempts', frames, {
      challengeId,
      timestamps: JSON.stringify([0, 400, 800, 1200]),
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'ImageTooManyPixels');
    assert.deepEqual(res.json().details, [
      { path: '/frames/1', message: '49000000 pixels; at most 2073600' },
    ]);
    assert.equal((await a.state()).json().steps.liveness.attemptsLeft, 3);
    assert.deepEqual(await challengeRow(challengeId), { used_at: null, passed: null });
    // One pixel over in either direction is over too; 1920×1080 itself is within (the next test).
    const wide = await flatJpeg(1921, 1080);
    const over = await a.upload(
      '/verify/api/liveness/attempts',
      [wide, ...staticFrames.slice(0, 3)].map((bytes) => ({ field: 'frames', bytes })),
      { challengeId, timestamps: JSON.stringify([0, 400, 800, 1200]) },
    );
    assert.equal(over.statusCode, 422, over.body);
    assert.equal(over.json().details[0].path, '/frames/0');
  });

  test(`an attempt over its pixel budget (ten 1080p frames) → 422 at the frame that passes it, no try used`, async () => {
    assert.equal(MAX_LIVENESS_ATTEMPT_PIXELS, 10 * 1920 * 1080);
    const a = await readyForLiveness();
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    const full = await flatJpeg(1920, 1080);
    const eleven = Array.from({ length: 11 }, () => ({ field: 'frames', bytes: full }));
    const res = await a.upload('/verify/api/liveness/attempts', eleven, {
      challengeId,
      timestamps: JSON.stringify(eleven.map((_, i) => i * 300)),
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'ImageTooManyPixels');
    assert.deepEqual(res.json().details, [
      { path: '/frames', message: `${11 * 1920 * 1080} pixels with frame 10; at most ${10 * 1920 * 1080}` },
    ]);
    assert.match(res.json().message, /\S/);
    assert.equal((await a.state()).json().steps.liveness.attemptsLeft, 3);
    assert.deepEqual(await challengeRow(challengeId), { used_at: null, passed: null });
  });

  test(`more than ${MAX_LIVENESS_FRAMES} frames, or frames before the fields → 400`, async () => {
    const a = await readyForLiveness();
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    const tooMany = Array.from({ length: MAX_LIVENESS_FRAMES + 1 }, (_, i) => i * 100);
    const frame = staticFrames[0]!;
    const many = await a.upload('/verify/api/liveness/attempts', [{ field: 'frames', bytes: frame }], {
      challengeId,
      timestamps: JSON.stringify(tooMany),
    });
    assert.equal(many.statusCode, 400);
    assert.equal(many.json().error, 'ValidationFailed');
    const body = Buffer.concat([
      filePart('frames', frame),
      fieldPart('challengeId', challengeId),
      fieldPart('timestamps', '[0,1,2,3]'),
      closing,
    ]);
    const late = await t.api.app.inject({
      method: 'POST',
      url: '/verify/api/liveness/attempts',
      headers: {
        cookie: `mimoto_flow=${a.cookie}`,
        'x-csrf-token': a.csrf,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: body,
    });
    assert.equal(late.statusCode, 400, late.body);
    assert.equal(late.json().error, 'ValidationFailed');
    assert.equal((await a.state()).json().steps.liveness.attemptsLeft, 3);
  });

  test('a second attempt of the same session while one is being received → 409 LivenessAttemptInProgress', async (context) => {
    const a = await readyForLiveness();
    const first = (await a.send('POST', '/verify/api/liveness/challenge')).json().challengeId;
    const second = (await a.send('POST', '/verify/api/liveness/challenge')).json().challengeId;
    const frames = staticFrames.slice(0, 4);
    const body = attemptBody(first, frames);
    const c = connect(context);
    // The first attempt's fields and half its frames arrive; the rest is held back.
    const half = body.length - Math.floor(frames[3]!.length / 2);
    c.write(postHead(a, '/verify/api/liveness/attempts', body.length), body.subarray(0, half));
    await new Promise((r) => setTimeout(r, 300));
    const other = await a.upload(
      '/verify/api/liveness/attempts',
      frames.map((bytes) => ({ field: 'frames', bytes })),
      { challengeId: second, timestamps: JSON.stringify([0, 400, 800, 1200]) },
    );
    assert.equal(other.statusCode, 409, other.body);
    assert.equal(other.json().error, 'LivenessAttemptInProgress');
    assert.ok(other.json().messages.ja && other.json().messages.en);
    // The first one, completed, is verified as usual; then the session takes attempts again.
    c.write('', body.subarray(half));
    const res = await c.response(60_000);
    assert.equal(res?.status, 200, res?.body);
    assert.equal((await a.state()).json().steps.liveness.attemptsLeft, 2);
  });
});

describe('malformed multipart → 400 with a JSON body on every upload route', () => {
  const t = useTestApi({ env: dataDirEnv() });
  const cases: [string, string, Buffer][] = [
    ['no boundary', 'multipart/form-data', attemptBody(UNKNOWN_CHALLENGE, [])],
    [
      'a body cut off inside a file',
      `multipart/form-data; boundary=${BOUNDARY}`,
      Buffer.concat([
        fieldPart('challengeId', UNKNOWN_CHALLENGE),
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        front.subarray(0, 5000),
      ]),
    ],
    [
      'a part with broken headers',
      `multipart/form-data; boundary=${BOUNDARY}`,
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`),
    ],
    [
      'a boundary that never appears',
      'multipart/form-data; boundary=elsewhere',
      Buffer.from('just some bytes\r\n\r\n'),
    ],
    ['an empty body', `multipart/form-data; boundary=${BOUNDARY}`, Buffer.alloc(0)],
  ];
  for (const route of ['/verify/api/documents/front', '/verify/api/liveness/attempts']) {
    for (const [name, contentType, payload] of cases) {
      test(`${route}: ${name}`, async () => {
        const a = await FlowClient.enter(t);
        await a.send('POST', '/verify/api/consent');
        await a.send('PUT', '/verify/api/document-type', { documentType: 'drivers_license' });
        const res = await t.api.app.inject({
          method: 'POST',
          url: route,
          headers: { cookie: `mimoto_flow=${a.cookie}`, 'x-csrf-token': a.csrf, 'content-type': contentType },
          payload,
        });
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode} ${res.body}`);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const body = res.json();
        assert.ok(['BadRequest', 'ValidationFailed'].includes(body.error), body.error);
        assert.ok(body.message && body.messages.ja && body.messages.en);
      });
    }
  }
});

describe('a keep-alive connection answers its next request after an upload refused early', () => {
  const t = useTestApi({ env: dataDirEnv() });
  let port = 0;
  before(async () => {
    await t.api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.api.app.server.address() as net.AddressInfo).port;
  });
  const documentReady = async (context: TestContext) => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    await a.send('PUT', '/verify/api/document-type', { documentType: 'drivers_license' });
    const c = new RawConnection(port);
    context.after(() => c.close());
    return { a, c };
  };
  const big = Buffer.concat([front, Buffer.alloc(2_000_000, 0x20)]);

  const refusedEarly: [string, () => Buffer][] = [
    ['the image in a wrong field', () => Buffer.concat([filePart('photo', big), closing])],
    ['a second file', () => Buffer.concat([filePart('image', front), filePart('image', big, 1), closing])],
  ];
  for (const [name, makeBody] of refusedEarly) {
    test(`${name}: 400, then the same connection answers the next request`, async (context) => {
      const { a, c } = await documentReady(context);
      const body = makeBody();
      c.write(postHead(a, '/verify/api/documents/front', body.length), body);
      const refused = await c.response();
      assert.equal(refused?.status, 400, refused?.body);
      assert.equal(JSON.parse(refused.body).error, 'ValidationFailed');
      assert.notEqual(refused.headers.connection, 'close');
      c.write(stateRequest(a));
      const next = await c.response(5000);
      assert.ok(next, 'the next request on the connection is answered');
      assert.equal(next.status, 200);
      assert.equal(JSON.parse(next.body).csrfToken, a.csrf);
    });
  }

  test('a chunked upload refused early: answered, then the connection is closed (not left hanging)', async (context) => {
    const { a, c } = await documentReady(context);
    c.write(postHead(a, '/verify/api/documents/front', 'chunked'), chunk(filePart('photo', big)));
    const refused = await c.response();
    assert.equal(refused?.status, 400, refused?.body);
    assert.equal(refused.headers.connection, 'close');
    const deadline = Date.now() + 5000;
    while (!c.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(c.ended, 'the server closes the connection');
  });
});
