// Signing in and out of the console (docs/console-api.md "Accounts"): the password link, the
// cookie, CSRF, lockout, the per-IP limit, session expiry and disabled users.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { CLI_ACTOR, createConsoleUser } from '../../src/console/index.ts';
import { createTestPlatform } from '../helpers/test-platform.ts';
import { ConsoleClient, ORIGIN, PASSWORD, useConsoleWorld } from './console-helpers.ts';

describe('console sign-in', () => {
  const world = useConsoleWorld();

  it('sets an HttpOnly, SameSite=Strict cookie on /console and answers the user and a CSRF token', async () => {
    const response = await world.client.login(world.adminA.email);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(body.user, {
      id: world.adminA.userId,
      email: world.adminA.email,
      role: 'tenant_admin',
      tenantId: world.tenantA.tenantId,
    });
    assert.match(body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    const setCookie = String(response.headers['set-cookie']);
    assert.match(setCookie, /^mimoto_console=[A-Za-z0-9]{43};/);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, /Path=\/console;/);
    // The test config is development (http), where Secure would lose the cookie.
    assert.doesNotMatch(setCookie, /Secure/);
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('answers /me with the user and the same CSRF token; no cookie is 401 ConsoleLoginRequired', async () => {
    const me = await world.client.request('GET', '/me', world.reviewerA);
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().user.role, 'reviewer');
    assert.equal(me.json().csrfToken, world.reviewerA.csrfToken);
    const anonymous = await world.client.request('GET', '/me');
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().error, 'ConsoleLoginRequired');
    const forged = await world.client.request('GET', '/me', { ...world.reviewerA, cookie: 'A'.repeat(43) });
    assert.equal(forged.statusCode, 401);
  });

  it('gives the same 401 for an unknown address and a wrong password', async () => {
    const unknown = await world.client.login('nobody@example.test', PASSWORD, '10.0.0.1');
    const wrong = await world.client.login(world.operator.email, 'wrong password!!', '10.0.0.1');
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(unknown.json(), wrong.json());
    assert.equal(unknown.json().error, 'ConsoleLoginFailed');
    assert.equal(unknown.cookies.length, 0);
    // Case does not matter in the address.
    const upper = await world.client.login(world.operator.email.toUpperCase(), PASSWORD, '10.0.0.1');
    assert.equal(upper.statusCode, 200);
  });

  it('refuses a change without the CSRF token or from another origin, and takes it with both right', async () => {
    const as = await world.client.signIn(world.adminA.email);
    const user = { ...as, userId: world.adminA.userId };
    const path = `/tenants/${world.tenantA.tenantId}/api-keys`;
    const noToken = await world.client.request('POST', path, { ...user, csrfToken: '' }, {});
    assert.equal(noToken.statusCode, 403);
    assert.equal(noToken.json().error, 'CsrfTokenInvalid');
    const otherToken = await world.client.request(
      'POST',
      path,
      { ...user, csrfToken: world.adminB.csrfToken },
      {},
    );
    assert.equal(otherToken.statusCode, 403);
    const otherOrigin = await world.client.request(
      'POST',
      path,
      user,
      {},
      { origin: 'https://evil.example' },
    );
    assert.equal(otherOrigin.statusCode, 403);
    assert.equal(otherOrigin.json().error, 'CsrfTokenInvalid');
    const crossSite = await world.client.request('POST', path, user, {}, { 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.statusCode, 403);
    const ok = await world.client.request('POST', path, user, {}, { origin: ORIGIN });
    assert.equal(ok.statusCode, 201);
    // A login posted from another site is refused too (login CSRF).
    const foreignLogin = await world.client.app.inject({
      method: 'POST',
      url: '/console/api/login',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: JSON.stringify({ email: world.adminA.email, password: PASSWORD }),
    });
    assert.equal(foreignLogin.statusCode, 403);
  });

  it('logs out: the session ends and the cookie is cleared', async () => {
    const session = { ...(await world.client.signIn(world.reviewerA.email)), userId: world.reviewerA.userId };
    const logout = await world.client.request('POST', '/logout', session);
    assert.equal(logout.statusCode, 204);
    assert.match(String(logout.headers['set-cookie']), /mimoto_console=;.*Expires=Thu, 01 Jan 1970/);
    assert.equal((await world.client.request('GET', '/me', session)).statusCode, 401);
    // Other sessions of the same user go on.
    assert.equal((await world.client.request('GET', '/me', world.reviewerA)).statusCode, 200);
  });

  it('ends a session after 30 idle minutes and after 12 hours however active', async () => {
    const session = { ...(await world.client.signIn(world.adminB.email)), userId: world.adminB.userId };
    world.platform.advance(29 * 60_000);
    assert.equal((await world.client.request('GET', '/me', session)).statusCode, 200);
    world.platform.advance(29 * 60_000);
    assert.equal(
      (await world.client.request('GET', '/me', session)).statusCode,
      200,
      'activity resets the idle timer',
    );
    world.platform.advance(31 * 60_000);
    assert.equal((await world.client.request('GET', '/me', session)).statusCode, 401, 'idle 31 min');

    const busy = { ...(await world.client.signIn(world.adminB.email)), userId: world.adminB.userId };
    // A request every 20 minutes keeps it from idling out, but not past 12 hours (36 × 20 min).
    for (let step = 1; step < 36; step++) {
      world.platform.advance(20 * 60_000);
      assert.equal(
        (await world.client.request('GET', '/me', busy)).statusCode,
        200,
        `after ${step * 20} min`,
      );
    }
    world.platform.advance(20 * 60_000);
    assert.equal((await world.client.request('GET', '/me', busy)).statusCode, 401, 'past 12 h');
  });

  it('locks an account after 5 failures in a row: 429 with Retry-After, even for the right password', async () => {
    const user = await world.client.createUser(world.platform, 'reviewer', world.tenantB.tenantId);
    for (let i = 1; i <= 4; i++) {
      const failed = await world.client.login(user.email, 'not the password', '10.0.1.1');
      assert.equal(failed.statusCode, 401, `failure ${i}`);
    }
    const fifth = await world.client.login(user.email, 'not the password', '10.0.1.1');
    assert.equal(fifth.statusCode, 429);
    assert.equal(fifth.json().error, 'ConsoleAccountLocked');
    assert.equal(fifth.headers['retry-after'], String(15 * 60));
    const right = await world.client.login(user.email, PASSWORD, '10.0.1.1');
    assert.equal(right.statusCode, 429);
    assert.ok(Number(right.headers['retry-after']) > 0);
    // Signed-in sessions are not affected; after 15 minutes the right password works again.
    assert.equal((await world.client.request('GET', '/me', user)).statusCode, 200);
    world.platform.advance(15 * 60_000 + 1000);
    assert.equal((await world.client.login(user.email, PASSWORD, '10.0.1.1')).statusCode, 200);
  });

  it('limits sign-in attempts per IP address: 20 per 10 minutes, then 429 TooManyRequests', async () => {
    for (let i = 0; i < 20; i++) {
      const response = await world.client.login(`nobody${i}@example.test`, PASSWORD, '10.0.2.2');
      assert.equal(response.statusCode, 401);
    }
    const limited = await world.client.login(world.operator.email, PASSWORD, '10.0.2.2');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error, 'TooManyRequests');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await world.client.login(world.operator.email, PASSWORD, '10.0.2.3')).statusCode, 200);
    world.platform.advance(10 * 60_000);
    assert.equal(
      (await world.client.login(world.operator.email, PASSWORD, '10.0.2.2')).statusCode,
      200,
      'a new window',
    );
  });

  it('uses a password link once, refuses it after 24 h, and checks the password length', async () => {
    const make = () =>
      createConsoleUser(world.platform, CLI_ACTOR, {
        email: `link-${Math.random().toString(36).slice(2)}@example.test`,
        role: 'reviewer',
        tenantId: world.tenantA.tenantId,
      });
    const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
    const { setPasswordUrl, user } = await make();
    assert.match(
      setPasswordUrl,
      /^http:\/\/127\.0\.0\.1:8080\/console\/set-password\?token=[A-Za-z0-9]{43}$/,
    );
    const token = tokenOf(setPasswordUrl);
    const short = await world.client.request('POST', '/password', undefined, {
      token,
      password: 'elevenchars',
    });
    assert.equal(short.statusCode, 400);
    const long = await world.client.request('POST', '/password', undefined, {
      token,
      password: 'x'.repeat(201),
    });
    assert.equal(long.statusCode, 400);
    const first = await world.client.request('POST', '/password', undefined, { token, password: PASSWORD });
    assert.equal(first.statusCode, 204, 'the short and long tries did not use the link up');
    const again = await world.client.request('POST', '/password', undefined, {
      token,
      password: `${PASSWORD}!`,
    });
    assert.equal(again.statusCode, 410);
    assert.equal(again.json().error, 'PasswordLinkInvalid');
    assert.equal((await world.client.login(user.email, PASSWORD)).statusCode, 200);
    assert.equal((await world.client.login(user.email, `${PASSWORD}!`)).statusCode, 401);

    const late = await make();
    world.platform.advance(24 * 3_600_000 + 1000);
    const expired = await world.client.request('POST', '/password', undefined, {
      token: tokenOf(late.setPasswordUrl),
      password: PASSWORD,
    });
    assert.equal(expired.statusCode, 410);
    const unknown = await world.client.request('POST', '/password', undefined, {
      token: 'A'.repeat(43),
      password: PASSWORD,
    });
    assert.equal(unknown.statusCode, 410);
    // A user who never set a password cannot sign in.
    assert.equal((await world.client.login(late.user.email, PASSWORD)).statusCode, 401);
  });

  it("ends a disabled user's sessions at once and refuses their sign-in", async () => {
    const user = await world.client.createUser(world.platform, 'reviewer', world.tenantA.tenantId);
    assert.equal((await world.client.request('GET', '/me', user)).statusCode, 200);
    const admin = { ...(await world.client.signIn(world.adminA.email)), userId: world.adminA.userId };
    const disabled = await world.client.request('POST', `/users/${user.userId}/disable`, admin);
    assert.equal(disabled.statusCode, 200);
    assert.equal(disabled.json().user.disabled, true);
    assert.equal((await world.client.request('GET', '/me', user)).statusCode, 401);
    assert.equal((await world.client.login(user.email)).statusCode, 401);
  });
});

describe('console sign-in in production', () => {
  it('marks the cookie Secure and takes changes only from the public origin', async () => {
    const platform = await createTestPlatform({
      env: { MIMOTO_ENV: 'production', MIMOTO_PUBLIC_URL: 'https://kyc.example' },
    });
    const app = await buildApp(platform);
    try {
      const client = new ConsoleClient(app);
      const user = await client.createUser(platform, 'operator', null);
      const login = await client.login(user.email);
      assert.match(String(login.headers['set-cookie']), /; Secure/);
      const body = { name: 'P', callbackUrlPrefixes: ['https://p.example/'] };
      const local = await client.request('POST', '/tenants', user, body, { origin: ORIGIN });
      assert.equal(local.statusCode, 403, 'the development origin is another origin here');
      const own = await client.request('POST', '/tenants', user, body, { origin: 'https://kyc.example' });
      assert.equal(own.statusCode, 201);
    } finally {
      await app.close();
      await platform.close();
    }
  });
});
