// The chip reader's endpoints (src/hosted-flow/chip-reader.ts) against malformed, oversized,
// missing and hostile input: each refused with the contract's error body and its reason, nothing
// stored half-way (no reading row, the flow's chip step still undone), the nonce single use so a
// recorded answer cannot be handed in again; and the hand-off's own guards (consent, CSRF, a
// session that does not offer the chip, a used or unknown code).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadChipReading } from '../../src/hosted-flow/index.ts';
import { eraseSessionData } from '../../src/session-api/erase-session-data.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { ChipReaderClient, type ReaderHandoff, type ReadingBody } from '../helpers/chip/reader-client.ts';
import { SoftwareCard } from '../helpers/chip/software-card.ts';
import { buildTestDocument, type TestDocument } from '../helpers/chip/test-document.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

let doc: TestDocument;
before(async () => {
  doc = await buildTestDocument();
});

describe('chip reader endpoints', () => {
  const t = useTestApi({ env: dataDirEnv() });

  async function chipFlow(methods: string[] = ['ic_chip']) {
    const flow = await FlowClient.enter(t, { verificationMethods: methods });
    assert.equal((await flow.send('POST', '/verify/api/consent')).statusCode, 204);
    const res = await flow.send('POST', '/verify/api/chip/reader');
    assert.equal(res.statusCode, 201, res.body);
    const reader = new ChipReaderClient(t.api.app, (res.json() as ReaderHandoff).url);
    return { flow, reader };
  }

  const readingRows = async (sessionId: string) =>
    (
      await t.platform.database.db
        .selectFrom('chip_readings')
        .select('session_id')
        .where('session_id', '=', sessionId)
        .execute()
    ).length;

  /** The contract's error body: an error code, a message, and the path of what was wrong. */
  function refused(res: { statusCode: number; json(): unknown }, status: number, error: string) {
    assert.equal(res.statusCode, status, JSON.stringify(res.json()));
    const body = res.json() as { error: string; message: string; details?: { path: string }[] };
    assert.equal(body.error, error);
    assert.equal(typeof body.message, 'string');
    return body;
  }

  it('the hand-off needs consent, the CSRF token, and a session that offers the chip', async () => {
    const early = await FlowClient.enter(t, { verificationMethods: ['ic_chip'] });
    refused(await early.send('POST', '/verify/api/chip/reader'), 409, 'FlowStepOutOfOrder');
    await early.send('POST', '/verify/api/consent');
    refused(
      await early.send('POST', '/verify/api/chip/reader', undefined, { 'x-csrf-token': 'forged' }),
      403,
      'CsrfTokenInvalid',
    );
    const imageOnly = await FlowClient.enter(t);
    await imageOnly.send('POST', '/verify/api/consent');
    assert.deepEqual((await imageOnly.state()).json().verificationMethods, ['image']);
    assert.equal((await imageOnly.state()).json().steps.chip, null);
    refused(await imageOnly.send('POST', '/verify/api/chip/reader'), 409, 'VerificationMethodNotOffered');
  });

  it('an unknown, malformed or over-long code is refused the same way, and gives no nonce', async () => {
    for (const code of ['A'.repeat(32), 'not a code', '%00', 'x'.repeat(65)]) {
      const reader = new ChipReaderClient(
        t.api.app,
        `http://127.0.0.1:8080/verify/chip/${encodeURIComponent(code)}`,
      );
      const described = await reader.describe();
      assert.ok([400, 410].includes(described.statusCode), `${code}: ${described.statusCode}`);
      const nonce = await t.api.app.inject({
        method: 'POST',
        url: `/verify/chip/${encodeURIComponent(code)}/nonce`,
      });
      assert.ok([400, 410].includes(nonce.statusCode), `${code}: ${nonce.statusCode}`);
    }
  });

  it('a genuine reading is accepted once; its code is then spent', async () => {
    const { flow, reader } = await chipFlow();
    const { body, response } = await reader.readAndSend(new SoftwareCard(doc), doc.access);
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.json(), {
      accepted: true,
      dataGroups: [1, 2, 15],
      activeAuthenticationAnswered: true,
    });
    const state = (await flow.state()).json();
    assert.equal(state.steps.chip, true);
    // The chip's MRZ suggests the form's values, as the passport prints them.
    assert.deepEqual(state.documentReading, {
      lastName: 'YAMADA',
      firstName: 'HANAKO',
      birthDate: '1990-01-15',
    });
    refused(await reader.send(body), 410, 'ChipReaderLinkInvalid');
    await assert.rejects(reader.nonce(), /410/);
    // Erasure (redact, retention) removes the reading: it holds the MRZ and the face.
    await eraseSessionData(t.platform.database.db, [flow.sessionId], t.platform.now());
    assert.equal(await loadChipReading(t.platform, flow.sessionId), null);
    assert.equal((await flow.state()).json().steps.chip, false);
  });

  it('a replayed answer is refused: the nonce it answered is single use', async () => {
    const { flow, reader } = await chipFlow();
    const nonce = await reader.nonce();
    const body = await reader.read(new SoftwareCard(doc), doc.access, nonce);
    // A hostile first attempt spends the nonce too: the same answer cannot follow it.
    refused(
      await reader.send({ ...body, sod: Buffer.from('hostile').toString('base64') }),
      422,
      'ChipReadingRejected',
    );
    refused(await reader.send(body), 409, 'ChipNonceInvalid');
    // A nonce the service never issued, and an expired one.
    refused(await reader.send({ ...body, nonce: '0011223344556677' }), 409, 'ChipNonceInvalid');
    const late = await reader.nonce();
    t.platform.advance(3 * 60_000);
    refused(await reader.send({ ...body, nonce: late }), 409, 'ChipNonceInvalid');
    t.platform.advance(-3 * 60_000);
    assert.equal(await readingRows(flow.sessionId), 0, 'nothing stored');
    assert.equal((await flow.state()).json().steps.chip, false);
  });

  it('malformed, missing and oversized fields are refused before anything is stored', async () => {
    const { flow, reader } = await chipFlow();
    const good = await reader.read(new SoftwareCard(doc), doc.access, await reader.nonce());
    const { 2: _dg2, ...withoutFace } = good.dataGroups;
    const cases: [string, unknown, number, string][] = [
      ['not JSON', '{"nonce":', 400, 'BadRequest'],
      ['not an object', '[]', 400, 'ValidationFailed'],
      ['no SOD', { ...good, sod: undefined }, 400, 'ValidationFailed'],
      ['no DG1', { ...good, dataGroups: { ...good.dataGroups, 1: undefined } }, 400, 'ValidationFailed'],
      ['no face (DG2)', { ...good, dataGroups: withoutFace }, 400, 'ValidationFailed'],
      [
        'an unknown data group',
        { ...good, dataGroups: { ...good.dataGroups, 3: good.dataGroups[1] } },
        400,
        'ValidationFailed',
      ],
      ['an unknown field', { ...good, extra: 1 }, 400, 'ValidationFailed'],
      ['a nonce that is not 8 hex bytes', { ...good, nonce: 'zz' }, 400, 'ValidationFailed'],
      ['base64 with junk', { ...good, sod: `${good.sod.slice(0, 8)}!!!!` }, 400, 'ValidationFailed'],
      ['base64 padded in the middle', { ...good, sod: `QQ==${good.sod}` }, 400, 'ValidationFailed'],
      [
        'a DG1 over its limit',
        { ...good, dataGroups: { ...good.dataGroups, 1: Buffer.alloc(2048).toString('base64') } },
        400,
        'ValidationFailed',
      ],
      ['a body over the limit', { ...good, sod: 'A'.repeat(2_000_000) }, 413, 'PayloadTooLarge'],
    ];
    for (const [name, body, status, error] of cases) {
      const res = await reader.send(typeof body === 'string' ? body : JSON.stringify(body));
      assert.equal(res.statusCode, status, `${name}: ${res.body}`);
      assert.equal((res.json() as { error: string }).error, error, name);
    }
    // None of them spent the nonce (they were refused before it was looked at): the good reading goes in.
    assert.equal(await readingRows(flow.sessionId), 0);
    assert.equal((await reader.send(good)).statusCode, 201);
  });

  it('a hostile SOD is refused with its reason and the field it is in; nothing is stored', async () => {
    const { flow, reader } = await chipFlow();
    const card = () => new SoftwareCard(doc);
    const sods: [string, (sod: Buffer) => Buffer][] = [
      ['truncated', (sod) => sod.subarray(0, sod.length >> 1)],
      ['not tag 77', (sod) => Buffer.concat([Buffer.from([0x30]), sod.subarray(1)])],
      [
        'a length past its end',
        (sod) => Buffer.concat([Buffer.from([0x77, 0x84, 0x7f, 0xff, 0xff, 0xff]), sod.subarray(4)]),
      ],
      ['random bytes', () => Buffer.from('e1d2c3b4a5968778', 'hex')],
    ];
    for (const [name, mangle] of sods) {
      const body: ReadingBody = await reader.read(card(), doc.access, await reader.nonce());
      const sod = mangle(Buffer.from(body.sod, 'base64')).toString('base64');
      const res = await reader.send({ ...body, sod });
      const error = refused(res, 422, 'ChipReadingRejected');
      assert.equal(error.details?.[0]?.path, '/sod', name);
    }
    assert.equal(await readingRows(flow.sessionId), 0);
    assert.equal((await flow.state()).json().steps.chip, false);
  });

  it('damaged files (a fixed sequence of byte changes) are refused or accepted, never a 5xx', async () => {
    const { flow } = await chipFlow();
    const good = await new ChipReaderClient(t.api.app, 'http://x/').read(
      new SoftwareCard(doc),
      doc.access,
      '0011223344556677',
    );
    let seed = 44;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const field = (['sod', '1', '15', '2'] as const)[i % 4] as 'sod' | '1' | '15' | '2';
      const original = Buffer.from(field === 'sod' ? good.sod : (good.dataGroups[field] as string), 'base64');
      const damaged = Buffer.from(original);
      for (let k = 0; k < 1 + (next() % 4); k++) damaged[next() % damaged.length] = next() % 256;
      const cut = next() % 5 === 0 ? damaged.subarray(0, next() % damaged.length) : damaged;
      const text = cut.length > 0 ? cut.toString('base64') : 'AAAA';
      // Each attempt through a reader hand-off of its own: an accepted reading spends its code.
      const handoff = await flow.send('POST', '/verify/api/chip/reader');
      const reader = new ChipReaderClient(t.api.app, (handoff.json() as ReaderHandoff).url);
      const nonce = await reader.nonce();
      const body =
        field === 'sod'
          ? { ...good, nonce, sod: text }
          : { ...good, nonce, dataGroups: { ...good.dataGroups, [field]: text } };
      const res = await reader.send(body);
      assert.ok(res.statusCode < 500, `attempt ${i} (${field}): ${res.statusCode} ${res.body}`);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    // Both outcomes occur: some damage leaves a reading to judge (the pipeline then refuses its
    // hashes or signature), some leaves nothing to verify.
    assert.ok(statuses.has(201) && statuses.has(422), JSON.stringify([...statuses]));
  });

  it('a chip-only session cannot be submitted without a reading', async () => {
    const { flow } = await chipFlow();
    const res = await flow.send('POST', '/verify/api/submit');
    const body = refused(res, 409, 'FlowStepOutOfOrder');
    assert.ok(
      body.details?.some((d) => d.path === '/steps/chip'),
      JSON.stringify(body.details),
    );
  });
});
