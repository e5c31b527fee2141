// Active Authentication, ICAO 9303 Part 11 §6.1: the chip signs a challenge with a private key
// that cannot be read out of it; its public key is in DG15, whose hash the SOD signs. A copy of
// the files on another chip (a clone) cannot answer, and since the challenge is a nonce the
// service issued for this session, an answer recorded from an earlier reading does not verify.
// RSA answers follow ISO/IEC 9796-2 digital signature scheme 1 (message recovery; partial, the
// nonce being M2); ECDSA answers are plain r‖s (BSI TR-03111) with the hash DG14's
// ActiveAuthenticationInfo names.
import { constants, createHash, createPublicKey, type KeyObject, publicDecrypt, verify } from 'node:crypto';
import { ECDSA, type HashName, OID } from './algorithms.ts';
import { children, type DerNode, decodeOid, parseDer } from './der.ts';

export type ActiveAuthenticationFailure = 'chip_clone_suspected' | 'chip_active_authentication_unsupported';

export interface ActiveAuthenticationResult {
  valid: boolean;
  algorithm: 'rsa-iso9796-2' | 'ecdsa' | null;
  failure?: ActiveAuthenticationFailure;
  detail?: string;
}

/** ISO/IEC 10118-3 hash identifiers in the two-byte trailer (…CC); BC alone means SHA-1. */
const TRAILER_HASH: Readonly<Record<number, HashName>> = {
  51: 'sha1',
  52: 'sha256',
  53: 'sha512',
  54: 'sha384',
  56: 'sha224',
};
const HASH_BYTES: Readonly<Record<HashName, number>> = {
  sha1: 20,
  sha224: 28,
  sha256: 32,
  sha384: 48,
  sha512: 64,
};

/** DG15's public key (tag 6F around a SubjectPublicKeyInfo). */
export function activeAuthenticationKey(dg15: Buffer): KeyObject {
  const outer = parseDer(dg15);
  if (outer.tag !== 0x6f) throw new RangeError('DG15 does not start with tag 6F');
  return createPublicKey({ key: outer.value, format: 'der', type: 'spki' });
}

/** The hash DG14's ActiveAuthenticationInfo names for ECDSA answers, if it has one. */
export function activeAuthenticationHash(dg14: Buffer): HashName | undefined {
  const outer = parseDer(dg14);
  if (outer.tag !== 0x6e) throw new RangeError('DG14 does not start with tag 6E');
  for (const info of children(parseDer(outer.value), 64)) {
    const fields = children(info);
    if (decodeOid(fields[0] as DerNode) !== OID.activeAuthenticationInfo) continue;
    const algorithm = fields[2] ? ECDSA[decodeOid(fields[2])] : undefined;
    if (algorithm) return algorithm;
  }
  return undefined;
}

function verifyRsa(key: KeyObject, nonce: Buffer, signature: Buffer): { valid: boolean; detail?: string } {
  let f: Buffer;
  try {
    f = publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, signature);
  } catch {
    return { valid: false, detail: 'the answer is not an RSA signature under the DG15 key' };
  }
  if (f[0] !== 0x6a)
    return { valid: false, detail: 'the recovered block has no ISO/IEC 9796-2 partial-recovery header' };
  let hash: HashName;
  let trailer: number;
  if (f[f.length - 1] === 0xbc) {
    hash = 'sha1';
    trailer = 1;
  } else if (f[f.length - 1] === 0xcc && TRAILER_HASH[f[f.length - 2] as number]) {
    hash = TRAILER_HASH[f[f.length - 2] as number] as HashName;
    trailer = 2;
  } else return { valid: false, detail: 'the recovered block has no ISO/IEC 9796-2 trailer' };
  const size = HASH_BYTES[hash];
  const m1 = f.subarray(1, f.length - trailer - size);
  const h = f.subarray(f.length - trailer - size, f.length - trailer);
  const expected = createHash(hash)
    .update(Buffer.concat([m1, nonce]))
    .digest();
  return expected.equals(h)
    ? { valid: true }
    : { valid: false, detail: 'the answer does not sign this nonce' };
}

export interface ActiveAuthenticationInput {
  dg15: Buffer;
  dg14?: Buffer;
  /** The nonce the service issued for this session (never one the client chose). */
  nonce: Buffer;
  signature: Buffer;
}

export function verifyActiveAuthentication(input: ActiveAuthenticationInput): ActiveAuthenticationResult {
  let key: KeyObject;
  try {
    key = activeAuthenticationKey(input.dg15);
  } catch {
    return {
      valid: false,
      algorithm: null,
      failure: 'chip_active_authentication_unsupported',
      detail: 'DG15 holds no usable public key',
    };
  }
  if (key.asymmetricKeyType === 'rsa') {
    const r = verifyRsa(key, input.nonce, input.signature);
    return r.valid
      ? { valid: true, algorithm: 'rsa-iso9796-2' }
      : {
          valid: false,
          algorithm: 'rsa-iso9796-2',
          failure: 'chip_clone_suspected',
          ...(r.detail ? { detail: r.detail } : {}),
        };
  }
  if (key.asymmetricKeyType === 'ec') {
    let hash: HashName | undefined;
    try {
      hash = input.dg14 ? activeAuthenticationHash(input.dg14) : undefined;
    } catch {
      hash = undefined;
    }
    if (!hash)
      return {
        valid: false,
        algorithm: 'ecdsa',
        failure: 'chip_active_authentication_unsupported',
        detail: 'ECDSA answer without DG14 ActiveAuthenticationInfo naming its hash',
      };
    let valid = false;
    try {
      valid = verify(hash, input.nonce, { key, dsaEncoding: 'ieee-p1363' }, input.signature);
    } catch {
      valid = false;
    }
    return valid
      ? { valid: true, algorithm: 'ecdsa' }
      : {
          valid: false,
          algorithm: 'ecdsa',
          failure: 'chip_clone_suspected',
          detail: 'the answer does not sign this nonce',
        };
  }
  return {
    valid: false,
    algorithm: null,
    failure: 'chip_active_authentication_unsupported',
    detail: `DG15 key type ${key.asymmetricKeyType}`,
  };
}
