// Where images live (design.md "blob store (encrypted images): local directory by default;
// S3-compatible for multi-node"). Callers see three verbs; every blob is sealed with AES-256-GCM
// under the keyring, its key as associated data, so a file moved to another key does not decrypt.
import type { Config } from '../../config.ts';
import type { Keyring } from '../crypto/encryption.ts';
import { createLocalBlobStore } from './local-blob-store.ts';

export interface BlobStore {
  /** Stores the bytes under `key`, replacing any blob there; resolves once durable. */
  putBlob(key: string, bytes: Buffer): Promise<void>;
  /** The bytes stored under `key`, or null when there is none. */
  getBlob(key: string): Promise<Buffer | null>;
  /** Removes the blob; removing a missing blob is not an error. */
  deleteBlob(key: string): Promise<void>;
}

/** Keys are `<folder>/<name>` made of safe characters only: they become file paths or object keys. */
export const BLOB_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_.-]{1,128}){1,3}$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid blob key '${key}'`);
}

const stores = new WeakMap<Keyring, Map<string, BlobStore>>();

/** The process's blob store for this configuration (one per data directory and keyring). */
export function openBlobStore(config: Pick<Config, 'dataDir'>, keyring: Keyring): BlobStore {
  let byDir = stores.get(keyring);
  if (!byDir) {
    byDir = new Map();
    stores.set(keyring, byDir);
  }
  let store = byDir.get(config.dataDir);
  if (!store) {
    store = createLocalBlobStore(config.dataDir, keyring);
    byDir.set(config.dataDir, store);
  }
  return store;
}
