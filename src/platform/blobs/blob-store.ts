// Where images live (docs/decisions.md "blob store (encrypted images): local directory by default;
// S3-compatible for multi-node"). Callers see three verbs. A store only keeps bytes; encryption is a
// wrapper around any store (encrypted-blob-store.ts), so a local file and an S3 object hold the same
// sealed bytes.
import type { BlobStorageConfig, Config } from '../../config.ts';
import type { Keyring } from '../crypto/encryption.ts';
import { createDirectoryBlobStore } from './directory-blob-store.ts';
import { encryptedBlobStore } from './encrypted-blob-store.ts';

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

/** The plain store a configuration names, without encryption. */
export function createRawBlobStore(storage: BlobStorageConfig): BlobStore {
  return storage.kind === 's3' ? lazyS3BlobStore(storage) : createDirectoryBlobStore(storage.directory);
}

/** The AWS SDK is loaded on first use only: a process on the local store never pays for it. */
function lazyS3BlobStore(storage: Extract<BlobStorageConfig, { kind: 's3' }>): BlobStore {
  let store: Promise<BlobStore> | undefined;
  const ready = () => {
    store ??= import('./s3-blob-store.ts').then((m) => m.createS3BlobStore(storage));
    return store;
  };
  return {
    putBlob: async (key, bytes) => (await ready()).putBlob(key, bytes),
    getBlob: async (key) => (await ready()).getBlob(key),
    deleteBlob: async (key) => (await ready()).deleteBlob(key),
  };
}

const storageId = (storage: BlobStorageConfig) =>
  storage.kind === 's3'
    ? `s3:${storage.endpoint ?? 'aws'}:${storage.region}:${storage.bucket}:${storage.prefix}`
    : `local:${storage.directory}`;

const stores = new WeakMap<Keyring, Map<string, BlobStore>>();

/**
 * The process's encrypted blob store for this configuration (one per storage location and keyring,
 * so an S3 client and its connections are shared by every caller).
 */
export function openBlobStore(config: Pick<Config, 'blobStorage'>, keyring: Keyring): BlobStore {
  let byLocation = stores.get(keyring);
  if (!byLocation) {
    byLocation = new Map();
    stores.set(keyring, byLocation);
  }
  const id = storageId(config.blobStorage);
  let store = byLocation.get(id);
  if (!store) {
    store = encryptedBlobStore(createRawBlobStore(config.blobStorage), keyring);
    byLocation.set(id, store);
  }
  return store;
}
