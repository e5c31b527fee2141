// Continue on a phone: the code is issued only to the cookie's holder (with its CSRF token), works
// once and briefly, moves the session to the phone's new cookie, and leaves the first browser able
// only to follow the progress to the callback.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestApi } from '../helpers/api-client.ts';
import { cookieOf, dataDirEnv, FlowClient } from './flow-helpers.ts';

describe('phone hand-off', () => {
  const t = useTestApi({ env: dataDirEnv() });
  const open = (url: string) => t.api.app.inject({ method: 'GET', url: new URL(url).pathname });
  const statusOf = (cookie: string) =>
    t.api.app.inject({
      method: 'GET',
      url: '/verify/api/handoff',
      headers: { cookie: `mimoto_flow=${cookie}` },
    });

  test('without the CSRF token no code is issued', async () => {
    const a = await FlowClient.enter(t);
    const res = await a.send('POST', '/verify/api/handoff', undefined, { 'x-csrf-token': 'wrong' });
    assert.equal(res.statusCode, 403);
  });

  test('the code moves the session to the phone once; the first browser only follows', async () => {
    const desktop = await FlowClient.enter(t);
    const issued = await desktop.send('POST', '/verify/api/handoff');
    assert.equal(issued.statusCode, 201);
    const { url, qrSvg, expiresAt } = issued.json();
    assert.match(url, /\/verify\/h\/[A-Za-z0-9]{24}$/);
    assert.match(qrSvg, /^<svg /);
    const validMs = Date.parse(expiresAt) - Date.now();
    assert.ok(validMs > 4 * 60_000 && validMs <= 5 * 60_000, `valid ${validMs} ms`);
    assert.equal((await statusOf(desktop.cookie)).json().status, 'waiting');

    const moved = await open(url);
    assert.equal(moved.statusCode, 303);
    assert.equal(moved.headers.location, '/verify/flow');
    const phone = new FlowClient(t, cookieOf(moved));
    const state = await phone.state();
    assert.equal(state.statusCode, 200);
    assert.equal(state.json().sessionId, desktop.sessionId);
    phone.csrf = state.json().csrfToken;
    assert.equal((await phone.send('POST', '/verify/api/consent')).statusCode, 204);

    // The first browser's cookie no longer holds the session: it can only ask how it goes on.
    assert.equal((await desktop.state()).statusCode, 401);
    assert.equal((await statusOf(desktop.cookie)).json().status, 'continued');

    // Used once: the same link again changes nothing.
    const again = await open(url);
    assert.equal(again.statusCode, 410);
    assert.equal(again.headers['set-cookie'], undefined);
    assert.equal((await phone.state()).statusCode, 200);

    // Once the phone has submitted, the first browser is sent to the tenant's callback.
    await t.platform.database.db
      .updateTable('verification_sessions')
      .set({ submitted_at: new Date() })
      .where('id', '=', desktop.sessionId)
      .execute();
    const done = (await statusOf(desktop.cookie)).json();
    assert.equal(done.status, 'submitted');
    assert.match(done.redirectTo, /^https:\/\/tenant\.example\/kyc\/callback\/done\?sessionId=/);
  });

  test('a code past its few minutes, or replaced by a newer one, does not work', async () => {
    const desktop = await FlowClient.enter(t);
    const first = (await desktop.send('POST', '/verify/api/handoff')).json().url;
    const second = (await desktop.send('POST', '/verify/api/handoff')).json().url;
    assert.equal((await open(first)).statusCode, 410, 'a newer code ends the earlier one');
    await t.platform.database.db
      .updateTable('flow_handoffs')
      .set({ expires_at: new Date(Date.now() - 1) })
      .execute();
    const late = await open(second);
    assert.equal(late.statusCode, 410);
    assert.match(late.body, /QR/);
    assert.equal((await desktop.state()).statusCode, 200, 'the first browser keeps the session');
    assert.equal((await statusOf(desktop.cookie)).json().status, 'expired');
  });

  test('a made-up code gets the same page, and no cookie asks for no status', async () => {
    assert.equal((await open('http://x/verify/h/AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode, 410);
    assert.equal((await open('http://x/verify/h/short')).statusCode, 410);
    assert.equal((await t.api.app.inject({ method: 'GET', url: '/verify/api/handoff' })).statusCode, 401);
  });
});
