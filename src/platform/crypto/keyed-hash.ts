// Keyed hashes of identity data (docs/decisions.md "Data at rest"): equal values give equal hashes, so a
// tenant's sessions can be compared on a document number or on name + birth date without either
// being stored, and without the key a dump gives nothing to test guesses against (a plain digest of
// a name and a birth date falls to a few thousand guesses).
//
// Each keyring key yields its own hashing key (HKDF with a purpose label, so the hash key is never
// the encryption key itself). New hashes use the current key and are stored with its id; a lookup
// computes its candidates under every key of the keyring, so rows hashed before a rotation keep
// matching as long as their key stays in the keyring — as encrypted values keep decrypting.
//
// The hash is HMAC(key, SHA-256(message)): the inner digest is what rows written before keyed
// hashes held, so those rows are rehashed from the stored digest alone, without the plaintext
// (src/pipeline/identity-hashes.ts). The inner digest itself is never stored.
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import type { Keyring } from './encryption.ts';

export type HashPurpose = 'identity-keys';

const derived = new WeakMap<Keyring, Map<string, Buffer>>();

function hashKey(keyring: Keyring, keyId: string, purpose: HashPurpose): Buffer | undefined {
  let keys = derived.get(keyring);
  if (!keys) {
    keys = new Map();
    derived.set(keyring, keys);
  }
  const cacheKey = `${purpose}\u0000${keyId}`;
  let key = keys.get(cacheKey);
  if (!key) {
    const secret = keyring.keys.get(keyId);
    if (!secret) return undefined;
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `mimoto keyed hash: ${purpose}`, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/** The unkeyed inner digest (hex): what the message is reduced to before it is keyed. */
export const innerDigest = (message: string): string =>
  createHash('sha256').update(message, 'utf8').digest('hex');

/** Keys an inner digest under one keyring key; undefined when the keyring has no such key. */
export function keyDigest(
  keyring: Keyring,
  keyId: string,
  purpose: HashPurpose,
  digest: string,
): string | undefined {
  const key = hashKey(keyring, keyId, purpose);
  return key && createHmac('sha256', key).update(digest, 'utf8').digest('hex');
}

/** The hash to store: under the current key, with that key's id. */
export function keyedHash(
  keyring: Keyring,
  purpose: HashPurpose,
  message: string,
): { keyId: string; hash: string } {
  return {
    keyId: keyring.currentId,
    hash: keyDigest(keyring, keyring.currentId, purpose, innerDigest(message))!,
  };
}

/** The hash of `message` under every key of the keyring, by key id: the candidates of a lookup. */
export function keyedHashCandidates(
  keyring: Keyring,
  purpose: HashPurpose,
  message: string,
): Map<string, string> {
  const digest = innerDigest(message);
  return new Map([...keyring.keys.keys()].map((id) => [id, keyDigest(keyring, id, purpose, digest)!]));
}
