// A bounded property-based fuzz of every route an outsider reaches (interface §4, §7;
// docs/hosted-flow-api.md; docs/console-api.md): the /v1 session routes, the hosted flow's JSON
// and upload routes, and the console login. For every generated request:
//   - the answer is never 5xx;
//   - an error is a JSON body {error, message};
//   - a refused request (4xx) writes nothing: every table's content is unchanged.
// Cases come from a fixed seed (FUZZ_SEED to explore another one, FUZZ_RUNS to scale the number of
// cases); a failure prints the shrunk request to reproduce.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { CLI_ACTOR, createConsoleUser } from '../../src/console/index.ts';
import { ApiClient, CALLBACK_PREFIX, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { dataDirEnv, FlowClient } from '../hosted-flow/flow-helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 31);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

let platform: TestPlatform;
let tenant: TestTenant;
let api: ApiClient;
let flow: FlowClient & { sessionId: string };
const CONSOLE_EMAIL = 'fuzz-admin@example.test';

before(async () => {
  platform = await createTestPlatform({ env: { ...dataDirEnv(), MIMOTO_RATE_LIMIT_PER_SECOND: '0' } });
  tenant = await createTestTenant(platform);
  api = await ApiClient.start(platform, tenant.apiKey);
  flow = await FlowClient.enter({ platform, api, tenant });
  await createConsoleUser(platform, CLI_ACTOR, { email: CONSOLE_EMAIL, role: 'operator', tenantId: null });
});
after(async () => {
  await api?.app.close();
  await platform?.close();
});

// ---- what "wrote nothing" means ------------------------------------------------------------------

/**
 * Every row a transaction inserts or updates carries its transaction id (xmin), and every writing
 * transaction takes the next id: when the next id has not moved, nothing was written at all (one
 * cheap query per case); when it has, the rows stamped since show which tables were written.
 */
let tables: string[] = [];
const nextXid = async () =>
  Number(
    (
      (await platform.database.executeSql('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))
        .rows[0] as { x: string }
    ).x,
  );

async function tablesWrittenSince(xid: number): Promise<string[]> {
  if (tables.length === 0) {
    tables = (
      await platform.database.executeSql(
        `SELECT table_schema || '.' || table_name AS t FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND (table_schema = 'public' OR (table_schema = 'pgboss' AND table_name = 'job'))
          ORDER BY 1`,
      )
    ).rows.map((r) => String((r as { t: string }).t));
  }
  const union = tables
    .map((t) => `SELECT '${t}' AS t FROM ${t} WHERE xmin::text::bigint >= ${xid} HAVING count(*) > 0`)
    .join(' UNION ALL ');
  return (await platform.database.executeSql(union)).rows.map((r) => String((r as { t: string }).t));
}

/**
 * Bookkeeping a refused request may write: a key's last use (at most once a minute, on
 * authentication, before the body is judged) and a console account's failed sign-ins (the
 * lockout is what refuses).
 */
const BOOKKEEPING = new Set(['public.api_keys', 'public.console_users']);

/** Sends one request and checks the three properties. */
async function check(
  label: string,
  send: () => Promise<LightMyRequestResponse>,
  options: { jsonErrors?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const before = await nextXid();
  const res = await send();
  const where = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  assert.ok(res.statusCode < 500, `5xx: ${where}`);
  if (res.statusCode >= 400) {
    if (options.jsonErrors !== false) {
      assert.match(String(res.headers['content-type'] ?? ''), /^application\/json/, `not JSON: ${where}`);
      const body = JSON.parse(res.body) as { error?: unknown; message?: unknown };
      assert.equal(typeof body.error, 'string', `no error code: ${where}`);
      assert.equal(typeof body.message, 'string', `no message: ${where}`);
    }
    if ((await nextXid()) !== before) {
      const written = (await tablesWrittenSince(before)).filter((t) => !BOOKKEEPING.has(t));
      assert.deepEqual(written, [], `a refused request wrote: ${where}`);
    }
  }
  return res;
}

// ---- generators ----------------------------------------------------------------------------------

const HOSTILE = [
  '',
  ' ',
  '\u0000',
  'vs_\u0000',
  'vs_%00',
  '%00',
  '%',
  '%ZZ',
  '%C0%AF',
  '%FF%FE',
  '..',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE tenants; --',
  '\uFFFF',
  '\uD800',
  '𝕏'.repeat(40),
  'a'.repeat(5000),
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  'vs_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  'lc_01JZZZZZZZZZZZZZZZZZZZZZZZ',
];
const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);
/** JSON values, hostile strings included. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** An object made of the route's own field names (so validation goes deep), with odd values. */
const fieldsOf = (good: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(good).map(([k, v]) => [k, fc.oneof(v, jsonValue)])), {
        requiredKeys: [],
      }),
      fc.dictionary(hostileString, jsonValue, { maxKeys: 2 }),
    )
    .map(([fields, extra]) => ({ ...extra, ...fields }));

/** A body as sent: JSON of a value, raw text or bytes, under some content type (or none). */
const rawBody = (value: fc.Arbitrary<unknown>) =>
  fc.record({
    payload: fc.oneof(
      { weight: 6, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b)) },
      { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', '[1,2', 'null', '"x"', '1e999999') },
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          undefined,
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'application/octet-stream',
          'APPLICATION/JSON',
          'application/json;;;',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    ),
  });

/** Percent-encodes every byte of the UTF-8 form (a lone surrogate becomes U+FFFD), or sends raw. */
const pathSegment = fc.oneof(
  hostileString.map((s) =>
    [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  ),
  fc.constantFrom('%00', '%ZZ', '%', '%C0%AF', '%2e%2e', 'vs_%00', 'vs_01J%00'),
);

const headersOf = (contentType: string | undefined, more: Record<string, string> = {}) => ({
  ...(contentType === undefined ? {} : { 'content-type': contentType }),
  ...more,
});

/** The tenant's key, a wrong one, a malformed header, or none. */
const authorization = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(`Bearer ${tenant.apiKey}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer ',
        'Bearer mk_live_x',
        `Bearer ${tenant.apiKey}x`,
        `bearer ${tenant.apiKey}`,
        'Basic dXNlcjpwYXNz',
      ),
    },
    {
      weight: 1,
      arbitrary: hostileString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
    },
  );

// ---- the properties ------------------------------------------------------------------------------

describe('fuzz: the /v1 session routes', () => {
  test('create session: never 5xx, errors in JSON, nothing written when refused', async () => {
    const body = fieldsOf({
      callbackUrl: fc.oneof(
        fc.constant(`${CALLBACK_PREFIX}/done`),
        fc.webUrl().map((u) => u),
        fc.constantFrom(
          'https://169.254.169.254/latest',
          'https://10.0.0.1/hook',
          'http://localhost/x',
          'javascript:alert(1)',
          `${CALLBACK_PREFIX}/\u0000`,
        ),
      ),
      clientIpAddress: fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended()),
      state: fc.string({ maxLength: 80 }),
      preRegisteredInfo: fc.record(
        {
          lastName: fc.string({ maxLength: 20 }),
          firstName: fc.string({ maxLength: 20 }),
          birthDate: fc.oneof(
            fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString().slice(0, 10))),
            hostileString,
          ),
          address: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: [] },
      ),
    });
    await fc.assert(
      fc.asyncProperty(rawBody(body), authorization(), async ({ payload, contentType }, auth) => {
        await check(`POST /v1/verification-sessions ${contentType} ${String(payload).slice(0, 200)}`, () =>
          api.app.inject({
            method: 'POST',
            url: '/v1/verification-sessions',
            headers: headersOf(contentType, auth ? { authorization: auth } : {}),
            payload,
          }),
        );
      }),
      { seed: SEED, numRuns: runs(400) },
    );
  });

  test('session detail, images, reprocess and review by any id: never 5xx, nothing written when refused', async () => {
    const created = await api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/done` });
    const realId = (created.json() as { sessionId: string }).sessionId;
    const id = fc.oneof({ weight: 1, arbitrary: fc.constant(realId) }, { weight: 3, arbitrary: pathSegment });
    const route = fc.oneof(
      fc.record({ method: fc.constant('GET' as const), suffix: fc.constant('') }),
      fc.record({
        method: fc.constant('GET' as const),
        suffix: fc.oneof(
          fc.constantFrom('/images/front', '/images/back', '/images/liveness-reference'),
          pathSegment.map((s) => `/images/${s}`),
        ),
      }),
      fc.record({ method: fc.constant('POST' as const), suffix: fc.constant('/reprocess') }),
      fc.record({ method: fc.constant('POST' as const), suffix: fc.constant('/review') }),
    );
    const body = rawBody(
      fieldsOf({
        checks: fc.array(fc.constantFrom('ocr', 'faceMatch', 'documentSpoofCheck', 'x'), { maxLength: 3 }),
        reason: fc.string({ maxLength: 40 }),
        decision: fc.constantFrom('approved', 'rejected', 'maybe'),
        reviewedBy: fc.string({ maxLength: 40 }),
        comment: fc.string({ maxLength: 60 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(id, route, fc.option(body), authorization(), async (sessionId, r, b, auth) => {
        const url = `/v1/verification-sessions/${sessionId}${r.suffix}`;
        await check(`${r.method} ${url} ${b ? String(b.payload).slice(0, 200) : ''}`, () =>
          api.app.inject({
            method: r.method,
            url,
            headers: headersOf(b?.contentType, auth ? { authorization: auth } : {}),
            ...(b ? { payload: b.payload } : {}),
          }),
        );
      }),
      { seed: SEED, numRuns: runs(500) },
    );
  });
});

describe('fuzz: the hosted flow', () => {
  /** The flow's cookie: the real one, a wrong one, or none; likewise the CSRF token. */
  const credentials = () =>
    fc.record({
      cookie: fc.oneof(
        { weight: 4, arbitrary: fc.constant(flow.cookie) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(undefined, '', 'x', `${flow.cookie}x`, flow.cookie.slice(0, -2)),
        },
        { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x21-\x7e]/g, '')) },
      ),
      csrf: fc.oneof(
        { weight: 4, arbitrary: fc.constant(flow.csrf) },
        { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'x', `${flow.csrf}x`) },
      ),
    });
  const headersFor = (c: { cookie?: string | undefined; csrf?: string | undefined }) => ({
    ...(c.cookie === undefined ? {} : { cookie: `mimoto_flow=${c.cookie}` }),
    ...(c.csrf === undefined ? {} : { 'x-csrf-token': c.csrf }),
  });

  test('entry link with any sessionId and token: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(pathSegment), fc.option(pathSegment), async (sessionId, token) => {
        const query = [
          sessionId === null ? '' : `sessionId=${sessionId}`,
          token === null ? '' : `token=${token}`,
        ]
          .filter(Boolean)
          .join('&');
        // The entry link answers the browser with a page, not JSON.
        await check(
          `GET /verify?${query}`,
          () => api.app.inject({ method: 'GET', url: `/verify?${query}` }),
          {
            jsonErrors: false,
          },
        );
      }),
      { seed: SEED, numRuns: runs(200) },
    );
  });

  test('JSON routes: never 5xx, errors in JSON, nothing written when refused', async () => {
    const route = fc.constantFrom(
      { method: 'GET' as const, url: '/verify/api/state' },
      { method: 'POST' as const, url: '/verify/api/consent' },
      { method: 'PUT' as const, url: '/verify/api/document-type' },
      { method: 'PUT' as const, url: '/verify/api/personal-data' },
      { method: 'POST' as const, url: '/verify/api/liveness/challenge' },
      { method: 'POST' as const, url: '/verify/api/submit' },
    );
    const body = rawBody(
      fieldsOf({
        documentType: fc.constantFrom('drivers_license', 'my_number_card', 'passport', 'residence_card', 'x'),
        lastName: fc.string({ maxLength: 20 }),
        firstName: fc.string({ maxLength: 20 }),
        birthDate: fc.oneof(fc.constant('1990-04-01'), hostileString),
        address: fc.string({ maxLength: 40 }),
        phoneNumber: fc.string({ maxLength: 20 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(route, credentials(), fc.option(body), async (r, c, b) => {
        await check(`${r.method} ${r.url} ${b ? String(b.payload).slice(0, 200) : ''}`, () =>
          api.app.inject({
            method: r.method,
            url: r.url,
            headers: { ...headersOf(b?.contentType), ...headersFor(c) },
            ...(b && r.method !== 'GET' ? { payload: b.payload } : {}),
          }),
        );
      }),
      { seed: SEED, numRuns: runs(400) },
    );
  });

  test('upload routes with any multipart body, well-formed or broken: never 5xx, errors in JSON', async () => {
    const part = fc.record({
      field: fc.oneof(
        fc.constantFrom('image', 'frames', 'challengeId', 'timestamps'),
        fc.string({ maxLength: 12 }),
      ),
      file: fc.boolean(),
      bytes: fc.uint8Array({ maxLength: 200 }),
      text: fc.oneof(hostileString, fc.constant('[0,100,200]'), fc.constant('lc_01JZZZZZZZZZZZZZZZZZZZZZZZ')),
      type: fc.constantFrom('image/jpeg', 'image/png', 'text/plain', 'application/octet-stream', ''),
    });
    /** A real multipart body, then maybe broken: cut short, boundary lost or wrong, bytes flipped. */
    const upload = fc.record({
      url: fc.constantFrom(
        '/verify/api/documents/front',
        '/verify/api/documents/back',
        '/verify/api/documents/side',
        '/verify/api/liveness/attempts',
      ),
      parts: fc.array(part, { maxLength: 5 }),
      damage: fc.constantFrom(
        'none',
        'none',
        'truncate',
        'no-boundary',
        'other-boundary',
        'garbage',
        'no-type',
      ),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(upload, credentials(), async (u, c) => {
        const form = new FormData();
        for (const p of u.parts) {
          if (p.file) form.append(p.field, new Blob([new Uint8Array(p.bytes)], { type: p.type }), 'x.jpg');
          else form.append(p.field, p.text);
        }
        const request = new Request('http://x/', { method: 'POST', body: form });
        let payload = Buffer.from(await request.arrayBuffer());
        let contentType: string | undefined = request.headers.get('content-type') ?? '';
        if (u.damage === 'truncate') payload = payload.subarray(0, Math.floor(payload.length * u.cut));
        if (u.damage === 'no-boundary') contentType = 'multipart/form-data';
        if (u.damage === 'other-boundary') contentType = 'multipart/form-data; boundary=----nothing-like-it';
        if (u.damage === 'no-type') contentType = undefined;
        if (u.damage === 'garbage') payload = Buffer.from(u.parts.flatMap((p) => [...p.bytes]));
        const label = `POST ${u.url} ${u.damage} ${contentType} parts=${JSON.stringify(u.parts.map((p) => [p.field, p.file, p.bytes.length]))}`;
        await check(label, () =>
          api.app.inject({
            method: 'POST',
            url: u.url,
            payload,
            headers: { ...headersOf(contentType), ...headersFor(c) },
          }),
        );
      }),
      { seed: SEED, numRuns: runs(400) },
    );
  });
});

describe('fuzz: the console sign-in', () => {
  test('login with any body: never 5xx, errors in JSON, no session written when refused', async () => {
    const body = rawBody(
      fieldsOf({
        email: fc.oneof(fc.constant(CONSOLE_EMAIL), fc.emailAddress(), hostileString),
        password: fc.oneof(fc.string({ maxLength: 40 }), hostileString),
      }),
    );
    const ip = fc.ipV4();
    await fc.assert(
      fc.asyncProperty(
        body,
        ip,
        fc.option(fc.constantFrom('http://127.0.0.1:8080', 'https://evil.example', 'null')),
        async (b, remoteAddress, origin) => {
          await check(`POST /console/api/login ${b.contentType} ${String(b.payload).slice(0, 200)}`, () =>
            api.app.inject({
              method: 'POST',
              url: '/console/api/login',
              headers: headersOf(b.contentType, origin ? { origin } : {}),
              payload: b.payload,
              remoteAddress,
            }),
          );
        },
      ),
      { seed: SEED, numRuns: runs(200) },
    );
  });
});
