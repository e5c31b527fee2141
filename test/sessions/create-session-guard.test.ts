// create-session takes a key it has seen, and its tenant's callback prefixes, from memory, and lets
// its one INSERT check both. Here the rows change behind the process's back — by plain SQL, as
// another process (the CLI, the console on another machine) would change them — and the next
// request must still see the change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALLBACK_PREFIX, useTestApi } from '../helpers/api-client.ts';

const UNAUTHORIZED = { error: 'Unauthorized', message: 'Invalid or missing API key' };

describe('create-session sees key and prefix changes made elsewhere on the next request', () => {
  const t = useTestApi({ prefixes: [CALLBACK_PREFIX, 'https://second.example/hooks'] });
  const sessions = async () =>
    (
      await t.platform.database.db
        .selectFrom('verification_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const setPrefixes = (prefixes: string[]) =>
    t.platform.database.db
      .updateTable('tenants')
      .set({ callback_url_prefixes: prefixes })
      .where('id', '=', t.tenant.tenantId)
      .execute();

  it('a prefix withdrawn elsewhere is refused (422) and one added elsewhere is accepted', async () => {
    assert.equal(
      (await t.api.createSession({ callbackUrl: 'https://second.example/hooks/a' })).statusCode,
      201,
    );
    await setPrefixes([CALLBACK_PREFIX]);
    const before = Number(await sessions());
    const refused = await t.api.createSession({ callbackUrl: 'https://second.example/hooks/a' });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error, 'CallbackUrlNotAllowed');
    assert.equal(Number(await sessions()), before, 'nothing written');

    await setPrefixes([CALLBACK_PREFIX, 'https://third.example/']);
    assert.equal((await t.api.createSession({ callbackUrl: 'https://third.example/x' })).statusCode, 201);
  });

  it('a key disabled by another process is refused on the next request, and nothing is written', async () => {
    assert.equal((await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).statusCode, 201);
    await t.platform.database.db
      .updateTable('api_keys')
      .set({ disabled_at: new Date() })
      .where('id', '=', t.tenant.keyId)
      .execute();
    const before = Number(await sessions());
    const res = await t.api.createSession({ callbackUrl: CALLBACK_PREFIX });
    assert.equal(res.statusCode, 401, res.body);
    assert.deepEqual(res.json(), UNAUTHORIZED);
    assert.equal(Number(await sessions()), before, 'nothing written');
    // Any other refusal of the request comes after the key's: an invalid body, a URL off the list.
    for (const body of [{ callbackUrl: 42 }, { callbackUrl: 'https://elsewhere.example/x' }, {}]) {
      const refused = await t.api.createSession(body);
      assert.equal(refused.statusCode, 401, `${JSON.stringify(body)}: ${refused.body}`);
    }
    // The other routes, and create-session again, keep refusing it.
    assert.equal((await t.api.getSession('vs_00000000000000000000000000')).statusCode, 401);
    assert.equal((await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).statusCode, 401);
    await t.platform.database.db
      .updateTable('api_keys')
      .set({ disabled_at: null })
      .where('id', '=', t.tenant.keyId)
      .execute();
    assert.equal((await t.api.createSession({ callbackUrl: CALLBACK_PREFIX })).statusCode, 201);
  });
});
