// A lone UTF-16 surrogate (`\ud800` in the JSON text: valid JSON, not a Unicode string) is refused
// with 400 by the JSON parser, before any route sees it: on the tenant API (create-session's
// state, reprocess's reason) and in the console (a tenant's display name). PostgreSQL's jsonb and
// text columns cannot hold one, so it would otherwise answer 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonBody } from '../../src/platform/http/parse-json-body.ts';
import { useConsoleWorld } from '../console/console-helpers.ts';
import { CALLBACK_PREFIX, countWrites, useTestApi } from '../helpers/api-client.ts';

const LONE = ['\ud800', '\udfff', 'a\ud83dz', 'end\udc00'];

describe('ill-formed Unicode in JSON bodies → 400', () => {
  const t = useTestApi();

  it('the parser refuses lone surrogates in values and keys, and keeps pairs and other text', () => {
    for (const text of LONE) {
      assert.throws(
        () => parseJsonBody(Buffer.from(JSON.stringify({ state: text }))),
        /not well-formed Unicode/,
      );
      assert.throws(
        () => parseJsonBody(Buffer.from(JSON.stringify({ [text]: 1 }))),
        /not well-formed Unicode/,
      );
      assert.throws(
        () => parseJsonBody(Buffer.from(JSON.stringify({ a: [{ b: [text] }] }))),
        /not well-formed/,
      );
    }
    assert.deepEqual(parseJsonBody(Buffer.from('{"s":"\\ud83d\\ude00 山田"}')), { s: '😀 山田' });
  });

  it('create-session: 400 BadRequest and nothing stored', async () => {
    for (const text of LONE) {
      const before = await countWrites(t.platform);
      const res = await t.api.createSession({ callbackUrl: CALLBACK_PREFIX, state: text });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, 'BadRequest');
      const named = await t.api.createSession({
        callbackUrl: CALLBACK_PREFIX,
        preRegisteredInfo: { lastName: `山田${text}` },
      });
      assert.equal(named.statusCode, 400, named.body);
      assert.deepEqual(await countWrites(t.platform), before);
    }
  });

  it("reprocess's reason: 400 BadRequest", async () => {
    const created = await t.api.createSession({ callbackUrl: CALLBACK_PREFIX });
    const res = await t.api.reprocess(created.json().sessionId, { checks: ['ocr'], reason: '\ud800' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'BadRequest');
  });
});

describe('ill-formed Unicode in the console → 400', () => {
  const world = useConsoleWorld();
  it("a tenant's display name with a lone surrogate is refused and not stored", async () => {
    const path = `/tenants/${world.tenantA.tenantId}/settings`;
    const current = (await world.client.request('GET', path, world.adminA)).json().settings;
    const res = await world.client.request('PUT', path, world.adminA, {
      settings: { ...current, displayName: 'みらい\ud800銀行' },
    });
    assert.equal(res.statusCode, 400, res.body);
    const after = (await world.client.request('GET', path, world.adminA)).json().settings;
    assert.deepEqual(after, current);
  });
});
