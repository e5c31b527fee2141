// Every malformed, oversized or hostile input gets a 4xx JSON error and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ApiClient, CALLBACK_PREFIX, countWrites, createTestTenant } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const valid = { callbackUrl: CALLBACK_PREFIX };

/** Raw bodies: strings are sent as they are, Buffers byte for byte. */
const bodyCases: [string, string | Buffer][] = [
  ['an empty body', ''],
  ['invalid JSON', '{"callbackUrl": '],
  ['a JSON string', JSON.stringify('hello')],
  ['a JSON number', '42'],
  ['JSON null', 'null'],
  ['a JSON array', JSON.stringify([valid])],
  [
    'non-UTF-8 bytes',
    Buffer.concat([Buffer.from('{"callbackUrl":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
  ],
  [
    'an overlong UTF-8 encoding',
    Buffer.concat([Buffer.from('{"state":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
  ],
  ['a UTF-16 body', Buffer.from(JSON.stringify(valid), 'utf16le')],
  ['nesting 100 objects deep', deep(100)],
  ['nesting 10 000 arrays deep', deepArray(10_000)],
  ['a __proto__ key', '{"callbackUrl":"https://tenant.example/kyc/callback","__proto__":{"isAdmin":true}}'],
  ['a constructor.prototype key', '{"constructor":{"prototype":{"x":1}}}'],
  ['trailing garbage after JSON', `${JSON.stringify(valid)} trailing`],
];

const createFieldCases: [string, unknown][] = [
  ['callbackUrl missing', {}],
  ['callbackUrl null', { callbackUrl: null }],
  ['callbackUrl a number', { callbackUrl: 42 }],
  ['callbackUrl an object', { callbackUrl: { href: CALLBACK_PREFIX } }],
  ['callbackUrl an array', { callbackUrl: [CALLBACK_PREFIX] }],
  ['callbackUrl empty', { callbackUrl: '' }],
  ['callbackUrl of 3000 characters', { callbackUrl: `${CALLBACK_PREFIX}/${'a'.repeat(3000)}` }],
  ['callbackUrl with a newline', { callbackUrl: `${CALLBACK_PREFIX}/\nx` }],
  ['callbackUrl with a NUL', { callbackUrl: `${CALLBACK_PREFIX}/\u0000` }],
  ['clientIpAddress a number', { ...valid, clientIpAddress: 3232235777 }],
  ['clientIpAddress null', { ...valid, clientIpAddress: null }],
  ['clientIpAddress huge', { ...valid, clientIpAddress: '1'.repeat(10_000) }],
  ['state a boolean', { ...valid, state: true }],
  ['state empty', { ...valid, state: '' }],
  ['state with control characters', { ...valid, state: 'abc\u0007def' }],
  ['state with a C1 control character', { ...valid, state: 'abc\u0085def' }],
  ['state of 50 000 characters', { ...valid, state: 's'.repeat(50_000) }],
  ['preRegisteredInfo an array', { ...valid, preRegisteredInfo: [] }],
  ['preRegisteredInfo a string', { ...valid, preRegisteredInfo: 'Yamada' }],
  ['preRegisteredInfo null', { ...valid, preRegisteredInfo: null }],
  ['preRegisteredInfo with an unknown field', { ...valid, preRegisteredInfo: { middleName: 'x' } }],
  ['preRegisteredInfo.lastName a number', { ...valid, preRegisteredInfo: { lastName: 1 } }],
  ['preRegisteredInfo.lastName with a NUL', { ...valid, preRegisteredInfo: { lastName: 'Ya\u0000mada' } }],
  [
    'preRegisteredInfo.lastName of 5000 characters',
    { ...valid, preRegisteredInfo: { lastName: '山'.repeat(5000) } },
  ],
  [
    'preRegisteredInfo.address of 1000 characters',
    { ...valid, preRegisteredInfo: { address: '東'.repeat(1000) } },
  ],
  ['preRegisteredInfo.birthDate not a date', { ...valid, preRegisteredInfo: { birthDate: 'yesterday' } }],
  ['preRegisteredInfo.birthDate nested', { ...valid, preRegisteredInfo: { birthDate: { y: 1990 } } }],
  ['an unknown top-level field', { ...valid, tenantId: 'tn_other' }],
];

function assertJsonClientError(res: LightMyRequestResponse) {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `status ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.message, 'string');
}

describe('malformed input', () => {
  let platform: TestPlatform;
  let api: ApiClient;
  let submittedSession: string;

  before(async () => {
    platform = await createTestPlatform({ env: { MIMOTO_RATE_LIMIT_PER_SECOND: '0' } });
    api = await ApiClient.start(platform, (await createTestTenant(platform)).apiKey);
    submittedSession = (await api.createSession(valid)).json().sessionId;
    await platform.database.db
      .updateTable('verification_sessions')
      .set({ submitted_at: new Date(), status: 'liveness_success' })
      .where('id', '=', submittedSession)
      .execute();
  });
  after(async () => {
    await api.app.close();
    await platform.close();
  });

  async function expectRefusedWithoutWrites(send: () => Promise<LightMyRequestResponse>) {
    const before = await countWrites(platform);
    const res = await send();
    assertJsonClientError(res);
    assert.deepEqual(await countWrites(platform), before, 'nothing written');
    return res;
  }

  describe('POST /v1/verification-sessions, raw bodies', () => {
    for (const [label, body] of bodyCases) {
      it(label, async () => {
        await expectRefusedWithoutWrites(() => api.createSession(body));
      });
    }
  });

  describe('POST /v1/verification-sessions, fields', () => {
    for (const [label, body] of createFieldCases) {
      it(label, async () => {
        const res = await expectRefusedWithoutWrites(() => api.createSession(body));
        assert.ok([400, 413].includes(res.statusCode), `status ${res.statusCode}`);
      });
    }
  });

  describe('POST /v1/verification-sessions/{id}/reprocess, raw bodies', () => {
    for (const [label, body] of bodyCases.filter(([label]) => label !== 'an empty body')) {
      it(label, async () => {
        await expectRefusedWithoutWrites(() =>
          api.app.inject({
            method: 'POST',
            url: `/v1/verification-sessions/${submittedSession}/reprocess`,
            headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
            payload: body,
          }),
        );
      });
    }
  });

  describe('POST /v1/verification-sessions/{id}/reprocess, fields', () => {
    const cases: [string, unknown][] = [
      ['queues null', { queues: null }],
      ['queues of numbers', { queues: [1, 2] }],
      ['queues with a huge name', { queues: ['q'.repeat(10_000)] }],
      ['queues with 1000 entries', { queues: Array(1000).fill('ocr') }],
      ['queues with a nested array', { queues: [['ocr']] }],
      ['reason null', { reason: null }],
      ['reason with a NUL', { reason: 'a\u0000b' }],
      ['reason of 2000 characters', { reason: 'r'.repeat(2000) }],
    ];
    for (const [label, body] of cases) {
      it(label, async () => {
        await expectRefusedWithoutWrites(() => api.reprocess(submittedSession, body));
      });
    }
  });

  describe('session id in the path', () => {
    const ids = [
      ['a path traversal', '..%2F..%2Fetc%2Fpasswd'],
      ['an SQL fragment', "vs_x'%20OR%20'1'='1"],
      ['a NUL byte', 'vs_%00'],
      ['invalid percent-encoding', 'vs_%E0%A4%A'],
      ['200 characters', 'v'.repeat(200)],
      ['unicode', '%E8%BA%AB%E5%85%83'],
    ];
    for (const [label, id] of ids) {
      it(`GET with ${label}`, async () => {
        const res = await expectRefusedWithoutWrites(() =>
          api.app.inject({
            method: 'GET',
            url: `/v1/verification-sessions/${id}`,
            headers: { authorization: `Bearer ${api.apiKey}` },
          }),
        );
        assert.ok([400, 404, 414].includes(res.statusCode));
      });
      it(`reprocess with ${label}`, async () => {
        await expectRefusedWithoutWrites(() =>
          api.app.inject({
            method: 'POST',
            url: `/v1/verification-sessions/${id}/reprocess`,
            headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
            payload: '{}',
          }),
        );
      });
    }
  });

  it('still serves valid requests after all of the above', async () => {
    const res = await api.createSession(valid);
    assert.equal(res.statusCode, 201);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined, 'no prototype pollution');
  });
});
