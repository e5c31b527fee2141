// settings.requiredUserInputFields (docs/console-api.md "Settings") in the hosted flow: the
// personal data step requires exactly the tenant's fields; the others may be left out, but what
// is given is checked as before. Unset, all six are required.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { updateTenantSettings } from '../../src/tenants/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const FULL = {
  lastName: '山田',
  firstName: '太郎',
  lastNameKana: 'やまだ',
  firstNameKana: 'たろう',
  birthDate: '1990-04-01',
  address: '東京都千代田区1-1',
};

async function consented(t: Parameters<typeof FlowClient.enter>[0]) {
  const a = await FlowClient.enter(t);
  assert.equal((await a.send('POST', '/verify/api/consent')).statusCode, 204);
  return a;
}

/** Refused with ValidationFailed naming `paths`, and the session still has no personal data. */
async function assertRefused(a: FlowClient, body: Record<string, string>, paths: string[]) {
  const res = await a.send('PUT', '/verify/api/personal-data', body);
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().error, 'ValidationFailed');
  assert.deepEqual(
    res.json().details.map((d: { path: string }) => d.path),
    paths,
  );
  const state = (await a.state()).json();
  assert.equal(state.steps.personalData, false);
  assert.equal(state.personalData, null);
}

describe('a tenant requiring only lastName, firstName and birthDate', () => {
  const t = useTestApi({ env: dataDirEnv() });
  before(async () => {
    await updateTenantSettings(t.platform.database.db, t.tenant.tenantId, {
      requiredUserInputFields: ['birthDate', 'firstName', 'lastName'],
    });
  });

  test('the flow state tells the browser which fields are required, in form order', async () => {
    const a = await consented(t);
    const state = (await a.state()).json();
    assert.deepEqual(state.requiredUserInputFields, ['lastName', 'firstName', 'birthDate']);
  });

  test('without address and kana → accepted, stored without them, and the flow can go on', async () => {
    const a = await consented(t);
    const res = await a.send('PUT', '/verify/api/personal-data', {
      lastName: ' 山田 ',
      firstName: '太郎',
      birthDate: '1990-04-01',
    });
    assert.equal(res.statusCode, 200, res.body);
    const expected = { lastName: '山田', firstName: '太郎', birthDate: '1990-04-01' };
    assert.deepEqual(res.json(), expected);
    const state = (await a.state()).json();
    assert.equal(state.steps.personalData, true);
    assert.deepEqual(state.personalData, expected);
    // Submitting now misses only the document and liveness, not the personal data.
    const submit = await a.send('POST', '/verify/api/submit');
    assert.equal(submit.statusCode, 409);
    assert.ok(!submit.json().details.some((d: { path: string }) => d.path === '/steps/personalData'));
  });

  test('optional fields sent empty (as the browser form does) are left out', async () => {
    const a = await consented(t);
    const res = await a.send('PUT', '/verify/api/personal-data', {
      ...FULL,
      lastNameKana: '',
      firstNameKana: '   ',
      address: '',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await a.state()).json().personalData, {
      lastName: '山田',
      firstName: '太郎',
      birthDate: '1990-04-01',
    });
  });

  test('optional fields given are normalised and stored', async () => {
    const a = await consented(t);
    const res = await a.send('PUT', '/verify/api/personal-data', { ...FULL, firstNameKana: 'ﾀﾛｳ' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await a.state()).json().personalData, {
      ...FULL,
      lastNameKana: 'ヤマダ',
      firstNameKana: 'タロウ',
    });
  });

  test('a required field missing, empty or blank → ValidationFailed, nothing stored', async () => {
    const a = await consented(t);
    const { firstName: _, ...withoutFirstName } = FULL;
    await assertRefused(a, withoutFirstName, ['/firstName']);
    await assertRefused(a, { ...FULL, lastName: ' \u3000 ' }, ['/lastName']);
    await assertRefused(a, { ...FULL, birthDate: '' }, ['/birthDate']);
  });

  test('an optional field given but invalid is still refused, nothing stored', async () => {
    const a = await consented(t);
    await assertRefused(
      a,
      { lastName: '山田', firstName: '太郎', birthDate: '1990-04-01', lastNameKana: '山田' },
      ['/lastNameKana'],
    );
    await assertRefused(a, { ...FULL, firstNameKana: 'taro' }, ['/firstNameKana']);
    // A control character is refused by the schema whether the field is required or not.
    const res = await a.send('PUT', '/verify/api/personal-data', { ...FULL, address: 'a\u0000b' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'ValidationFailed');
    assert.equal((await a.state()).json().personalData, null);
  });

  test('a required birth date that is not a real date is refused', async () => {
    const a = await consented(t);
    await assertRefused(a, { ...FULL, birthDate: '1990-02-30' }, ['/birthDate']);
  });
});

describe('a tenant requiring nothing', () => {
  const t = useTestApi({ env: dataDirEnv() });
  before(async () => {
    await updateTenantSettings(t.platform.database.db, t.tenant.tenantId, { requiredUserInputFields: [] });
  });

  test('an empty form is accepted; a bad birth date given is still refused', async () => {
    const a = await consented(t);
    assert.deepEqual((await a.state()).json().requiredUserInputFields, []);
    await assertRefused(a, { birthDate: '2999-01-01' }, ['/birthDate']);
    const res = await a.send('PUT', '/verify/api/personal-data', {});
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    assert.equal((await a.state()).json().steps.personalData, true);
  });
});

describe('a tenant that never set requiredUserInputFields', () => {
  const t = useTestApi({ env: dataDirEnv() });

  test('all six fields are required, and the full form is accepted', async () => {
    const a = await consented(t);
    assert.deepEqual((await a.state()).json().requiredUserInputFields, [
      'lastName',
      'firstName',
      'lastNameKana',
      'firstNameKana',
      'birthDate',
      'address',
    ]);
    await assertRefused(a, { lastName: '山田', firstName: '太郎', birthDate: '1990-04-01' }, [
      '/lastNameKana',
      '/firstNameKana',
      '/address',
    ]);
    await assertRefused(a, { ...FULL, address: '' }, ['/address']);
    const res = await a.send('PUT', '/verify/api/personal-data', FULL);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...FULL, lastNameKana: 'ヤマダ', firstNameKana: 'タロウ' });
  });
});
