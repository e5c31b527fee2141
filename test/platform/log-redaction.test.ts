// The request log's redaction (src/platform/http/log-redaction.ts) and the hosted flow's refusal
// lines (issue 46 point 4): a refused link is one info line with the reason and the session id —
// not the URL with its token, not a warning with a stack, and the page is sent once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import {
  REDACTED,
  redactText,
  redactUrl,
  serializeError,
  serializeRequest,
} from '../../src/platform/http/log-redaction.ts';
import { CALLBACK_PREFIX, createTestTenant } from '../helpers/api-client.ts';
import { createTestPlatform } from '../helpers/test-platform.ts';

describe('redacting what the log shows', () => {
  test("a URL keeps its path and its query's names; values and the hand-off code go", () => {
    assert.equal(
      redactUrl('/verify?sessionId=vs_ABC&token=Q2x8vN3kTg5RfY7wLz1bHc4mJp6sDa9e'),
      `/verify?sessionId=${REDACTED}&token=${REDACTED}`,
    );
    assert.equal(redactUrl('/verify/h/3kTg5RfY7wLz1bHc'), `/verify/h/${REDACTED}`);
    assert.equal(redactUrl('/verify/h/'), '/verify/h/');
    assert.equal(
      redactUrl('/console/api/tenants/tn_1/sessions?name=%E4%BD%90%E8%97%A4&birthDate=1990-01-01'),
      `/console/api/tenants/tn_1/sessions?name=${REDACTED}&birthDate=${REDACTED}`,
    );
    assert.equal(redactUrl('/console/set-password?token=abc'), `/console/set-password?token=${REDACTED}`);
    // A parameter "name" that is itself data is not copied either.
    assert.equal(redactUrl('/x?佐藤=1'), `/x?${REDACTED}=${REDACTED}`);
    assert.equal(redactUrl('/v1/verification-sessions/vs_1'), '/v1/verification-sessions/vs_1');
  });

  test('the request serializer writes method, redacted URL and address, never a header', () => {
    const logged = serializeRequest({
      method: 'GET',
      url: '/verify?token=secret123',
      ip: '203.0.113.7',
      headers: { authorization: 'Bearer mmt_test_x', cookie: 'mimoto_flow=abc' },
    } as never);
    assert.deepEqual(logged, {
      method: 'GET',
      url: `/verify?token=${REDACTED}`,
      remoteAddress: '203.0.113.7',
    });
  });

  test('free text loses API keys, bearer credentials, cookies, query values and hand-off paths', () => {
    const key = 'mmt_live_0123456789abcdefghijABCDEFGHIJkl';
    const text =
      `key ${key}; Authorization: Bearer abc.def; cookie mimoto_flow=Zz9 and mimoto_console=Yy8; ` +
      'in "/verify?sessionId=vs_1&token=T0k3n" and "/verify/h/C0de"';
    const out = redactText(text);
    for (const secret of [key, 'abc.def', 'Zz9', 'Yy8', 'T0k3n', 'C0de', 'vs_1'])
      assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.match(out, /mmt_live_\[redacted\]/);
    assert.match(out, /token=\[redacted\]/);
  });

  test("an error's message and stack are redacted, and none of its other properties copied", () => {
    const error = Object.assign(new Error('Reply was already sent in "/verify?token=T0k3n" (GET)'), {
      code: 'FST_ERR_REP_ALREADY_SENT',
      statusCode: 500,
      parameters: ['佐藤', '1990-01-01'],
    });
    const logged = serializeError(error);
    assert.equal(logged.message, `Reply was already sent in "/verify?token=${REDACTED}" (GET)`);
    assert.ok(!logged.stack.includes('T0k3n'));
    assert.equal(logged.code, 'FST_ERR_REP_ALREADY_SENT');
    assert.equal(logged.statusCode, 500);
    assert.ok(!JSON.stringify(logged).includes('佐藤'));
    assert.deepEqual(serializeError('plain'), { type: 'string', message: 'plain', stack: '' });
  });
});

describe('refusal pages in the log', () => {
  test('a link refused for the IP, a wrong token and an unknown hand-off code: one info line each, no URL, no stack', async () => {
    const platform = await createTestPlatform();
    const lines: string[] = [];
    const app = await buildApp(
      { ...platform, config: { ...platform.config, logLevel: 'info' } },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      const tenant = await createTestTenant(platform);
      const created = await app.inject({
        method: 'POST',
        url: '/v1/verification-sessions',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
        payload: { callbackUrl: `${CALLBACK_PREFIX}/x`, clientIpAddress: '10.1.2.3' },
      });
      const { sessionId, verificationUrl } = created.json();
      const link = new URL(verificationUrl);
      const token = link.searchParams.get('token')!;
      const wrongIp = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
      assert.equal(wrongIp.statusCode, 403);
      const wrongToken = await app.inject({
        method: 'GET',
        url: `/verify?sessionId=${sessionId}&token=${token.replace(/^./, (c) => (c === 'Z' ? 'Y' : 'Z'))}`,
      });
      assert.equal(wrongToken.statusCode, 410);
      const code = 'AbCdEfGh12345678';
      const handoff = await app.inject({ method: 'GET', url: `/verify/h/${code}` });
      assert.equal(handoff.statusCode, 410);
      const noCookie = await app.inject({ method: 'GET', url: '/verify/flow' });
      assert.equal(noCookie.statusCode, 401);
      // Each page is the styled HTML, once (a second send answered 500 in the log before).
      for (const page of [wrongIp, wrongToken, handoff, noCookie])
        assert.match(String(page.headers['content-type']), /text\/html/);

      const entries = lines.map(
        (line) => JSON.parse(line) as { level: number; msg: string; sessionId?: string; reason?: string },
      );
      const refusals = entries.filter((e) => e.msg.startsWith('hosted flow refused'));
      assert.deepEqual(
        refusals.map((e) => [e.level, e.msg, e.sessionId, e.reason]),
        [
          [30, 'hosted flow refused the verification link', sessionId, 'wrong_ip'],
          [30, 'hosted flow refused the verification link', sessionId, 'wrong_token'],
          [30, 'hosted flow refused the hand-off link', null, 'unknown_code'],
          [30, 'hosted flow refused the flow page', null, 'no_session'],
        ],
      );
      assert.deepEqual(
        entries.filter((e) => e.level >= 40),
        [],
      );
      const completed = entries.filter((e) => e.msg === 'request completed') as unknown as {
        res: { statusCode: number };
      }[];
      assert.deepEqual(
        completed.map((e) => e.res.statusCode),
        [201, 403, 410, 410, 401],
      );
      const log = lines.join('');
      for (const secret of [token, code, tenant.apiKey]) assert.ok(!log.includes(secret), secret);
      assert.ok(!log.includes('"stack"'));
    } finally {
      await app.close();
      await platform.close();
    }
  });
});
