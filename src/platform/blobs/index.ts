export { assertBlobKey, BLOB_KEY_PATTERN, type BlobStore, openBlobStore } from './blob-store.ts';
export { createLocalBlobStore } from './local-blob-store.ts';
