import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  DecryptionError,
  decryptJson,
  decryptText,
  encryptJson,
  encryptText,
  loadOrCreateDevelopmentKeyring,
  parseKeyring,
} from '../../src/platform/crypto/encryption.ts';

const key = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;

describe('encryption at rest (AES-256-GCM)', () => {
  const keyring = parseKeyring(key('a', 1));

  it('round-trips text and JSON, with a fresh IV each time', () => {
    const one = encryptText(keyring, '山田 太郎');
    assert.notEqual(one, encryptText(keyring, '山田 太郎'));
    assert.equal(decryptText(keyring, one), '山田 太郎');
    assert.deepEqual(decryptJson(keyring, encryptJson(keyring, { a: [1, 'x'] })), { a: [1, 'x'] });
    assert.ok(!one.includes('山田'));
  });

  it('refuses a value moved to another context or tampered with', () => {
    const sealed = encryptText(keyring, 'secret', 'row-1');
    assert.throws(() => decryptText(keyring, sealed, 'row-2'), DecryptionError);
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    assert.throws(() => decryptText(keyring, `v1.${bytes.toString('base64')}`, 'row-1'), DecryptionError);
  });

  it('decrypts old values after rotation: new key first, old key kept', () => {
    const old = encryptText(keyring, 'before rotation');
    const rotated = parseKeyring(`${key('b', 2)},${key('a', 1)}`);
    assert.equal(decryptText(rotated, old), 'before rotation');
    const fresh = encryptText(rotated, 'after');
    assert.throws(() => decryptText(keyring, fresh), /no encryption key with id 'b'/);
  });

  it('generates a development key once, readable by the owner only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-key-'));
    const first = loadOrCreateDevelopmentKeyring(dir);
    const second = loadOrCreateDevelopmentKeyring(dir);
    assert.deepEqual(second.keys.get('dev'), first.keys.get('dev'));
    assert.equal(fs.statSync(path.join(dir, 'encryption.key')).mode & 0o777, 0o600);
    fs.rmSync(dir, { recursive: true });
  });
});
