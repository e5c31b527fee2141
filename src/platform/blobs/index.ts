export {
  assertBlobKey,
  BLOB_KEY_PATTERN,
  type BlobStore,
  createRawBlobStore,
  openBlobStore,
} from './blob-store.ts';
export { createDirectoryBlobStore } from './directory-blob-store.ts';
export { blobContext, encryptedBlobStore } from './encrypted-blob-store.ts';
