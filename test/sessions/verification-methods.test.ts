// create-session's verificationMethods (docs/ic-chip.md "Asking for the chip"; docs/api-reference.md):
// optional, validated (400 in the contract's error body, nothing written), stored, shown in the
// detail and to the hosted flow; absent, the tenant's default applies (image unless set).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findTenant, updateTenantSettings } from '../../src/tenants/index.ts';
import { CALLBACK_PREFIX, countWrites, useTestApi } from '../helpers/api-client.ts';
import { FlowClient } from '../hosted-flow/flow-helpers.ts';

describe('verificationMethods', () => {
  const t = useTestApi();

  const create = (verificationMethods: unknown) =>
    t.api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/m`, verificationMethods });

  for (const [label, value] of [
    ['an empty list', []],
    ['an unknown method', ['nfc']],
    ['a method twice', ['image', 'image']],
    ['three methods', ['image', 'ic_chip', 'image']],
    ['a string', 'ic_chip'],
    ['null', null],
    ['a number in the list', [1]],
    ['a method in another case', ['IC_CHIP']],
  ] as const) {
    it(`refuses ${label} with 400 ValidationFailed and writes nothing`, async () => {
      const before = await countWrites(t.platform);
      const res = await create(value);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json();
      assert.equal(body.error, 'ValidationFailed');
      assert.equal(typeof body.message, 'string');
      assert.deepEqual(await countWrites(t.platform), before);
    });
  }

  it('stores the methods asked for, shows them in the detail and the flow', async () => {
    for (const methods of [['ic_chip'], ['image', 'ic_chip'], ['image']]) {
      const res = await create(methods);
      assert.equal(res.statusCode, 201, res.body);
      const detail = (await t.api.getSession(res.json().sessionId)).json();
      assert.deepEqual(detail.verificationMethods, methods);
      assert.equal(detail.verificationMethod, undefined, 'none used before submission');
    }
    const flow = await FlowClient.enter(t, { verificationMethods: ['ic_chip'] });
    assert.deepEqual((await flow.state()).json().verificationMethods, ['ic_chip']);
  });

  it("absent, the tenant's default applies: image unless the tenant chose", async () => {
    const plain = (await t.api.createSession({ callbackUrl: `${CALLBACK_PREFIX}/d` })).json();
    assert.deepEqual((await t.api.getSession(plain.sessionId)).json().verificationMethods, ['image']);
    const db = t.platform.database.db;
    const tenant = await findTenant(db, t.tenant.tenantId);
    await updateTenantSettings(db, t.tenant.tenantId, {
      ...tenant!.settings,
      verificationMethods: ['ic_chip'],
    });
    assert.deepEqual((await t.api.getSession(plain.sessionId)).json().verificationMethods, ['ic_chip']);
    // A session that named its methods keeps them.
    const named = (await create(['image'])).json();
    assert.deepEqual((await t.api.getSession(named.sessionId)).json().verificationMethods, ['image']);
    // A stored default that is not a list of known methods counts as unset.
    await updateTenantSettings(db, t.tenant.tenantId, { ...tenant!.settings, verificationMethods: ['fax'] });
    assert.deepEqual((await t.api.getSession(plain.sessionId)).json().verificationMethods, ['image']);
    await updateTenantSettings(db, t.tenant.tenantId, tenant!.settings);
  });
});
