// AES-256-GCM around any store: every blob is sealed under the keyring with its key as associated
// data, so a blob copied to another key (or another bucket's same key under another context) does
// not decrypt, and the store itself — a directory or a bucket run by someone else — sees ciphertext only.
import { decryptBytes, encryptBytes, type Keyring } from '../crypto/encryption.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

export const blobContext = (key: string) => `blob:${key}`;

export function encryptedBlobStore(inner: BlobStore, keyring: Keyring): BlobStore {
  return {
    async putBlob(key, bytes) {
      assertBlobKey(key);
      await inner.putBlob(key, encryptBytes(keyring, bytes, blobContext(key)));
    },
    async getBlob(key) {
      assertBlobKey(key);
      const sealed = await inner.getBlob(key);
      return sealed && decryptBytes(keyring, sealed, blobContext(key));
    },
    async deleteBlob(key) {
      assertBlobKey(key);
      await inner.deleteBlob(key);
    },
  };
}
