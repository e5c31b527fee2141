// Object identifiers of the hash and signature algorithms ICAO 9303 Part 12 §4.4 allows for
// EF.SOD and the CSCA/DS certificates (RFC 3279, RFC 4055, RFC 5758), and how Node's crypto
// verifies each.
import { constants, type KeyObject, verify } from 'node:crypto';
import { children, type DerNode, decodeOid, decodeSmallInteger, parseDer, TAG } from './der.ts';

export type HashName = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';

export const HASH_OIDS: Readonly<Record<string, HashName>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  ldsSecurityObject: '2.23.136.1.1.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  activeAuthenticationInfo: '2.23.136.1.1.5',
} as const;

const RSA_PKCS1: Readonly<Record<string, HashName>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};

export const ECDSA: Readonly<Record<string, HashName>> = {
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

export class UnsupportedAlgorithmError extends Error {
  override name = 'UnsupportedAlgorithmError';
}

/** The hash an AlgorithmIdentifier names. */
export function hashOf(algorithm: DerNode): HashName {
  const [id] = children(algorithm);
  const name = HASH_OIDS[decodeOid(id as DerNode)];
  if (!name) throw new UnsupportedAlgorithmError(`hash algorithm ${decodeOid(id as DerNode)}`);
  return name;
}

/** RFC 4055 RSASSA-PSS-params: hash (default SHA-1) and salt length (default 20). */
function pssParameters(params: DerNode | undefined): { hash: HashName; saltLength: number } {
  let hash: HashName = 'sha1';
  let saltLength = 20;
  if (params && params.tag === TAG.sequence) {
    for (const field of children(params)) {
      const inner = parseDer(field.value);
      if (field.tag === 0xa0) hash = hashOf(inner);
      if (field.tag === 0xa2) saltLength = decodeSmallInteger(inner);
    }
  }
  return { hash, saltLength };
}

/**
 * Verifies `signature` over `data` under the signature AlgorithmIdentifier `algorithm`
 * (`digest` is the SignerInfo's digest algorithm, used where the identifier names only the key:
 * rsaEncryption, ecPublicKey).
 */
export function verifySignature(
  algorithm: DerNode,
  digest: HashName,
  key: KeyObject,
  data: Buffer,
  signature: Buffer,
): boolean {
  const [idNode, params] = children(algorithm);
  const id = decodeOid(idNode as DerNode);
  try {
    if (RSA_PKCS1[id] || id === OID.rsaEncryption)
      return verify(RSA_PKCS1[id] ?? digest, data, { key, padding: constants.RSA_PKCS1_PADDING }, signature);
    if (id === OID.rsassaPss) {
      const { hash, saltLength } = pssParameters(params);
      return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, signature);
    }
    if (ECDSA[id] || id === OID.ecPublicKey) return verify(ECDSA[id] ?? digest, data, key, signature);
  } catch {
    // A key of another type than the algorithm, or a signature of the wrong shape: not valid.
    return false;
  }
  throw new UnsupportedAlgorithmError(`signature algorithm ${id}`);
}
