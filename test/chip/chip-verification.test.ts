// The reader package against the software card, and the service's verification of what it read:
// a genuine chip passes Passive and Active Authentication; an altered data group, a wrong signer,
// an untrusted CSCA, a clone and a replayed answer each fail on their own count.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { CardStatusError, LdsFileError, readEmrtd } from '../../packages/chip/src/index.ts';
import {
  parseDg1,
  parseDg2,
  SodFormatError,
  verifyActiveAuthentication,
  verifyPassiveAuthentication,
} from '../../src/chip/index.ts';
import { SoftwareCard } from '../helpers/chip/software-card.ts';
import { buildTestDocument, plainFace, type TestDocument } from '../helpers/chip/test-document.ts';
import { createCsca, createDocumentSigner, type TestAuthority } from '../helpers/chip/test-pki.ts';

let csca: TestAuthority;
let ds: TestAuthority;
let genuine: TestDocument;

before(async () => {
  csca = createCsca();
  ds = createDocumentSigner(csca);
  genuine = await buildTestDocument({ csca, documentSigner: ds });
});

const now = () => new Date();
const read = (card: SoftwareCard, doc: TestDocument, nonce = randomBytes(8)) =>
  readEmrtd(card, { access: doc.access, activeAuthenticationNonce: nonce });

describe('reading a chip with BAC and secure messaging', () => {
  it('reads EF.COM, DG1, DG2, DG15 and EF.SOD byte for byte, and answers INTERNAL AUTHENTICATE', async () => {
    const card = new SoftwareCard(genuine);
    const reading = await read(card, genuine);
    assert.deepEqual(reading.com, genuine.com);
    assert.deepEqual(reading.sod, genuine.sod);
    assert.deepEqual(Object.keys(reading.dataGroups), ['1', '2', '15']);
    for (const n of [1, 2, 15]) assert.deepEqual(reading.dataGroups[n], genuine.dataGroups[n]);
    assert.equal(reading.activeAuthentication?.signature.length, 128);
    // Everything after GET CHALLENGE and EXTERNAL AUTHENTICATE went under secure messaging.
    const afterBac = card.log.slice(3);
    assert.ok(afterBac.length > 5);
    assert.ok(afterBac.every((apdu) => ((apdu[0] as number) & 0x0c) === 0x0c));
  });

  it('fails BAC with a wrong birth date (the MRZ key), reading nothing', async () => {
    const card = new SoftwareCard(genuine);
    await assert.rejects(
      readEmrtd(card, { access: { ...genuine.access, birthDate: '900116' } }),
      (e: unknown) => e instanceof CardStatusError && e.sw === 0x6300,
    );
  });

  it('refuses a file larger than the limit it is given', async () => {
    await assert.rejects(
      readEmrtd(new SoftwareCard(genuine), { access: genuine.access, maxFileBytes: 200 }),
      LdsFileError,
    );
  });
});

describe('Passive Authentication', () => {
  it('a genuine chip: signature, chain and every data group hash hold', async () => {
    const reading = await read(new SoftwareCard(genuine), genuine);
    const pa = verifyPassiveAuthentication({
      sod: reading.sod,
      dataGroups: reading.dataGroups,
      trustAnchors: [csca.certificate],
      now: now(),
    });
    assert.equal(pa.valid, true);
    assert.equal(pa.signatureValid, true);
    assert.equal(pa.chainValid, true);
    assert.deepEqual(pa.dataGroups, { '1': true, '2': true, '15': true });
    assert.deepEqual(pa.failures, []);
    assert.match(pa.documentSigner?.subject ?? '', /Document Signer/);
  });

  it('a data group altered after signing fails its hash, the signature still holds', async () => {
    const doc = await buildTestDocument({ csca, documentSigner: ds, tamperDataGroup1: true });
    const reading = await read(new SoftwareCard(doc), doc);
    const pa = verifyPassiveAuthentication({
      sod: reading.sod,
      dataGroups: reading.dataGroups,
      trustAnchors: [csca.certificate],
      now: now(),
    });
    assert.equal(pa.valid, false);
    assert.equal(pa.signatureValid, true);
    assert.deepEqual(pa.dataGroups, { '1': false, '2': true, '15': true });
    assert.deepEqual(pa.failures, ['chip_data_group_hash_mismatch']);
  });

  it('an SOD signed by another key than its DS certificate fails the signature', async () => {
    const doc = await buildTestDocument({ csca, documentSigner: ds, wrongSigner: true });
    const pa = verifyPassiveAuthentication({
      sod: doc.sod,
      dataGroups: doc.dataGroups,
      trustAnchors: [csca.certificate],
      now: now(),
    });
    assert.equal(pa.signatureValid, false);
    assert.equal(pa.chainValid, true);
    assert.deepEqual(pa.failures, ['chip_signature_invalid']);
  });

  it('a DS issued by a CSCA the operator does not trust fails the chain', async () => {
    const other = createCsca('Elsewhere CSCA (test)');
    const pa = verifyPassiveAuthentication({
      sod: genuine.sod,
      dataGroups: genuine.dataGroups,
      trustAnchors: [other.certificate],
      now: now(),
    });
    assert.equal(pa.chainValid, false);
    assert.equal(pa.signatureValid, true);
    assert.deepEqual(pa.failures, ['chip_chain_untrusted']);
    // A CSCA of the same name but another key: named as issuer, its signature does not verify.
    const impostor = createCsca('Utopia CSCA (test)');
    const again = verifyPassiveAuthentication({
      sod: genuine.sod,
      dataGroups: genuine.dataGroups,
      trustAnchors: [impostor.certificate],
      now: now(),
    });
    assert.equal(again.chainValid, false);
    assert.match(again.chainDetail ?? '', /does not verify/);
    const none = verifyPassiveAuthentication({
      sod: genuine.sod,
      dataGroups: genuine.dataGroups,
      trustAnchors: [],
      now: now(),
    });
    assert.equal(none.chainValid, false);
  });

  it('refuses truncated and hostile SODs with SodFormatError, never another exception', () => {
    const cases = [
      genuine.sod.subarray(0, genuine.sod.length - 10),
      genuine.sod.subarray(0, 3),
      Buffer.from([0x77, 0x84, 0xff, 0xff, 0xff, 0xff]),
      Buffer.from([0x77, 0x03, 0x30, 0x01, 0x00]),
      Buffer.concat([Buffer.from([0x30]), genuine.sod.subarray(1)]),
      randomBytes(300),
      Buffer.alloc(0),
    ];
    for (const sod of cases)
      assert.throws(
        () =>
          verifyPassiveAuthentication({
            sod,
            dataGroups: genuine.dataGroups,
            trustAnchors: [csca.certificate],
            now: now(),
          }),
        SodFormatError,
      );
  });

  it('survives every single-byte corruption of the SOD: a format error or an invalid result', () => {
    for (let i = 0; i < genuine.sod.length; i++) {
      const sod = Buffer.from(genuine.sod);
      sod[i] = (sod[i] as number) ^ 0x5a;
      try {
        const pa = verifyPassiveAuthentication({
          sod,
          dataGroups: genuine.dataGroups,
          trustAnchors: [csca.certificate],
          now: now(),
        });
        // Bytes outside the signed parts (the certificate's unsigned wrapper, say) may leave it valid.
        if (pa.valid) assert.equal(pa.signatureValid && pa.chainValid, true);
      } catch (error) {
        assert.ok(
          error instanceof SodFormatError || (error as Error).name === 'UnsupportedAlgorithmError',
          `offset ${i}: ${error}`,
        );
      }
    }
  });
});

describe('Active Authentication', () => {
  it("the genuine chip signs the service's nonce", async () => {
    const nonce = randomBytes(8);
    const reading = await read(new SoftwareCard(genuine), genuine, nonce);
    const aa = verifyActiveAuthentication({
      dg15: reading.dataGroups[15]!,
      nonce,
      signature: reading.activeAuthentication!.signature,
    });
    assert.deepEqual(aa, { valid: true, algorithm: 'rsa-iso9796-2' });
  });

  it('a clone — the same files, passing Passive Authentication — fails', async () => {
    const nonce = randomBytes(8);
    const reading = await read(SoftwareCard.clone(genuine), genuine, nonce);
    const pa = verifyPassiveAuthentication({
      sod: reading.sod,
      dataGroups: reading.dataGroups,
      trustAnchors: [csca.certificate],
      now: now(),
    });
    assert.equal(pa.valid, true);
    const aa = verifyActiveAuthentication({
      dg15: reading.dataGroups[15]!,
      nonce,
      signature: reading.activeAuthentication!.signature,
    });
    assert.equal(aa.valid, false);
    assert.equal(aa.failure, 'chip_clone_suspected');
  });

  it("a genuine answer replayed for another session's nonce fails", async () => {
    const recorded = await read(new SoftwareCard(genuine), genuine);
    const aa = verifyActiveAuthentication({
      dg15: genuine.dataGroups[15]!,
      nonce: randomBytes(8),
      signature: recorded.activeAuthentication!.signature,
    });
    assert.equal(aa.valid, false);
    assert.equal(aa.failure, 'chip_clone_suspected');
  });
});

describe('data groups', () => {
  it("DG1's MRZ parses with valid check digits; DG2 yields the JPEG", async () => {
    const mrz = parseDg1(genuine.dataGroups[1]!);
    assert.equal(mrz.format, 'TD3');
    assert.deepEqual(mrz.lines, genuine.mrzLines);
    assert.equal(mrz.valid, true);
    assert.equal(mrz.lastName, 'YAMADA');
    assert.equal(mrz.documentNumber, 'TK1234567');
    const face = parseDg2(genuine.dataGroups[2]!);
    assert.equal(face.format, 'jpeg');
    assert.deepEqual(face.image, await plainFace());
  });
});
