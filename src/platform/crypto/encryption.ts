// AES-256-GCM for images and PII at rest (docs/decisions.md "Data at rest"). Each value carries the id
// of its key, so keys can rotate: new values use the first key, old ones decrypt with theirs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pooledRandomBytes } from './random-pool.ts';

export interface Keyring {
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

const TEXT_FORMAT = 'v1';

/** Parses `id:base64[,id:base64…]` (already validated by config). */
export function parseKeyring(value: string): Keyring {
  const keys = new Map<string, Buffer>();
  for (const entry of value.split(',')) {
    const [id, key] = entry.trim().split(':') as [string, string];
    keys.set(id, Buffer.from(key, 'base64'));
  }
  return { currentId: [...keys.keys()][0]!, keys };
}

/** Development only: a key generated once into the data directory, readable by the owner alone. */
export function loadOrCreateDevelopmentKeyring(dataDir: string): Keyring {
  const file = path.join(dataDir, 'encryption.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `dev:${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKeyring(fs.readFileSync(file, 'utf8').trim());
}

export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** Encrypts bytes: keyId length (1 byte), keyId, 12-byte IV, 16-byte tag, ciphertext. */
export function encryptBytes(keyring: Keyring, plaintext: Buffer, context = ''): Buffer {
  const key = keyring.keys.get(keyring.currentId)!;
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  // The context (for example the column and row) is authenticated, so a value cannot be moved elsewhere.
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const id = Buffer.from(keyring.currentId, 'utf8');
  return Buffer.concat([Buffer.from([id.length]), id, iv, cipher.getAuthTag(), body]);
}

export function decryptBytes(keyring: Keyring, sealed: Buffer, context = ''): Buffer {
  const idLength = sealed[0] ?? 0;
  const id = sealed.subarray(1, 1 + idLength).toString('utf8');
  const key = keyring.keys.get(id);
  if (!key) throw new DecryptionError(`no encryption key with id '${id}'`);
  const iv = sealed.subarray(1 + idLength, 13 + idLength);
  const tag = sealed.subarray(13 + idLength, 29 + idLength);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(29 + idLength)), decipher.final()]);
  } catch {
    throw new DecryptionError('ciphertext does not authenticate');
  }
}

/** Text form for database columns: `v1.` + base64 of encryptBytes. */
export function encryptText(keyring: Keyring, plaintext: string, context = ''): string {
  return `${TEXT_FORMAT}.${encryptBytes(keyring, Buffer.from(plaintext, 'utf8'), context).toString('base64')}`;
}

export function decryptText(keyring: Keyring, sealed: string, context = ''): string {
  if (!sealed.startsWith(`${TEXT_FORMAT}.`)) throw new DecryptionError('unknown ciphertext format');
  return decryptBytes(keyring, Buffer.from(sealed.slice(3), 'base64'), context).toString('utf8');
}

export function encryptJson(keyring: Keyring, value: unknown, context = ''): string {
  return encryptText(keyring, JSON.stringify(value), context);
}

export function decryptJson<T>(keyring: Keyring, sealed: string, context = ''): T {
  return JSON.parse(decryptText(keyring, sealed, context)) as T;
}
