// Blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph RGW), so api and
// worker processes on different machines see the same images. The bucket must exist; mimoto never
// creates or lists it. Objects are written whole (one PutObject), so a reader never sees half a blob.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { BlobStorageConfig } from '../../config.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

type S3Storage = Extract<BlobStorageConfig, { kind: 's3' }>;

export function createS3Client(storage: S3Storage): S3Client {
  return new S3Client({
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    ...(storage.credentials ? { credentials: storage.credentials } : {}),
    // Checksums only where S3 requires them: servers other than AWS (older MinIO, Ceph, R2) refuse
    // or ignore the newer checksum headers, and AES-GCM already authenticates every blob.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

export function createS3BlobStore(storage: S3Storage, client = createS3Client(storage)): BlobStore {
  const Bucket = storage.bucket;
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `${storage.prefix}${key}`;
  };
  return {
    async putBlob(key, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async getBlob(key) {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!response.Body) return null;
        const bytes = await response.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async deleteBlob(key) {
      // S3 answers 204 for a key that is not there: deleting twice is not an error.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
  };
}

/** A missing object, not a missing bucket or a refused request (those must surface). */
function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  return (
    error instanceof S3ServiceException &&
    error.name !== 'NoSuchBucket' &&
    error.$metadata.httpStatusCode === 404
  );
}
