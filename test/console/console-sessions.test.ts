// The console's reviewer tools over HTTP with real sign-ins on PGlite: search by name, birth date
// and document number (never across tenants), the CSV export (formula cells made inert), the queue's
// filters, the case's field comparison and same-size face pictures, operators reading any tenant's
// sessions (and the audit log saying so), and the webhook log's request and response with a test
// event sent to a real receiver on 127.0.0.1. Hostile query strings are 400s.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createApiKey } from '../../src/api-keys/index.ts';
import { buildApp } from '../../src/app.ts';
import { userInputContext } from '../../src/hosted-flow/index.ts';
import { identityKeyCandidates } from '../../src/pipeline/index.ts';
import { saveIdentityKeys } from '../../src/pipeline/pipeline-repository.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { encryptJson } from '../../src/platform/crypto/encryption.ts';
import { listCaseSessions } from '../../src/review/review-case.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { redeliverWebhookEvent } from '../../src/webhooks/index.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { ConsoleClient, decidedSession, storeCheckResult } from '../review/review-fixture.ts';
import { recordApproval, signatureIsValid } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';

let platform: TestPlatform;
let app: FastifyInstance;
let receiver: LocalReceiver;
let tenantA: { tenantId: string; webhookSecret: string };
let tenantB: { tenantId: string; webhookSecret: string };
let apiA: ApiClient;
let apiB: ApiClient;
let reviewer: ConsoleClient;
let admin: ConsoleClient;
let adminB: ConsoleClient;
let operator: ConsoleClient;

before(async () => {
  platform = await createTestPlatform({
    env: { MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-console-sessions-')) },
  });
  app = await buildApp(platform);
  await app.ready();
  receiver = await startLocalReceiver((request, response) => {
    if (request.url.startsWith('/teapot')) return void response.writeHead(418).end('x'.repeat(5000));
    response.writeHead(200, { 'content-type': 'text/plain' }).end('received, thanks');
  });
  tenantA = await createTenant(platform, { name: 'A', callbackUrlPrefixes: [receiver.url('/a/')] });
  tenantB = await createTenant(platform, { name: 'B', callbackUrlPrefixes: [receiver.url('/b/')] });
  apiA = new ApiClient(app, (await createApiKey(platform, tenantA.tenantId, 'tests')).apiKey);
  apiB = new ApiClient(app, (await createApiKey(platform, tenantB.tenantId, 'tests')).apiKey);
  const sign = (email: string, role: 'reviewer' | 'tenant_admin' | 'operator', tenantId?: string) =>
    ConsoleClient.signIn(app, platform, { email, role, ...(tenantId ? { tenantId } : {}) });
  reviewer = await sign('rita@a.example', 'reviewer', tenantA.tenantId);
  admin = await sign('adam@a.example', 'tenant_admin', tenantA.tenantId);
  adminB = await sign('bea@b.example', 'tenant_admin', tenantB.tenantId);
  operator = await sign('otto@service.example', 'operator');
});

after(async () => {
  await app?.close();
  await platform?.close();
  await receiver?.close();
});

const pathA = (rest: string) => `/console/api/tenants/${tenantA.tenantId}/${rest}`;

/** A decided session of the tenant with pre-registered data, typed user input and an OCR reading. */
async function person(
  api: ApiClient,
  prefix: string,
  identity: {
    pre?: Record<string, string>;
    typed?: Record<string, string>;
    read?: Record<string, string>;
    documentNumber?: string;
    state?: string;
    status?: 'pending_review' | 'approved' | 'rejected';
  },
): Promise<string> {
  platform.advance(1_000);
  const sessionId = await decidedSession(platform, api, receiver.url(`${prefix}x`), [
    identity.status ?? 'pending_review',
  ]);
  const row = await platform.database.db
    .selectFrom('verification_sessions')
    .select('tenant_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const tenantId = row.tenant_id;
  const { keyring } = platform;
  const { preRegisteredInfoContext } = await import('../../src/sessions/create-session.ts');
  await platform.database.db
    .updateTable('verification_sessions')
    .set({
      pre_registered_info_enc: identity.pre
        ? encryptJson(keyring, identity.pre, preRegisteredInfoContext(sessionId))
        : null,
      user_input_enc: identity.typed
        ? encryptJson(keyring, identity.typed, userInputContext(sessionId))
        : null,
      state: identity.state ?? null,
    })
    .where('id', '=', sessionId)
    .execute();
  if (identity.read)
    await storeCheckResult(platform, sessionId, 'ocr', {
      success: true,
      confidence: 0.9,
      payload: identity.read,
    });
  if (identity.documentNumber) {
    const hash = identityKeyCandidates(keyring, tenantId, 'document', identity.documentNumber).get(
      keyring.currentId,
    )!;
    await saveIdentityKeys(platform.database.db, {
      sessionId,
      tenantId,
      documentNumberHash: hash,
      identityHash: null,
      hashKeyId: keyring.currentId,
      now: platform.now(),
    });
  }
  return sessionId;
}

const ids = (res: { json(): { sessions: { sessionId: string }[] } }) =>
  res.json().sessions.map((s) => s.sessionId);

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('search by name, birth date and document number', () => {
  let sato: string;
  let satoTyped: string;
  let suzukiRead: string;
  let otherTenantSato: string;
  before(async () => {
    sato = await person(apiA, '/a/', {
      pre: { lastName: '佐藤', firstName: '美咲', birthDate: '1983-09-08' },
      documentNumber: 'AB1234567',
    });
    satoTyped = await person(apiA, '/a/', {
      typed: {
        lastName: '佐藤',
        firstName: '健',
        lastNameKana: 'サトウ',
        firstNameKana: 'ケン',
        birthDate: '1990-01-02',
      },
    });
    suzukiRead = await person(apiA, '/a/', {
      read: { lastName: '鈴木', firstName: '一郎', birthDate: '昭和58年9月8日' },
    });
    // Another tenant holds the very same person and document number.
    otherTenantSato = await person(apiB, '/b/', {
      pre: { lastName: '佐藤', firstName: '美咲', birthDate: '1983-09-08' },
      documentNumber: 'AB1234567',
    });
  });

  test('a family name finds every session holding it, in any source, newest first', async () => {
    const res = await reviewer.request('GET', `${pathA('sessions')}?${query({ name: '佐藤' })}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(ids(res), [satoTyped, sato]);
  });

  test('full names match in either order, with or without a space, in kana, and half-width kana', async () => {
    for (const name of ['佐藤 美咲', '美咲佐藤', '佐藤　美咲']) {
      const res = await reviewer.request('GET', `${pathA('sessions')}?${query({ name })}`);
      assert.deepEqual(ids(res), [sato], name);
    }
    for (const name of ['さとう けん', 'ｻﾄｳ']) {
      const res = await reviewer.request('GET', `${pathA('sessions')}?${query({ name })}`);
      assert.deepEqual(ids(res), [satoTyped], name);
    }
  });

  test('the OCR reading is searched too, and a birth date matches a Japanese-era date it read', async () => {
    const byName = await reviewer.request('GET', `${pathA('sessions')}?${query({ name: '鈴木一郎' })}`);
    assert.deepEqual(ids(byName), [suzukiRead]);
    const byDate = await reviewer.request(
      'GET',
      `${pathA('sessions')}?${query({ birthDate: '1983-09-08' })}`,
    );
    assert.deepEqual(ids(byDate), [suzukiRead, sato]);
    const both = await reviewer.request(
      'GET',
      `${pathA('sessions')}?${query({ name: '佐藤', birthDate: '1983-09-08' })}`,
    );
    assert.deepEqual(ids(both), [sato]);
  });

  test('a document number is found through its keyed hash, spaces, hyphens and case ignored', async () => {
    for (const documentNumber of ['AB1234567', 'ab 1234 567', 'AB-1234567']) {
      const res = await admin.request('GET', `${pathA('sessions')}?${query({ documentNumber })}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(ids(res), [sato], documentNumber);
    }
    const none = await admin.request('GET', `${pathA('sessions')}?${query({ documentNumber: 'AB1234568' })}`);
    assert.deepEqual(ids(none), []);
  });

  test('never across tenants: the same name and number in tenant B stay out of A, and B sees only its own', async () => {
    const inA = await reviewer.request('GET', `${pathA('sessions')}?${query({ name: '佐藤美咲' })}`);
    assert.ok(!ids(inA).includes(otherTenantSato));
    const inB = await adminB.request(
      'GET',
      `/console/api/tenants/${tenantB.tenantId}/sessions?${query({ documentNumber: 'AB1234567' })}`,
    );
    assert.deepEqual(ids(inB), [otherTenantSato]);
    const crossing = await adminB.request('GET', `${pathA('sessions')}?${query({ name: '佐藤' })}`);
    assert.equal(crossing.statusCode, 403);
  });

  test('pages through matches with next, and a LIKE wildcard in a name is only a character', async () => {
    const first = await reviewer.request(
      'GET',
      `${pathA('sessions')}?${query({ name: '佐藤', limit: '1' })}`,
    );
    assert.deepEqual(ids(first), [satoTyped]);
    const next = first.json().next;
    assert.equal(next, satoTyped);
    const second = await reviewer.request(
      'GET',
      `${pathA('sessions')}?${query({ name: '佐藤', limit: '1', before: next })}`,
    );
    assert.deepEqual(ids(second), [sato]);
    for (const name of ['%', '_', '\\']) {
      const res = await reviewer.request('GET', `${pathA('sessions')}?${query({ name })}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(ids(res), [], name);
    }
  });

  test('a long search stops after its scan budget and next continues where it stopped', async () => {
    const tenantC = await createTenant(platform, { name: 'C', callbackUrlPrefixes: [receiver.url('/c/')] });
    const apiC = new ApiClient(app, (await createApiKey(platform, tenantC.tenantId, 'tests')).apiKey);
    const wanted = await person(apiC, '/c/', { pre: { lastName: '遠藤', firstName: '探' } });
    const newer = [
      await person(apiC, '/c/', { pre: { lastName: '別人', firstName: '一' } }),
      await person(apiC, '/c/', { pre: { lastName: '別人', firstName: '二' } }),
    ];
    const scan = { batch: 1, limit: 2 };
    const first = await listCaseSessions(platform, tenantC.tenantId, { name: '遠藤' }, scan);
    assert.deepEqual(first.sessions, [], 'the two newest sessions were looked at, neither matched');
    assert.equal(first.next, newer[0], 'the last session looked at');
    const second = await listCaseSessions(
      platform,
      tenantC.tenantId,
      { name: '遠藤', before: first.next! },
      scan,
    );
    assert.deepEqual(
      second.sessions.map((s) => s.sessionId),
      [wanted],
    );
    assert.equal(second.next, null, 'nothing older is left');
  });

  test('malformed search values are 400 with the field named, never 500', async () => {
    const cases: [string, string][] = [
      ['birthDate', '1983-13-45'],
      ['birthDate', "1983-09-08' OR '1'='1"],
      ['birthDate', '08/09/1983'],
      ['documentNumber', 'AB%'],
      ['documentNumber', 'AB1'],
      ['documentNumber', 'A'.repeat(33)],
      ['name', 'x'.repeat(101)],
      ['name', 'bad\u0000name'],
      ['name', 'line\nbreak'],
      ['name', ''],
      ['nameX', 'y'],
    ];
    for (const [key, value] of cases) {
      const res = await reviewer.request('GET', `${pathA('sessions')}?${query({ [key]: value })}`);
      assert.equal(res.statusCode, 400, `${key}=${JSON.stringify(value)}: ${res.body}`);
      assert.equal(res.json().error, 'ValidationFailed');
      if (key !== 'nameX')
        assert.ok(
          res.json().details.some((d: { path: string }) => d.path.endsWith(`/${key}`)),
          `${key}: ${res.body}`,
        );
    }
    const repeated = await reviewer.request('GET', `${pathA('sessions')}?name=a&name=b`);
    assert.equal(repeated.statusCode, 400, repeated.body);
  });
});

describe('CSV export', () => {
  let hostile: string;
  before(async () => {
    hostile = await person(apiA, '/a/', {
      state: '=HYPERLINK("http://evil.example","click")',
      pre: { lastName: '山田', firstName: '花子', birthDate: '1975-05-05' },
      status: 'rejected',
    });
    for (const state of ['+SUM(1)', '-2+3', '@cmd', '\tTAB', 'plain "quoted", text'])
      await person(apiA, '/a/', { state, pre: { lastName: '山田', firstName: '太郎' } });
  });

  /** Cells of one quoted RFC 4180 line (every cell of ours is quoted). */
  const cellsOf = (line: string) =>
    [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1]!.replaceAll('""', '"'));
  const csvRows = (text: string) =>
    text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');

  test('exports the filtered list with a header, formula cells made inert, and an audit row', async () => {
    const res = await reviewer.request('GET', `${pathA('sessions.csv')}?${query({ name: '山田' })}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/);
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="sessions-tn_[0-9A-Z]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(res.body.startsWith('\uFEFF'), 'a BOM for spreadsheet programs');
    const [header, ...rows] = csvRows(res.body);
    assert.equal(
      header,
      '"sessionId","createdAt","submittedAt","status","verificationStatus","decisionReason","documentType","clientIpAddress","state","claimedBy"',
    );
    assert.equal(rows.length, 6, 'only the filtered sessions');
    const states = rows.map((row) => cellsOf(row)[8]);
    // Newest first; every cell that would start a formula starts with an apostrophe instead.
    assert.deepEqual(states, [
      'plain "quoted", text',
      "'\tTAB",
      "'@cmd",
      "'-2+3",
      "'+SUM(1)",
      `'=HYPERLINK("http://evil.example","click")`,
    ]);
    for (const row of rows) assert.equal(cellsOf(row).length, 10, row);
    for (const state of states) assert.doesNotMatch(state ?? '', /^[=+\-@\t]/);
    assert.ok(
      rows.some((row) => row.startsWith(`"${hostile}"`) && row.includes('"rejected","face_mismatch"')),
    );
    const audit = await platform.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'session.export')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(audit.actor, 'rita@a.example');
    assert.equal(audit.tenant_id, tenantA.tenantId);
    assert.deepEqual(audit.after, { filters: ['name'], rows: 6, truncated: false });
    assert.ok(!JSON.stringify(audit.after).includes('山田'), 'the searched name is not logged');
  });

  test('the export keeps the tenant boundary and refuses what the list refuses', async () => {
    assert.equal((await adminB.request('GET', pathA('sessions.csv'))).statusCode, 403);
    const bad = await reviewer.request('GET', `${pathA('sessions.csv')}?status=nope`);
    assert.equal(bad.statusCode, 400);
    const empty = await reviewer.request('GET', `${pathA('sessions.csv')}?${query({ name: '該当なし' })}`);
    assert.equal(csvRows(empty.body).length, 1, 'the header alone');
  });
});

describe('the queue, the case and the faces', () => {
  test("another tenant's user gets 403 before the body or query is judged, and nothing changes", async () => {
    const sessionId = await person(apiA, '/a/', { pre: { lastName: '越境', firstName: '防止' } });
    const reviewerB = await ConsoleClient.signIn(app, platform, {
      email: 'rob@b.example',
      role: 'reviewer',
      tenantId: tenantB.tenantId,
    });
    // docs/console-api.md: a tenant-scoped user on another tenant's path is 403, whatever it sends.
    const crossing: [ConsoleClient, 'GET' | 'POST' | 'PUT', string, unknown][] = [
      [reviewerB, 'POST', pathA(`sessions/${sessionId}/review`), { decision: 'maybe' }],
      [reviewerB, 'POST', pathA(`sessions/${sessionId}/review`), {}],
      [
        reviewerB,
        'POST',
        pathA(`sessions/${sessionId}/review`),
        { decision: 'approved', reasonCode: 'other', reason: 'x' },
      ],
      [reviewerB, 'GET', `${pathA('review-queue')}?status=pending`, undefined],
      [adminB, 'GET', `${pathA('sessions')}?limit=nope`, undefined],
      [adminB, 'POST', pathA('blacklist'), { label: 1 }],
      [adminB, 'PUT', pathA('blacklist/bl_x'), { nonsense: true }],
    ];
    for (const [client, method, url, body] of crossing) {
      const res = await client.request(method, url, body);
      assert.equal(res.statusCode, 403, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, 'Forbidden');
    }
    const reviews = await platform.database.db
      .selectFrom('reviews')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    assert.deepEqual(reviews, []);
    // The tenant's own reviewer still gets the validation error for the same bad body.
    const own = await reviewer.request('POST', pathA(`sessions/${sessionId}/review`), { decision: 'maybe' });
    assert.equal(own.statusCode, 400);
    assert.equal(own.json().error, 'ValidationFailed');
  });

  test('the queue refuses the status filters that could never match a pending_review case', async () => {
    for (const q of ['status=pending', 'status=completed', 'verificationStatus=approved']) {
      const res = await reviewer.request('GET', `${pathA('review-queue')}?${q}`);
      assert.equal(res.statusCode, 400, q);
    }
    const sessionId = await person(apiA, '/a/', { pre: { lastName: '待機', firstName: '中' } });
    const res = await reviewer.request('GET', `${pathA('review-queue')}?${query({ name: '待機' })}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(ids(res), [sessionId]);
    assert.equal(res.json().next, null);
  });

  test('a field the OCR did not read is "not read", not a difference; a read one that differs is', async () => {
    const sessionId = await person(apiA, '/a/', {
      pre: { lastName: '佐藤', firstName: '美咲', birthDate: '1983-09-08' },
      read: { lastName: '加藤', firstName: '美咲' },
    });
    const res = await reviewer.request('GET', pathA(`sessions/${sessionId}`));
    assert.equal(res.statusCode, 200, res.body);
    const rows = Object.fromEntries(
      res.json().session.comparison.map((row: { field: string }) => [row.field, row]),
    );
    assert.equal(rows.lastName.ocrRead, true);
    assert.equal(rows.lastName.preRegisteredMatchesOcr, false);
    assert.equal(rows.firstName.preRegisteredMatchesOcr, true);
    assert.equal(rows.birthDate.ocrRead, false);
    assert.equal(rows.birthDate.ocr, null);
    assert.equal(rows.birthDate.preRegisteredMatchesOcr, null, 'unread is unknown, not a mismatch');
    const before = await person(apiA, '/a/', { pre: { lastName: '佐藤' } });
    const pending = (await reviewer.request('GET', pathA(`sessions/${before}`))).json().session;
    assert.equal(pending.comparison[0].ocrRead, null, 'no OCR result yet');
  });

  test('the document face and the selfie face are served at the same size, cut around the faces found', async () => {
    const sessionId = await person(apiA, '/a/', {});
    const blobs = openBlobStore(platform.config, platform.keyring);
    const front = await sharp({ create: { width: 1000, height: 630, channels: 3, background: '#dde' } })
      .jpeg()
      .toBuffer();
    const selfie = await sharp({ create: { width: 480, height: 640, channels: 3, background: '#edd' } })
      .jpeg()
      .toBuffer();
    await blobs.putBlob(`documents/${sessionId}/front.jpg`, front);
    await blobs.putBlob(`liveness/${sessionId}/reference.jpg`, selfie);
    const db = platform.database.db;
    await db
      .insertInto('session_documents')
      .values({
        session_id: sessionId,
        side: 'front',
        blob_key: `documents/${sessionId}/front.jpg`,
        content_type: 'image/jpeg',
        width: 1000,
        height: 630,
        byte_size: front.length,
        uploaded_at: platform.now(),
      })
      .execute();
    await db
      .updateTable('verification_sessions')
      .set({ liveness_reference_blob: `liveness/${sessionId}/reference.jpg` })
      .where('id', '=', sessionId)
      .execute();
    // The face match found the document's face at the card's left and none in the selfie.
    const { saveCheckResult } = await import('../../src/pipeline/pipeline-repository.ts');
    const { resultContext } = await import('../../src/pipeline/index.ts');
    await saveCheckResult(db, {
      sessionId,
      checkId: 'faceMatch',
      generation: 0,
      status: 'success',
      resultEnc: encryptJson(
        platform.keyring,
        {
          result: {
            similarity: 0.5,
            isSamePerson: false,
            status: 'no_face_selfie',
            reason: 'face_not_detected',
          },
          extras: { document: { box: { x: 60, y: 180, width: 180, height: 220 } }, selfie: null },
        },
        resultContext(sessionId, 'faceMatch'),
      ),
      provider: 'mimoto',
      model: 'test',
      version: '0',
      inputHashes: {},
      durationMs: 1,
      error: null,
      completedAt: platform.now(),
    });
    const detail = (await reviewer.request('GET', pathA(`sessions/${sessionId}`))).json().session;
    assert.deepEqual(detail.faces, {
      document: { url: pathA(`sessions/${sessionId}/images/document-face`), isFaceFound: true },
      selfie: { url: pathA(`sessions/${sessionId}/images/selfie-face`), isFaceFound: false },
    });
    const sizes = [];
    for (const face of [detail.faces.document, detail.faces.selfie]) {
      const res = await reviewer.request('GET', face.url);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/jpeg');
      assert.equal(res.headers['cache-control'], 'no-store');
      const { width, height } = await sharp(res.rawPayload).metadata();
      sizes.push([width, height]);
    }
    assert.deepEqual(sizes, [
      [320, 400],
      [320, 400],
    ]);
    const none = await person(apiA, '/a/', {});
    assert.equal(
      (await reviewer.request('GET', pathA(`sessions/${none}/images/document-face`))).statusCode,
      404,
    );
    assert.equal((await reviewer.request('GET', pathA(`sessions/${none}/images/portrait`))).statusCode, 400);
  });
});

describe('operators read any tenant, read-only, and the audit log records it', () => {
  test('list, case and images open; claim and review do not; each read is an audit row', async () => {
    const sessionId = await person(apiA, '/a/', { pre: { lastName: '監査', firstName: '対象' } });
    const list = await operator.request('GET', `${pathA('sessions')}?${query({ name: '監査' })}`);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(ids(list), [sessionId]);
    const detail = await operator.request('GET', pathA(`sessions/${sessionId}`));
    assert.equal(detail.statusCode, 200);
    assert.equal(detail.json().session.sessionId, sessionId);
    assert.equal((await operator.request('POST', pathA(`sessions/${sessionId}/claim`))).statusCode, 403);
    const review = await operator.request('POST', pathA(`sessions/${sessionId}/review`), {
      decision: 'approved',
      reasonCode: 'other',
      reason: 'operators may not',
    });
    assert.equal(review.statusCode, 403);
    assert.equal((await operator.request('GET', pathA('review-queue'))).statusCode, 403);
    const rows = await platform.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', 'otto@service.example')
      .where('action', 'like', 'session.%')
      .orderBy('id', 'asc')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.action, r.tenant_id, r.target_type, r.target_id]),
      [
        ['session.list', tenantA.tenantId, 'tenant', tenantA.tenantId],
        ['session.view', tenantA.tenantId, 'session', sessionId],
      ],
    );
    assert.deepEqual(rows[0]!.after, { filters: ['name'], rows: 1 });
    // The tenant's admin sees these rows in their own audit log.
    const audit = await admin.request('GET', '/console/api/audit');
    const actions = audit.json().entries.map((e: { action: string }) => e.action);
    assert.ok(actions.includes('session.view') && actions.includes('session.list'));
  });

  test("a tenant's own users leave no read rows, and an operator on an unknown tenant gets 404", async () => {
    const before = await platform.database.db.selectFrom('audit_log').select('id').execute();
    await reviewer.request('GET', pathA('sessions'));
    const after = await platform.database.db.selectFrom('audit_log').select('id').execute();
    assert.equal(after.length, before.length);
    const unknown = await operator.request(
      'GET',
      '/console/api/tenants/tn_00000000000000000000000000/sessions',
    );
    assert.equal(unknown.statusCode, 404);
  });
});

describe('the webhook log', () => {
  test("an event's detail shows the URL, the exact body sent and the receiver's answer", async () => {
    const sessionId = await person(apiA, '/a/', {});
    const eventId = await recordApproval(platform, tenantA.tenantId, sessionId);
    await redeliverWebhookEvent(platform, eventId);
    const res = await admin.request('GET', pathA(`webhook-events/${eventId}`));
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.request.url, receiver.url('/a/x'));
    assert.equal(body.request.headers['X-Service-Event'], 'verification.approved');
    const sent = receiver.received.filter((r) => r.url === '/a/x').at(-1)!;
    assert.equal(body.request.body, sent.body.toString('utf8'), 'the bytes the receiver got');
    assert.equal(JSON.parse(body.request.body).verificationId, sessionId);
    assert.deepEqual(
      body.attempts.map((a: Record<string, unknown>) => [
        a.statusCode,
        a.responseBody,
        a.responseBodyTruncated,
      ]),
      [[200, 'received, thanks', false]],
    );
    assert.equal((await reviewer.request('GET', pathA(`webhook-events/${eventId}`))).statusCode, 403);
    // The service's operator reads it too (read-only: no redeliver), each read an audit row.
    const seen = await operator.request('GET', pathA(`webhook-events/${eventId}`));
    assert.equal(seen.statusCode, 200, seen.body);
    assert.equal(seen.json().request.body, body.request.body);
    const listed = await operator.request('GET', pathA('webhook-events'));
    assert.ok(listed.json().events.some((e: { eventId: string }) => e.eventId === eventId));
    assert.equal(
      (await operator.request('POST', pathA(`webhook-events/${eventId}/redeliver`))).statusCode,
      403,
    );
    const reads = await platform.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('actor', '=', 'otto@service.example')
      .where('action', 'like', 'webhook_event.%')
      .orderBy('id', 'asc')
      .execute();
    assert.deepEqual(
      reads.map((r) => [r.action, r.target_id]),
      [
        ['webhook_event.view', eventId],
        ['webhook_event.list', tenantA.tenantId],
      ],
    );
    const otherTenant = await adminB.request(
      'GET',
      `/console/api/tenants/${tenantB.tenantId}/webhook-events/${eventId}`,
    );
    assert.equal(otherTenant.statusCode, 404);
  });

  test('"send test event" posts a signed webhook.test to an allowed URL and shows both sides', async () => {
    const url = receiver.url('/a/hook');
    const res = await admin.request('POST', pathA('webhook-test'), { url });
    assert.equal(res.statusCode, 200, res.body);
    const { test: sent } = res.json();
    assert.equal(sent.url, url);
    assert.equal(sent.outcome, 'success');
    assert.equal(sent.statusCode, 200);
    assert.equal(sent.responseBody, 'received, thanks');
    const arrived = receiver.received.filter((r) => r.url === '/a/hook').at(-1)!;
    assert.equal(arrived.headers['x-service-event'], 'webhook.test');
    assert.equal(arrived.body.toString('utf8'), sent.requestBody);
    assert.ok(signatureIsValid(arrived.body, arrived.headers, tenantA.webhookSecret));
    assert.equal(JSON.parse(sent.requestBody).event, 'webhook.test');
    const audit = await platform.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'webhook.test')
      .executeTakeFirstOrThrow();
    assert.deepEqual(audit.after, { url, outcome: 'success', statusCode: 200 });
  });

  test("a failing receiver's long answer comes back cut, marked truncated", async () => {
    const allowed = await createTenant(platform, {
      name: 'T',
      callbackUrlPrefixes: [receiver.url('/teapot')],
    });
    const teapotAdmin = await ConsoleClient.signIn(app, platform, {
      email: 'tea@t.example',
      role: 'tenant_admin',
      tenantId: allowed.tenantId,
    });
    const res = await teapotAdmin.request('POST', `/console/api/tenants/${allowed.tenantId}/webhook-test`, {
      url: receiver.url('/teapot'),
    });
    const sent = res.json().test;
    assert.equal(sent.outcome, 'failure');
    assert.equal(sent.statusCode, 418);
    assert.equal(sent.responseBody.length, 1024);
    assert.equal(sent.responseBodyTruncated, true);
  });

  test('a test goes only where real events may go: hostile URLs and bodies are 4xx', async () => {
    const cases: [unknown, number, string][] = [
      [{ url: 'https://elsewhere.example/hook' }, 422, 'CallbackUrlNotAllowed'],
      [{ url: receiver.url('/b/hook') }, 422, 'CallbackUrlNotAllowed'],
      [{ url: 'http://10.0.0.1/hook' }, 400, 'ValidationFailed'],
      [{ url: 'http://169.254.169.254/latest/meta-data' }, 400, 'ValidationFailed'],
      [{ url: 'file:///etc/passwd' }, 400, 'ValidationFailed'],
      [{ url: 'not a url' }, 400, 'ValidationFailed'],
      [{ url: `${receiver.url('/a/')}\u0000` }, 400, 'ValidationFailed'],
      [{ url: receiver.url('/a/'), extra: 1 }, 400, 'ValidationFailed'],
      [{}, 400, 'ValidationFailed'],
      ['{"url":', 400, 'BadRequest'],
    ];
    for (const [body, status, error] of cases) {
      const res = await admin.request('POST', pathA('webhook-test'), body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(body));
    }
    assert.equal(
      (await reviewer.request('POST', pathA('webhook-test'), { url: receiver.url('/a/') })).statusCode,
      403,
    );
    assert.equal(
      (await adminB.request('POST', pathA('webhook-test'), { url: receiver.url('/a/') })).statusCode,
      403,
    );
  });
});
