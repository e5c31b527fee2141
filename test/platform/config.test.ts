import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config.ts';

const KEY = `k1:${Buffer.alloc(32, 1).toString('base64')}`;

describe('parseConfig', () => {
  it('has the documented defaults (README, configuration)', () => {
    const config = parseConfig({}, '/srv/app');
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.env, 'development');
    assert.equal(config.publicUrl, 'http://127.0.0.1:8080');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, '/srv/app/.mimoto');
    assert.equal(config.trustProxy, false);
    assert.deepEqual(config.rateLimit, { perSecond: 100, burst: 200 });
    assert.ok(Object.isFrozen(config));
  });

  it('reads the chip trust store as paths resolved against the working directory, none by default', () => {
    assert.deepEqual(parseConfig({}, '/srv/app').chipCscaFiles, []);
    assert.deepEqual(
      parseConfig({ MIMOTO_CHIP_CSCA_FILES: 'trust/jp.pem, /etc/csca/de.pem' }, '/srv/app').chipCscaFiles,
      ['/srv/app/trust/jp.pem', '/etc/csca/de.pem'],
    );
  });

  it('derives the public URL from HOST and PORT and strips a trailing slash from an explicit one', () => {
    assert.equal(parseConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl, 'http://0.0.0.0:9000');
    assert.equal(parseConfig({ MIMOTO_PUBLIC_URL: 'https://id.example/' }).publicUrl, 'https://id.example');
  });

  it('reports every invalid value at once', () => {
    try {
      parseConfig({
        PORT: 'eighty',
        MIMOTO_ENV: 'prod',
        DATABASE_URL: 'mysql://x',
        MIMOTO_TRUST_PROXY: 'maybe',
        MIMOTO_PUBLIC_URL: 'ftp://x',
        MIMOTO_ENCRYPTION_KEY: 'short',
      });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of [
        'PORT',
        'MIMOTO_ENV',
        'DATABASE_URL',
        'MIMOTO_TRUST_PROXY',
        'MIMOTO_PUBLIC_URL',
        'MIMOTO_ENCRYPTION_KEY',
      ]) {
        assert.match(text, new RegExp(name), `mentions ${name}`);
      }
      assert.equal(error.problems.length, 6);
    }
  });

  it('requires an encryption key and an https public URL in production', () => {
    assert.throws(
      () => parseConfig({ MIMOTO_ENV: 'production', MIMOTO_PUBLIC_URL: 'http://id.example' }),
      (error) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 2);
        return true;
      },
    );
    const ok = parseConfig({
      MIMOTO_ENV: 'production',
      MIMOTO_PUBLIC_URL: 'https://id.example',
      MIMOTO_ENCRYPTION_KEY: KEY,
    });
    assert.equal(ok.env, 'production');
  });

  it('checks encryption keys: 32 bytes each, unique ids', () => {
    const short = `a:${Buffer.alloc(16).toString('base64')}`;
    assert.throws(() => parseConfig({ MIMOTO_ENCRYPTION_KEY: short }), /32 bytes/);
    assert.throws(() => parseConfig({ MIMOTO_ENCRYPTION_KEY: `${KEY},${KEY}` }), /twice/);
    assert.equal(
      parseConfig({
        MIMOTO_ENCRYPTION_KEY: `${KEY},k0:${Buffer.alloc(32, 2).toString('base64')}`,
      }).encryptionKeys?.split(',').length,
      2,
    );
  });

  it('turns the rate limit off with 0 and refuses a burst below the rate', () => {
    assert.equal(parseConfig({ MIMOTO_RATE_LIMIT_PER_SECOND: '0' }).rateLimit, null);
    assert.throws(
      () => parseConfig({ MIMOTO_RATE_LIMIT_PER_SECOND: '50', MIMOTO_RATE_LIMIT_BURST: '10' }),
      ConfigError,
    );
  });

  it('treats empty variables as unset', () => {
    assert.equal(parseConfig({ PORT: '', DATABASE_URL: '  ' }).port, 8080);
  });

  it('keeps blobs in the data directory unless MIMOTO_BLOB_STORE=s3 names a bucket', () => {
    assert.deepEqual(parseConfig({ MIMOTO_DATA_DIR: '/var/mimoto' }).blobStorage, {
      kind: 'local',
      directory: '/var/mimoto/blobs',
    });
    const minio = parseConfig({
      MIMOTO_BLOB_STORE: 's3',
      MIMOTO_S3_BUCKET: 'kyc-images',
      MIMOTO_S3_ENDPOINT: 'http://minio.internal:9000/',
      MIMOTO_S3_PREFIX: 'prod/',
      MIMOTO_S3_ACCESS_KEY_ID: 'AKIA1',
      MIMOTO_S3_SECRET_ACCESS_KEY: 'secret',
    }).blobStorage;
    assert.deepEqual(minio, {
      kind: 's3',
      bucket: 'kyc-images',
      prefix: 'prod/',
      region: 'us-east-1',
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
    });
    const aws = parseConfig({
      MIMOTO_BLOB_STORE: 's3',
      MIMOTO_S3_BUCKET: 'kyc',
      MIMOTO_S3_REGION: 'ap-northeast-1',
    });
    assert.equal(
      aws.blobStorage.kind === 's3' && aws.blobStorage.forcePathStyle,
      false,
      'AWS: virtual hosts',
    );
    assert.equal(aws.blobStorage.kind === 's3' && aws.blobStorage.credentials, undefined, "the SDK's chain");
  });

  it('reports every S3 setting problem at once', () => {
    try {
      parseConfig({
        MIMOTO_BLOB_STORE: 's3',
        MIMOTO_S3_ENDPOINT: 'minio:9000',
        MIMOTO_S3_ACCESS_KEY_ID: 'AKIA1',
        MIMOTO_S3_PREFIX: '../x y',
      });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of [
        'MIMOTO_S3_BUCKET',
        'MIMOTO_S3_ENDPOINT',
        'MIMOTO_S3_SECRET_ACCESS_KEY',
        'MIMOTO_S3_PREFIX',
      ]) {
        assert.match(text, new RegExp(name));
      }
      assert.equal(error.problems.length, 4);
    }
    assert.throws(() => parseConfig({ MIMOTO_BLOB_STORE: 'gcs' }), /MIMOTO_BLOB_STORE/);
    assert.throws(
      () => parseConfig({ MIMOTO_BLOB_STORE: 's3', MIMOTO_S3_BUCKET: 'Bad_Bucket' }),
      /bucket name/,
    );
  });
});
