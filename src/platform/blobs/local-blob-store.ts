// The default blob store: one encrypted file per blob under <dataDir>/blobs. Writes go to a
// temporary file that is renamed into place, so a reader never sees half a blob.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decryptBytes, encryptBytes, type Keyring } from '../crypto/encryption.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

export const blobContext = (key: string) => `blob:${key}`;

export function createLocalBlobStore(dataDir: string, keyring: Keyring): BlobStore {
  const root = path.join(dataDir, 'blobs');
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    async putBlob(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(partial, encryptBytes(keyring, bytes, blobContext(key)), { mode: 0o600 });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async getBlob(key) {
      try {
        return decryptBytes(keyring, await readFile(fileOf(key)), blobContext(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async deleteBlob(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
