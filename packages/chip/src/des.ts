// The 3DES primitives of ICAO 9303 Part 11 §9.7 (key derivation) and §9.8 (secure messaging with
// 3DES): two-key 3DES in CBC mode with a zero IV, ISO/IEC 9797-1 padding method 2 and MAC
// algorithm 3 ("retail MAC") with DES. OpenSSL 3's default provider has no single DES, so DES with
// key K is computed as 3DES-EDE with K1 = K2 = K3 = K (E_K(D_K(E_K(x))) = E_K(x)).
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { concat, xor } from './bytes.js';

const ZERO_IV = Buffer.alloc(8);

/** ISO/IEC 9797-1 padding method 2: 0x80 then zeros to a whole block. */
export function pad(data: Uint8Array, block = 8): Buffer {
  const length = (Math.floor(data.length / block) + 1) * block;
  const out = Buffer.alloc(length);
  out.set(data);
  out[data.length] = 0x80;
  return out;
}

/** Removes padding method 2; refuses bytes that do not end in it. */
export function unpad(data: Uint8Array): Buffer {
  let i = data.length - 1;
  while (i >= 0 && data[i] === 0) i--;
  if (i < 0 || data[i] !== 0x80) throw new RangeError('bad ISO/IEC 9797-1 padding');
  return Buffer.from(data.subarray(0, i));
}

/** Sets each byte's lowest bit so the byte has odd parity (DES key convention). */
export function adjustParity(key: Uint8Array): Buffer {
  return Buffer.from(
    key.map((b) => {
      let ones = 0;
      for (let v = b >> 1; v; v >>= 1) ones += v & 1;
      return (b & 0xfe) | (ones % 2 === 0 ? 1 : 0);
    }),
  );
}

/** Part 11 §9.7.1: Keydata = H(K || c) with SHA-1, c = 1 (encryption) or 2 (MAC); 16 bytes, parity set. */
export function deriveDesKey(seed: Uint8Array, counter: 1 | 2 | 3): Buffer {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  return adjustParity(createHash('sha1').update(concat(seed, c)).digest().subarray(0, 16));
}

const threeKey = (key: Uint8Array) => {
  if (key.length !== 16) throw new RangeError('a two-key 3DES key is 16 bytes');
  return concat(key, key.subarray(0, 8));
};

function run(decrypt: boolean, algorithm: string, key: Buffer, data: Uint8Array, iv: Buffer | null): Buffer {
  if (data.length % 8 !== 0) throw new RangeError('3DES data must be whole blocks');
  const cipher = decrypt ? createDecipheriv(algorithm, key, iv) : createCipheriv(algorithm, key, iv);
  cipher.setAutoPadding(false);
  return concat(cipher.update(data), cipher.final());
}

/** Two-key 3DES-CBC, zero IV, no padding (the caller pads). */
export const tdesEncrypt = (key: Uint8Array, data: Uint8Array) =>
  run(false, 'des-ede3-cbc', threeKey(key), data, ZERO_IV);
export const tdesDecrypt = (key: Uint8Array, data: Uint8Array) =>
  run(true, 'des-ede3-cbc', threeKey(key), data, ZERO_IV);

const single = (k: Uint8Array) => concat(k, k, k);

/**
 * ISO/IEC 9797-1 MAC algorithm 3 with DES, over data already padded (method 2): CBC with Ka, then
 * the last block decrypted with Kb and encrypted with Ka. 8 bytes.
 */
export function retailMac(key: Uint8Array, paddedData: Uint8Array): Buffer {
  if (key.length !== 16) throw new RangeError('a retail MAC key is 16 bytes');
  const ka = key.subarray(0, 8);
  const kb = key.subarray(8, 16);
  const cbc = run(false, 'des-ede3-cbc', single(ka), paddedData, ZERO_IV);
  const h = cbc.subarray(cbc.length - 8);
  const d = run(true, 'des-ede3-ecb', single(kb), h, null);
  return run(false, 'des-ede3-ecb', single(ka), d, null);
}

export { xor };
