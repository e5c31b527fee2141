// The default store: one file per blob under a directory of this machine. Writes go to a temporary
// file that is renamed into place, so a reader never sees half a blob.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

export function createDirectoryBlobStore(root: string): BlobStore {
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
        await writeFile(partial, bytes, { mode: 0o600 });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async getBlob(key) {
      try {
        return await readFile(fileOf(key));
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
