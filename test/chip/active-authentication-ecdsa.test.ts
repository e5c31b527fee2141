// ECDSA Active Authentication (ICAO 9303 Part 11 §6.1, Part 10 DG14): the chip's answer is a plain
// r‖s signature (BSI TR-03111) over the nonce, with the hash DG14's ActiveAuthenticationInfo names.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { tlv } from '../../packages/chip/src/index.ts';
import { integer, oid, sequence, setOf } from '../../src/chip/der.ts';
import { verifyActiveAuthentication } from '../../src/chip/index.ts';
import { dg15 } from '../helpers/chip/test-document.ts';

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** DG14 with ActiveAuthenticationInfo { id-icao-mrtd-security-aaProtocolObject, 1, ecdsa-with-SHA256 }. */
const dg14 = tlv(0x6e, setOf(sequence(oid('2.23.136.1.1.5'), integer(1), oid('1.2.840.10045.4.3.2'))));
const answer = (nonce: Buffer, k = key.privateKey) =>
  sign('sha256', nonce, { key: k, dsaEncoding: 'ieee-p1363' });

describe('ECDSA Active Authentication', () => {
  it('verifies an answer over the nonce with the hash DG14 names', () => {
    const nonce = randomBytes(8);
    assert.deepEqual(
      verifyActiveAuthentication({ dg15: dg15(key.publicKey), dg14, nonce, signature: answer(nonce) }),
      {
        valid: true,
        algorithm: 'ecdsa',
      },
    );
  });

  it('fails a clone (another key), a replay (another nonce), and says unsupported without DG14', () => {
    const nonce = randomBytes(8);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const base = { dg15: dg15(key.publicKey), dg14, nonce };
    assert.equal(
      verifyActiveAuthentication({ ...base, signature: answer(nonce, other) }).failure,
      'chip_clone_suspected',
    );
    assert.equal(
      verifyActiveAuthentication({ ...base, signature: answer(randomBytes(8)) }).failure,
      'chip_clone_suspected',
    );
    assert.equal(verifyActiveAuthentication({ ...base, signature: randomBytes(3) }).valid, false);
    const { dg14: _, ...noDg14 } = base;
    assert.equal(
      verifyActiveAuthentication({ ...noDg14, signature: answer(nonce) }).failure,
      'chip_active_authentication_unsupported',
    );
  });
});
