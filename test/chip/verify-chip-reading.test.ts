// The service's conclusion on a whole reading, as a session will use it: a genuine chip read by
// the reader package from the software card is verified; each way of being wrong is refused with
// its reason code; an unusable reading is rejected outright.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { readEmrtd } from '../../packages/chip/src/index.ts';
import { type ChipReading, ChipReadingRejected, verifyChipReading } from '../../src/chip/index.ts';
import { SoftwareCard } from '../helpers/chip/software-card.ts';
import { buildTestDocument, dg15, type TestDocument } from '../helpers/chip/test-document.ts';
import { createCsca, createDocumentSigner, type TestAuthority } from '../helpers/chip/test-pki.ts';

let csca: TestAuthority;
let ds: TestAuthority;
let genuine: TestDocument;

before(async () => {
  csca = createCsca();
  ds = createDocumentSigner(csca);
  genuine = await buildTestDocument({ csca, documentSigner: ds });
});

/** The session's nonce, the card read with it, what the reader client would hand over. */
async function session(card: SoftwareCard, doc: TestDocument) {
  const nonce = randomBytes(8);
  const r = await readEmrtd(card, { access: doc.access, activeAuthenticationNonce: nonce });
  const reading: ChipReading = {
    sod: r.sod,
    dataGroups: r.dataGroups,
    ...(r.activeAuthentication ? { activeAuthenticationSignature: r.activeAuthentication.signature } : {}),
  };
  return { nonce, reading };
}
const verify = (reading: ChipReading, nonce: Buffer | null, anchors = [csca.certificate]) =>
  verifyChipReading(reading, { trustAnchors: anchors, nonce, now: new Date() });

describe('verifyChipReading', () => {
  it('a genuine chip: verified, with what was checked and revocation not checked', async () => {
    const { nonce, reading } = await session(new SoftwareCard(genuine), genuine);
    const v = verify(reading, nonce);
    assert.equal(v.verified, true);
    assert.deepEqual(v.reasons, []);
    assert.deepEqual(v.checks, {
      signature: true,
      chain: true,
      dataGroups: { '1': true, '2': true, '15': true },
      antiClone: 'active_authentication',
      revocation: 'not_checked',
    });
    assert.equal(v.mrz?.documentNumber, 'TK1234567');
    assert.equal(v.face?.format, 'jpeg');
  });

  it('refuses each forgery with its reason', async () => {
    const tampered = await buildTestDocument({ csca, documentSigner: ds, tamperDataGroup1: true });
    const wrongSigner = await buildTestDocument({ csca, documentSigner: ds, wrongSigner: true });
    const cases: [string, SoftwareCard, TestDocument, TestAuthority[], string][] = [
      ['tampered DG1', new SoftwareCard(tampered), tampered, [csca], 'chip_data_group_hash_mismatch'],
      ['wrong signer', new SoftwareCard(wrongSigner), wrongSigner, [csca], 'chip_signature_invalid'],
      [
        'untrusted CSCA',
        new SoftwareCard(genuine),
        genuine,
        [createCsca('Elsewhere CSCA (test)')],
        'chip_chain_untrusted',
      ],
      ['cloned chip', SoftwareCard.clone(genuine), genuine, [csca], 'chip_clone_suspected'],
    ];
    for (const [name, card, doc, anchors, reason] of cases) {
      const { nonce, reading } = await session(card, doc);
      const v = verify(
        reading,
        nonce,
        anchors.map((a) => a.certificate),
      );
      assert.equal(v.verified, false, name);
      assert.deepEqual(v.reasons, [reason], name);
    }
  });

  it('a replayed answer (recorded for another nonce) and a missing answer are clone suspicions', async () => {
    const { reading } = await session(new SoftwareCard(genuine), genuine);
    assert.deepEqual(verify(reading, randomBytes(8)).reasons, ['chip_clone_suspected']);
    const { activeAuthenticationSignature: _, ...silent } = reading;
    assert.deepEqual(verify(silent, randomBytes(8)).reasons, ['chip_clone_suspected']);
  });

  it('a DG15 replaced by a key of the forger (and answered with it) fails its hash, and AA is not counted', async () => {
    const forger = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const forged: TestDocument = {
      ...genuine,
      dataGroups: { ...genuine.dataGroups, 15: dg15(forger.publicKey) },
      activeAuthenticationKey: forger.privateKey,
    };
    const { nonce, reading } = await session(new SoftwareCard(forged), forged);
    const v = verify(reading, nonce);
    assert.equal(v.checks.dataGroups['15'], false);
    assert.notEqual(v.checks.antiClone, 'active_authentication');
    assert.ok(v.reasons.includes('chip_data_group_hash_mismatch'));
  });

  it('without a session nonce anti-clone is not available, never assumed', async () => {
    const { reading } = await session(new SoftwareCard(genuine), genuine);
    const v = verify(reading, null);
    assert.equal(v.checks.antiClone, 'not_available');
    assert.deepEqual(v.reasons, ['chip_anti_clone_unavailable']);
  });

  it('rejects an oversized data group, a missing DG1 and a hostile SOD before verifying anything', async () => {
    const { nonce, reading } = await session(new SoftwareCard(genuine), genuine);
    const huge = { ...reading, dataGroups: { ...reading.dataGroups, 2: Buffer.alloc(600 * 1024) } };
    assert.throws(
      () => verify(huge, nonce),
      (e: unknown) => e instanceof ChipReadingRejected && e.field === 'dataGroups.2',
    );
    const { 1: _, ...noDg1 } = reading.dataGroups;
    assert.throws(
      () => verify({ ...reading, dataGroups: noDg1 }, nonce),
      (e: unknown) => e instanceof ChipReadingRejected && e.field === 'dataGroups.1',
    );
    assert.throws(
      () => verify({ ...reading, sod: randomBytes(500) }, nonce),
      (e: unknown) => e instanceof ChipReadingRejected && e.field === 'sod',
    );
  });
});
