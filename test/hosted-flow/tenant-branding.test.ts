// Who asks, in the user's language: the flow's state and the server-rendered refusal pages name
// the tenant (its display name, else its name) in its contrast-checked accent colour, and say
// what to do next; a browser in a language we lack gets English.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accentColorProblem, brandingOf, updateTenantSettings } from '../../src/tenants/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { cookieOf, dataDirEnv, FlowClient, newSession } from './flow-helpers.ts';

describe('accent colours and display names', () => {
  test('a colour white text cannot be read on is refused with its contrast', () => {
    assert.match(accentColorProblem('#ffd400') ?? '', /contrasts 1\.\d\d:1 with white; at least 4.5:1/);
    assert.equal(accentColorProblem('#8a1538'), null);
    assert.equal(accentColorProblem('#0B57D0'), null);
    assert.match(accentColorProblem('red') ?? '', /#rrggbb/);
  });

  test('stored values that are not valid fall back to the tenant name and the service colour', () => {
    assert.deepEqual(brandingOf({ name: 'acme', settings: { displayName: ' ', accentColor: '#ffffff' } }), {
      displayName: 'acme',
      accentColor: null,
      logo: null,
    });
  });
});

describe('the flow and its pages name the tenant', () => {
  const t = useTestApi({ env: dataDirEnv() });
  const brand = () =>
    updateTenantSettings(t.platform.database.db, t.tenant.tenantId, {
      displayName: 'みらい銀行',
      accentColor: '#8a1538',
    });

  test('the state carries the display name and colour', async () => {
    await brand();
    const a = await FlowClient.enter(t);
    assert.deepEqual((await a.state()).json().tenant, {
      displayName: 'みらい銀行',
      accentColor: '#8a1538',
      logoUrl: null,
    });
  });

  test('a used link gets a styled 410 page in English naming the tenant and the way on', async () => {
    await brand();
    const { path } = await newSession(t);
    await t.api.app.inject({ method: 'GET', url: path });
    const again = await t.api.app.inject({
      method: 'GET',
      url: path,
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    assert.equal(again.statusCode, 410);
    assert.match(again.body, /<html lang="en">/);
    assert.match(again.body, /<span class="brand">みらい銀行<\/span>/);
    assert.match(again.body, /Please go back to みらい銀行 and ask for a new verification link\./);
    assert.match(again.body, /<link rel="stylesheet" href="\/verify\/page\.css\?accent=8a1538">/);
    const css = await t.api.app.inject({ method: 'GET', url: '/verify/page.css?accent=8a1538' });
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.match(css.body, /--accent:#8a1538/);
    const hostile = await t.api.app.inject({ method: 'GET', url: '/verify/page.css?accent=0;}body{x' });
    assert.match(hostile.body, /--accent:#0b57d0/);
  });

  test('the page opened from another network names the tenant in Japanese', async () => {
    await brand();
    const { path } = await newSession(t);
    const res = await t.api.app.inject({
      method: 'GET',
      url: path,
      remoteAddress: '198.51.100.9',
      headers: { 'accept-language': 'ja' },
    });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /みらい銀行 で新しいリンクを発行してもらってください/);
  });

  test('the flow page of an expired session is the styled expired page', async () => {
    const { path } = await newSession(t);
    const cookie = cookieOf(await t.api.app.inject({ method: 'GET', url: path }));
    await t.platform.database.db
      .updateTable('verification_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('flow_cookie_hash', 'is not', null)
      .execute();
    const page = await t.api.app.inject({
      method: 'GET',
      url: '/verify/flow',
      headers: { cookie: `mimoto_flow=${cookie}`, 'accept-language': 'en' },
    });
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link has expired/);
    const none = await t.api.app.inject({ method: 'GET', url: '/verify/flow' });
    assert.equal(none.statusCode, 401);
    assert.match(none.body, /本人確認のリンクからのみ開けます/);
  });

  test('a browser that names neither Japanese nor English gets English; no header gets Japanese', async () => {
    const a = await FlowClient.enter(t);
    assert.equal((await a.state({ 'accept-language': 'fr-FR,fr;q=0.9' })).json().language, 'en');
    assert.equal((await a.state({ 'accept-language': 'fr, ja;q=0.5' })).json().language, 'ja');
    assert.equal((await a.state()).json().language, 'ja');
  });
});
