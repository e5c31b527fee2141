// @mimoto/node against a real running server (fastify listening on 127.0.0.1, PGlite or
// PostgreSQL): every /v1 operation, its typed errors; and its retries against a local stub that
// answers what a test needs (429, 5xx, garbage, silence).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  isApiError,
  Mimoto,
  MimotoApiError,
  MimotoConnectionError,
  type SessionDetail,
} from '../../packages/node/src/index.ts';
import { CALLBACK_PREFIX, createTestTenant, useTestApi } from '../helpers/api-client.ts';

describe('@mimoto/node against the running service', () => {
  const t = useTestApi();
  let mimoto: Mimoto;
  let baseUrl: string;
  before(async () => {
    await t.api.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.api.app.server.address() as AddressInfo).port}`;
    mimoto = new Mimoto({ apiKey: t.tenant.apiKey, baseUrl, retryBaseDelayMs: 1 });
  });

  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    assert.fail('expected the call to fail');
  };
  const markSubmitted = (sessionId: string, verificationStatus = 'processing') =>
    t.platform.database.db
      .updateTable('verification_sessions')
      .set({
        status: 'liveness_success',
        submitted_at: new Date(),
        verification_status: verificationStatus as never,
      })
      .where('id', '=', sessionId)
      .execute();

  it('creates and reads a session; fields with no value are absent', async () => {
    const created = await mimoto.sessions.create({
      callbackUrl: CALLBACK_PREFIX,
      state: 'abc',
      preRegisteredInfo: { lastName: '山田', birthDate: '1990-01-15' },
    });
    assert.match(created.sessionId, /^vs_/);
    const detail: SessionDetail = await mimoto.sessions.get(created.sessionId);
    assert.equal(detail.status, 'pending');
    assert.deepEqual(detail.preRegisteredInfo, { lastName: '山田', birthDate: '1990-01-15' });
    assert.equal(detail.verification, undefined);
    assert.equal('documents' in detail, false);
  });

  it('answers typed errors: code, status and details of the route', async () => {
    const invalid = await failure(mimoto.sessions.create({ callbackUrl: '' }));
    assert.ok(isApiError(invalid, 'createSession'));
    assert.equal(invalid.code, 'ValidationFailed');
    assert.equal(invalid.status, 400);
    assert.ok(invalid.details?.some((d) => d.path.includes('callbackUrl')));
    const outside = await failure(mimoto.sessions.create({ callbackUrl: 'https://elsewhere.example/cb' }));
    assert.ok(isApiError(outside, 'createSession') && outside.code === 'CallbackUrlNotAllowed');
    const missing = await failure(mimoto.sessions.get('vs_UNKNOWN0000000000000000000'));
    assert.ok(isApiError(missing, 'getSession'));
    assert.equal(missing.code, 'NotFound');
    assert.equal(isApiError(missing, 'createSession'), false, 'narrowed to the operation that failed');
    const wrongKey = new Mimoto({ apiKey: 'mmt_test_nope', baseUrl, maxRetries: 0 });
    const unauthorized = await failure(wrongKey.sessions.list());
    assert.ok(unauthorized instanceof MimotoApiError);
    assert.deepEqual([unauthorized.status, unauthorized.code], [401, 'Unauthorized']);
    const other = new Mimoto({ apiKey: (await createTestTenant(t.platform)).apiKey, baseUrl });
    const mine = (await mimoto.sessions.create({ callbackUrl: CALLBACK_PREFIX })).sessionId;
    const forbidden = await failure(other.sessions.get(mine));
    assert.ok(isApiError(forbidden, 'getSession') && forbidden.code === 'Forbidden');
    assert.throws(() => mimoto.sessions.get(''), TypeError);
  });

  it('lists page by page, and listAll walks every page', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await mimoto.sessions.create({ callbackUrl: CALLBACK_PREFIX })).sessionId);
      t.platform.advance(1_000);
    }
    const first = await mimoto.sessions.list({ limit: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.hasMore, true);
    const all = [];
    for await (const session of mimoto.sessions.listAll({ limit: 2, status: 'pending' }))
      all.push(session.sessionId);
    assert.deepEqual(all.slice(0, 3), ids.reverse());
    assert.equal(new Set(all).size, all.length, 'no session twice');
    const bad = await failure(mimoto.sessions.list({ limit: 0 }));
    assert.ok(isApiError(bad, 'listSessions') && bad.code === 'ValidationFailed');
  });

  it('cancels, then redacts; refuses what the session state does not allow', async () => {
    const { sessionId } = await mimoto.sessions.create({ callbackUrl: CALLBACK_PREFIX });
    const unfinished = await failure(mimoto.sessions.redact(sessionId));
    assert.ok(isApiError(unfinished, 'redactSession') && unfinished.code === 'SessionNotRedactable');
    const cancelled = await mimoto.sessions.cancel(sessionId);
    assert.equal(cancelled.status, 'expired');
    assert.ok(cancelled.cancelledAt);
    const redacted = await mimoto.sessions.redact(sessionId);
    assert.ok(redacted.dataErasedAt);
    const submitted = (await mimoto.sessions.create({ callbackUrl: CALLBACK_PREFIX })).sessionId;
    await markSubmitted(submitted);
    const late = await failure(mimoto.sessions.cancel(submitted));
    assert.ok(isApiError(late, 'cancelSession') && late.code === 'SessionNotCancellable');
  });

  it('reprocesses with or without a body, and reviews only what waits for review', async () => {
    const { sessionId } = await mimoto.sessions.create({ callbackUrl: CALLBACK_PREFIX });
    const early = await failure(mimoto.sessions.reprocess(sessionId));
    assert.ok(isApiError(early, 'reprocessSession') && early.code === 'SessionNotSubmitted');
    await markSubmitted(sessionId);
    const all = await mimoto.sessions.reprocess(sessionId);
    assert.equal(all.queued.length, 5);
    const some = await mimoto.sessions.reprocess(sessionId, { queues: ['faceMatch'], reason: 'sdk' });
    assert.deepEqual(
      some.queued.map((q) => q.queue),
      ['faceMatch'],
    );
    const review = await failure(
      mimoto.sessions.review(sessionId, {
        decision: 'approved',
        reason: 'ok',
        reviewedBy: 'r@tenant.example',
      }),
    );
    assert.ok(isApiError(review, 'reviewSession') && review.code === 'SessionNotPendingReview');
    const image = await failure(mimoto.sessions.image(sessionId, 'front'));
    assert.ok(isApiError(image, 'getSessionImage') && image.code === 'NotFound');
  });
});

describe('@mimoto/node retries', () => {
  let answers: ((res: http.ServerResponse) => void)[] = [];
  let requests: { method: string; url: string }[] = [];
  let server: http.Server;
  let baseUrl: string;
  before(async () => {
    server = http.createServer((req, res) => {
      requests.push({ method: req.method!, url: req.url! });
      req.resume();
      const answer = answers.shift();
      if (answer) answer(res);
      // No answer left: stay silent (the timeout case).
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const script = (...list: ((res: http.ServerResponse) => void)[]) => {
    answers = list;
    requests = [];
  };
  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}) =>
    (res: http.ServerResponse) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const error = (status: number, code: string, headers: Record<string, string> = {}) =>
    json(status, { error: code, message: code }, headers);
  const client = (options: Partial<ConstructorParameters<typeof Mimoto>[0]> = {}) =>
    new Mimoto({ apiKey: 'mmt_test_x', baseUrl, retryBaseDelayMs: 1, ...options });
  const created = { sessionId: 'vs_1', verificationUrl: 'u', verificationUrlExpiresAt: 't', expiresAt: 't' };

  it('retries a GET after 5xx answers, with backoff, and succeeds', async () => {
    script(error(500, 'InternalError'), error(502, 'BadGateway'), json(200, { sessionId: 'vs_1' }));
    const detail = await client().sessions.get('vs_1');
    assert.equal(detail.sessionId, 'vs_1');
    assert.equal(requests.length, 3);
  });

  it('retries any call after 429 and 503 (not processed), honouring Retry-After', async () => {
    script(error(429, 'TooManyRequests', { 'retry-after': '1' }), json(201, created));
    const started = Date.now();
    await client().sessions.create({ callbackUrl: 'https://x.example' });
    assert.ok(Date.now() - started >= 900, 'waited the second Retry-After asked for');
    assert.equal(requests.length, 2);
    script(error(503, 'ServiceUnavailable'), json(201, created));
    await client().sessions.create({ callbackUrl: 'https://x.example' });
    assert.equal(requests.length, 2);
  });

  it('does not repeat a create or a reprocess after a 500: the first may have done it', async () => {
    script(error(500, 'InternalError'), json(201, created));
    const failed = await client()
      .sessions.create({ callbackUrl: 'https://x.example' })
      .catch((e: unknown) => e);
    assert.ok(failed instanceof MimotoApiError && failed.status === 500);
    assert.equal(requests.length, 1);
  });

  it('gives up after maxRetries with the last error, its Retry-After and a code for a non-API body', async () => {
    script(...Array.from({ length: 3 }, () => error(429, 'TooManyRequests', { 'retry-after': '0' })));
    const limited = await client()
      .sessions.list()
      .catch((e: unknown) => e);
    assert.ok(isApiError(limited, 'listSessions'));
    assert.equal(limited.code, 'TooManyRequests');
    assert.equal(limited.retryAfterSeconds, 0);
    assert.equal(requests.length, 3);
    script((res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>'));
    const garbage = await client({ maxRetries: 0 })
      .sessions.get('vs_1')
      .catch((e: unknown) => e);
    assert.ok(garbage instanceof MimotoApiError && garbage.code === 'UnexpectedResponse');
  });

  it('reports no answer as MimotoConnectionError: a timeout, a refused connection', async () => {
    script();
    const silent = await client({ timeoutMs: 200, maxRetries: 0 })
      .sessions.get('vs_1')
      .catch((e: unknown) => e);
    assert.ok(silent instanceof MimotoConnectionError, String(silent));
    assert.match(silent.message, /no answer within 200 ms/);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await new Mimoto({
      apiKey: 'k',
      baseUrl: `http://127.0.0.1:${port}`,
      retryBaseDelayMs: 1,
    }).sessions
      .get('vs_1')
      .catch((e: unknown) => e);
    assert.ok(refused instanceof MimotoConnectionError);
  });

  it('refuses a client without a key or with a base URL that is not http(s)', () => {
    assert.throws(() => new Mimoto({ apiKey: '', baseUrl }), TypeError);
    assert.throws(() => new Mimoto({ apiKey: 'k', baseUrl: 'mimoto.example' }), TypeError);
    assert.throws(() => new Mimoto({ apiKey: 'k', baseUrl: 'ftp://mimoto.example' }), TypeError);
  });
});
