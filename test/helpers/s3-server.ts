// A local S3-compatible server for tests (s3rver: pure JavaScript, objects in a temporary
// directory, SigV4 signatures checked), on 127.0.0.1 with one bucket made for the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks every request's signature against them. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The environment that points mimoto's blob storage at this server's bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'mimoto-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'mimoto-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MIMOTO_BLOB_STORE: 's3',
      MIMOTO_S3_ENDPOINT: endpoint,
      MIMOTO_S3_BUCKET: bucket,
      MIMOTO_S3_REGION: 'us-east-1',
      MIMOTO_S3_ACCESS_KEY_ID: ACCESS_KEY,
      MIMOTO_S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
