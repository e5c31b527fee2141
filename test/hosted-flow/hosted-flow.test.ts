// The hosted flow over HTTP (interface §1, §4.1): link, cookie, IP, CSRF and upload rules,
// then the whole flow to submission with the jobs queued in the same transaction.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { useTestApi } from '../helpers/api-client.ts';
import { cookieOf, dataDirEnv, FlowClient, newSession } from './flow-helpers.ts';

const CORPUS = 'test/fixtures/corpus';
const front = readFileSync(`${CORPUS}/drivers_license-genuine-0/front.jpg`);
const back = readFileSync(`${CORPUS}/drivers_license-genuine-0/back.jpg`);

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const x of b) c = (crcTable[(c ^ x) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A small PNG whose header claims 100000×100000 pixels: a decompression bomb's signature. */
async function bombPng(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('entering through the one-time link', () => {
  const t = useTestApi({ env: dataDirEnv() });

  test('first use: 303 into the flow, HttpOnly SameSite=Lax cookie for /verify (no Secure in development), in_progress', async () => {
    const { sessionId, path } = await newSession(t);
    const res = await t.api.app.inject({ method: 'GET', url: path });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/verify/flow');
    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\/verify/);
    assert.match(cookie, /Max-Age=900/);
    assert.doesNotMatch(cookie, /Secure/);
    const detail = (await t.api.getSession(sessionId)).json();
    assert.equal(detail.status, 'in_progress');
    const left = Date.parse(detail.expiresAt) - t.platform.now().getTime();
    assert.ok(left > 14.9 * 60_000 && left <= 15 * 60_000, 'session valid 15 min from the cookie');
    const row = await t.platform.database.db
      .selectFrom('verification_sessions')
      .select('first_access_ip')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(row.first_access_ip, '127.0.0.1', 'kept for the fraud check');
  });

  test('a reused link gets the expired page (410) and no cookie', async () => {
    const { path } = await newSession(t);
    assert.equal((await t.api.app.inject({ method: 'GET', url: path })).statusCode, 303);
    const again = await t.api.app.inject({ method: 'GET', url: path });
    assert.equal(again.statusCode, 410);
    assert.match(again.headers['content-type'] as string, /text\/html/);
    assert.match(again.body, /expired|有効期限/);
    assert.equal(again.headers['set-cookie'], undefined);
  });

  test('a link used after 10 s gets 410 and the session stays pending', async () => {
    const { sessionId, path } = await newSession(t);
    t.platform.advance(10_500);
    const res = await t.api.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'en' } });
    assert.equal(res.statusCode, 410);
    assert.match(res.body, /This link has expired/);
    assert.equal((await t.api.getSession(sessionId)).json().status, 'pending');
  });

  test('a wrong token gets 410', async () => {
    const { path } = await newSession(t);
    const res = await t.api.app.inject({ method: 'GET', url: path.replace(/token=[^&]+/, 'token=x') });
    assert.equal(res.statusCode, 410);
  });

  test('first use from another IPv4 gets 403 and does not consume the link', async () => {
    const { path } = await newSession(t, { clientIpAddress: '203.0.113.7' });
    const wrong = await t.api.app.inject({ method: 'GET', url: path, remoteAddress: '198.51.100.1' });
    assert.equal(wrong.statusCode, 403);
    assert.equal(wrong.headers['set-cookie'], undefined);
    const right = await t.api.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.7' });
    assert.equal(right.statusCode, 303);
  });

  test('an IPv6 clientIpAddress is ignored: any address may enter', async () => {
    const { path } = await newSession(t, { clientIpAddress: '2001:db8::1' });
    const res = await t.api.app.inject({ method: 'GET', url: path, remoteAddress: '198.51.100.1' });
    assert.equal(res.statusCode, 303);
  });

  test('pages forbid framing and caching', async () => {
    const { path } = await newSession(t);
    const res = await t.api.app.inject({ method: 'GET', url: path });
    const page = await t.api.app.inject({
      method: 'GET',
      url: '/verify/flow',
      headers: { cookie: `mimoto_flow=${cookieOf(res)}` },
    });
    for (const r of [res, page]) {
      assert.match(String(r.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(r.headers['cache-control'], 'no-store');
    }
    assert.doesNotMatch(String(page.headers['content-security-policy']), /https?:/, 'no third-party source');
  });
});

describe('flow requests need the cookie of a live session and a CSRF token', () => {
  const t = useTestApi({ env: dataDirEnv() });

  test('no cookie → 401, an unknown cookie → 401', async () => {
    const none = await t.api.app.inject({ method: 'GET', url: '/verify/api/state' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error, 'FlowSessionRequired');
    const foreign = await t.api.app.inject({
      method: 'GET',
      url: '/verify/api/state',
      headers: { cookie: `mimoto_flow=${'A'.repeat(43)}` },
    });
    assert.equal(foreign.statusCode, 401);
  });

  test('each cookie reaches only its own session', async () => {
    const a = await FlowClient.enter(t);
    const b = await FlowClient.enter(t);
    assert.equal((await a.state()).json().sessionId, a.sessionId);
    assert.equal((await b.state()).json().sessionId, b.sessionId);
    // b's CSRF token does not work with a's cookie.
    const crossed = await a.send('POST', '/verify/api/consent', undefined, { 'x-csrf-token': b.csrf });
    assert.equal(crossed.statusCode, 403);
  });

  test('state answers JSON, no-store, with the CSRF token and the allowed document types', async () => {
    const a = await FlowClient.enter(t);
    const res = await a.state({ 'accept-language': 'en-US,en;q=0.9' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    const state = res.json();
    assert.equal(state.language, 'en');
    assert.equal(state.status, 'in_progress');
    assert.deepEqual(state.allowedDocumentTypes, [
      'drivers_license',
      'my_number_card',
      'residence_card',
      'passport',
    ]);
    assert.ok(state.csrfToken.length >= 40);
  });

  test('a state-changing request without, or with a wrong, CSRF token is 403 and changes nothing', async () => {
    const a = await FlowClient.enter(t);
    const missing = await a.send('POST', '/verify/api/consent', undefined, { 'x-csrf-token': '' });
    assert.equal(missing.statusCode, 403);
    assert.equal(missing.json().error, 'CsrfTokenInvalid');
    const wrong = await a.send(
      'PUT',
      '/verify/api/document-type',
      { documentType: 'passport' },
      { 'x-csrf-token': 'nope' },
    );
    assert.equal(wrong.statusCode, 403);
    const otherSite = await a.send('POST', '/verify/api/consent', undefined, {
      origin: 'https://evil.example',
    });
    assert.equal(otherSite.statusCode, 403);
    // A sandboxed frame or a data: page says `Origin: null`: never this origin (issue 46).
    const opaque = await a.send('POST', '/verify/api/consent', undefined, { origin: 'null' });
    assert.equal(opaque.statusCode, 403);
    assert.equal(opaque.json().error, 'CsrfTokenInvalid');
    const crossSite = await a.send('POST', '/verify/api/consent', undefined, {
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(crossSite.statusCode, 403);
    assert.equal((await a.state()).json().steps.consent, false);
    // The same request from this origin passes: the refusals above were for the origin alone.
    const own = await a.send('POST', '/verify/api/consent', undefined, { origin: 'http://127.0.0.1:8080' });
    assert.equal(own.statusCode, 204);
  });

  test('an expired session answers 410', async () => {
    const a = await FlowClient.enter(t);
    t.platform.advance(15 * 60_000 + 1000);
    const res = await a.state({ 'accept-language': 'ja' });
    assert.equal(res.statusCode, 410);
    assert.equal(res.json().error, 'SessionExpired');
    assert.match(res.json().message, /有効期限/);
    assert.equal((await t.api.getSession(a.sessionId)).json().status, 'expired');
  });
});

describe('document uploads', () => {
  const t = useTestApi({ env: dataDirEnv() });
  const ready = async (documentType = 'drivers_license') => {
    const a = await FlowClient.enter(t);
    assert.equal((await a.send('POST', '/verify/api/consent')).statusCode, 204);
    assert.equal((await a.send('PUT', '/verify/api/document-type', { documentType })).statusCode, 204);
    return a;
  };
  const frontUploaded = async (a: { sessionId: string }) =>
    (await t.api.getSession(a.sessionId)).json().documents?.frontUploaded;

  test('a good photo is stored (201) and served to the tenant with its API key only', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: front }]);
    assert.equal(res.statusCode, 201, res.body);
    const detail = (await t.api.getSession(a.sessionId)).json();
    assert.equal(detail.documentType, 'drivers_license');
    assert.equal(detail.documents.frontUploaded, true);
    assert.equal(detail.documents.backUploaded, false);
    const url = new URL(detail.documents.frontImageUrl);
    const image = await t.api.app.inject({
      method: 'GET',
      url: url.pathname,
      headers: { authorization: `Bearer ${t.tenant.apiKey}` },
    });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/jpeg');
    const meta = await sharp(image.rawPayload).metadata();
    assert.equal(meta.exif, undefined, 'metadata removed');
    assert.equal((await t.api.app.inject({ method: 'GET', url: url.pathname })).statusCode, 401);
  });

  test('over 10 MB → 413', async () => {
    const a = await ready();
    const big = Buffer.concat([front, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: big }]);
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error, 'ImageTooLarge');
    assert.equal(await frontUploaded(a), false);
  });

  test('a truncated JPEG → 422 ImageUnreadable, nothing stored', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [
      { field: 'image', bytes: front.subarray(0, front.length / 2) },
    ]);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'ImageUnreadable');
    assert.equal(await frontUploaded(a), false);
  });

  test('a disguised file (text named .jpg, declared image/jpeg) → 415', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [
      {
        field: 'image',
        bytes: Buffer.from('<?php echo "hi"; ?>'.repeat(100)),
        name: 'card.jpg',
        type: 'image/jpeg',
      },
    ]);
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().error, 'ImageTypeUnsupported');
  });

  test('a decompression bomb is refused before decoding → 422', async () => {
    const a = await ready();
    const res = await a.upload('/verify/api/documents/front', [
      { field: 'image', bytes: await bombPng(), type: 'image/png' },
    ]);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'ImageTooManyPixels');
  });

  test('quality: blurred, too small, no card → 422 with the reason in the user language', async () => {
    const a = await ready();
    const blurred = await sharp(front).blur(4).jpeg().toBuffer();
    const r1 = await a.upload(
      '/verify/api/documents/front',
      [{ field: 'image', bytes: blurred }],
      {},
      { 'accept-language': 'en' },
    );
    assert.equal(r1.statusCode, 422);
    assert.equal(r1.json().error, 'ImageBlurred');
    assert.match(r1.json().message, /blurred/);
    assert.match(r1.json().messages.ja, /ぼやけ/);
    const small = await sharp(front).resize(320).jpeg().toBuffer();
    assert.equal(
      (await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: small }])).json().error,
      'ImageTooSmall',
    );
    const blank = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#8a8070' } })
      .png()
      .toBuffer();
    assert.equal(
      (
        await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: blank, type: 'image/png' }])
      ).json().error,
      'DocumentNotFound',
    );
    assert.equal(await frontUploaded(a), false);
  });

  test('a passport has no back side → 409', async () => {
    const a = await ready('passport');
    const res = await a.upload('/verify/api/documents/back', [{ field: 'image', bytes: back }]);
    assert.equal(res.statusCode, 409);
  });

  test('a document type outside the list → 400', async () => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    const res = await a.send('PUT', '/verify/api/document-type', { documentType: 'library_card' });
    assert.equal(res.statusCode, 400);
  });
});

describe('the flow to submission (liveness failed three times, the flow goes on)', () => {
  const t = useTestApi({ env: dataDirEnv() });
  const staticFrames = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8'))
    .samples.find((s: { id: string }) => s.id === 'static_photo-0')
    .files.frames.map((f: { file: string }) => readFileSync(`${CORPUS}/${f.file}`)) as Buffer[];

  test('consent, document, three failed attempts, personal data, submit → processing, 5 jobs, redirect with state', async () => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    await a.send('PUT', '/verify/api/document-type', { documentType: 'drivers_license' });
    assert.equal(
      (await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: front }])).statusCode,
      201,
    );

    const early = await a.send('POST', '/verify/api/submit');
    assert.equal(early.statusCode, 409);
    assert.deepEqual(
      early.json().details.map((d: { path: string }) => d.path),
      ['/steps/back', '/steps/liveness', '/steps/personalData'],
    );
    assert.equal(
      (await a.upload('/verify/api/documents/back', [{ field: 'image', bytes: back }])).statusCode,
      201,
    );

    const timestamps = JSON.stringify(staticFrames.map((_, i) => i * 500));
    const frames = staticFrames.map((bytes) => ({ field: 'frames', bytes }));
    let used = '';
    for (let attempt = 1; attempt <= 3; attempt++) {
      const challenge = await a.send('POST', '/verify/api/liveness/challenge');
      assert.equal(challenge.statusCode, 201);
      const { challengeId, steps } = challenge.json();
      assert.equal(new Set(steps).size, 3);
      if (attempt === 1) {
        // A camera report that is not the documented object is refused before any frame counts.
        for (const camera of [
          '{"label":',
          '[]',
          '{"label":"x","lens":"wide"}',
          '{"width":-3}',
          '{"label":"\\ud800"}',
        ]) {
          const refused = await a.upload('/verify/api/liveness/attempts', frames, {
            challengeId,
            timestamps,
            camera,
          });
          assert.equal(refused.statusCode, 400, camera);
          assert.equal(refused.json().details[0].path, '/camera');
        }
      }
      // The last attempt says it was filmed by OBS's virtual camera at a size the frames are not.
      const camera = JSON.stringify(
        attempt === 3
          ? { label: 'OBS Virtual Camera', width: 1280, height: 720, frameRate: 30 }
          : { label: 'FaceTime HD Camera', width: null, height: null, frameRate: null },
      );
      const res = await a.upload('/verify/api/liveness/attempts', frames, {
        challengeId,
        timestamps,
        camera,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().passed, false);
      assert.ok(res.json().failures.includes('pose_order_mismatch'));
      assert.equal(res.json().attemptsLeft, 3 - attempt);
      if (attempt === 1) {
        used = challengeId;
        // A used challenge cannot be answered again.
        const again = await a.upload('/verify/api/liveness/attempts', frames, { challengeId, timestamps });
        assert.equal(again.statusCode, 409);
        assert.equal(again.json().error, 'LivenessChallengeInvalid');
      }
    }
    assert.ok(used);
    const signals = await t.platform.database.executeSql(
      `SELECT injection_signals, camera->>'label' AS label FROM liveness_challenges
        WHERE session_id = '${a.sessionId}' AND used_at IS NOT NULL ORDER BY used_at`,
    );
    assert.deepEqual(
      signals.rows.map((r) => [r.label, r.injection_signals]),
      [
        ['FaceTime HD Camera', []],
        ['FaceTime HD Camera', []],
        ['OBS Virtual Camera', ['virtual_camera', 'camera_settings_mismatch']],
      ],
    );
    assert.equal((await a.send('POST', '/verify/api/liveness/challenge')).statusCode, 409);
    const state = (await a.state()).json();
    assert.equal(state.steps.liveness.status, 'failed');

    const bad = await a.send('PUT', '/verify/api/personal-data', {
      lastName: '山田',
      firstName: '太郎',
      lastNameKana: 'やまだ',
      firstNameKana: 'たろう',
      birthDate: '1990-02-30',
      address: '東京都千代田区1-1',
    });
    assert.equal(bad.statusCode, 400);
    const saved = await a.send('PUT', '/verify/api/personal-data', {
      lastName: '山田',
      firstName: '太郎',
      lastNameKana: 'やまだ',
      firstNameKana: 'ﾀﾛｳ',
      birthDate: '1990-04-01',
      address: '東京都千代田区1-1',
    });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(saved.json().lastNameKana, 'ヤマダ');
    assert.equal(saved.json().firstNameKana, 'タロウ');

    const jobsBefore = Number(
      (await t.platform.database.executeSql('SELECT count(*)::int AS n FROM pgboss.job')).rows[0]?.n,
    );
    const submit = await a.send('POST', '/verify/api/submit');
    assert.equal(submit.statusCode, 200, submit.body);
    const redirect = new URL(submit.json().redirectTo);
    assert.equal(redirect.searchParams.get('sessionId'), a.sessionId);
    assert.equal(redirect.searchParams.get('state'), 'tenant-state-1');
    const jobs = await t.platform.database.executeSql(
      `SELECT name FROM pgboss.job WHERE data->>'sessionId' = '${a.sessionId}' ORDER BY name`,
    );
    assert.deepEqual(
      jobs.rows.map((r) => r.name),
      [
        'check.documentSpoofCheck',
        'check.faceMatch',
        'check.fraudSignalAnalysis',
        'check.ocr',
        'check.selfieSpoofCheck',
      ],
    );
    // The form post answers 303 to the same place and queues nothing more.
    const form = await t.api.app.inject({
      method: 'POST',
      url: '/verify/complete',
      headers: { cookie: `mimoto_flow=${a.cookie}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrfToken=${encodeURIComponent(a.csrf)}`,
    });
    assert.equal(form.statusCode, 303);
    assert.equal(form.headers.location, submit.json().redirectTo);
    const jobsAfter = Number(
      (await t.platform.database.executeSql('SELECT count(*)::int AS n FROM pgboss.job')).rows[0]?.n,
    );
    assert.equal(jobsAfter - jobsBefore, 5);
    // Nothing changes after submission.
    assert.equal((await a.send('POST', '/verify/api/consent')).statusCode, 409);

    const detail = (await t.api.getSession(a.sessionId)).json();
    assert.equal(detail.verification.status, 'processing');
    assert.equal(detail.verification.verificationId, a.sessionId);
    assert.equal(detail.liveness.status, 'failed');
    assert.equal(detail.userInput.firstNameKana, 'タロウ');
    assert.equal(detail.documents.backUploaded, true);
  });
});
