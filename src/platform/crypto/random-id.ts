// Identifiers and secrets (docs/decisions.md "IDs", "API keys").
import { hash } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'vs' | 'tn' | 'key' | 'rv' | 'evt' | 'usr' | 'job';

/** `<prefix>_` + 26 Crockford base32 characters holding 128 random bits. */
export function newId(prefix: IdPrefix): string {
  let value = 0n;
  for (const byte of pooledRandomBytes(16)) value = (value << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return `${prefix}_${out}`;
}

/** Uniform base62 characters by rejection sampling (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of pooledRandomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
