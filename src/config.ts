// The only module that reads process.env (style.md). Parsed once at start, every problem reported
// together, the result frozen.
import path from 'node:path';

export type Environment = 'production' | 'staging' | 'development';
export type Role = 'all' | 'api' | 'worker';

export interface RateLimitConfig {
  /** Sustained requests per second per API key. */
  perSecond: number;
  /** Bucket size: requests allowed at once after a quiet spell. */
  burst: number;
}

/** Where blobs (document images, liveness frames, logos) live; every store is wrapped in encryption. */
export type BlobStorageConfig =
  /** One file per blob under `directory`: one machine only (the embedded default). */
  | { kind: 'local'; directory: string }
  /** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph RGW): any number of machines. */
  | {
      kind: 's3';
      bucket: string;
      /** Prepended to every object key, e.g. `mimoto/`; empty for the whole bucket. */
      prefix: string;
      region: string;
      /** Undefined: AWS S3 itself. Otherwise the server's URL (MinIO, R2, Ceph RGW). */
      endpoint: string | undefined;
      /** `bucket` in the path instead of the host name (MinIO and Ceph usually need it). */
      forcePathStyle: boolean;
      /** Undefined: the AWS SDK's own credential chain (instance role, web identity, AWS_* variables). */
      credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
    };

/**
 * How long a client may take to send a request (platform/http/slow-clients.ts): a slow or stalled
 * client must not hold a connection, and so a share of the server, open.
 */
export interface HttpTimeouts {
  /** From the connection's first byte (or the previous request's end) to the end of the headers. */
  headersMs: number;
  /** The whole request, headers and body, uploads included. */
  requestMs: number;
  /** A body must keep arriving at least this fast once `bodyGraceMs` have passed… */
  bodyMinBytesPerSecond: number;
  bodyGraceMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

export interface Config {
  port: number;
  host: string;
  env: Environment;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  blobStorage: BlobStorageConfig;
  /** Base64 32-byte keys as `id:base64[,id:base64…]`, the first one current; undefined: see crypto. */
  encryptionKeys: string | undefined;
  trustProxy: boolean;
  /** null: no rate limit (benchmarks). */
  rateLimit: RateLimitConfig | null;
  http: HttpTimeouts;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * IC-chip verification's trust store: PEM files of CSCA certificates the operator vouches for
   * (MIMOTO_CHIP_CSCA_FILES, comma-separated paths). Empty: no chip can pass Passive Authentication.
   */
  chipCscaFiles: readonly string[];
  /** How long the hosted flow's capture check may read a document photo before refusing it. */
  captureCheckBudgetMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const ENVIRONMENTS: readonly Environment[] = ['production', 'staging', 'development'];
const LOG_LEVELS: readonly Config['logLevel'][] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

export function parseConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): Config {
  const problems: string[] = [];
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got '${raw}')`);
      return fallback;
    }
    return raw as T;
  };
  const flag = (name: string) => {
    const raw = read(name);
    if (raw === undefined) return false;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got '${raw}')`);
    return false;
  };

  const port = integer('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const environment = oneOf('MIMOTO_ENV', ENVIRONMENTS, 'development');

  const publicUrl = (
    read('MIMOTO_PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  ).replace(/\/+$/, '');
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    if (url.search || url.hash) problems.push('MIMOTO_PUBLIC_URL must not have a query or fragment');
    if (environment === 'production' && url.protocol !== 'https:') {
      problems.push('MIMOTO_PUBLIC_URL must be https in production');
    }
  } catch {
    problems.push(`MIMOTO_PUBLIC_URL must be an absolute http(s) URL (got '${publicUrl}')`);
  }

  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  const encryptionKeys = read('MIMOTO_ENCRYPTION_KEY');
  if (encryptionKeys !== undefined) {
    for (const problem of checkEncryptionKeys(encryptionKeys))
      problems.push(`MIMOTO_ENCRYPTION_KEY: ${problem}`);
  } else if (environment !== 'development') {
    problems.push(`MIMOTO_ENCRYPTION_KEY is required in ${environment} (docs/decisions.md: data at rest)`);
  }

  const perSecond = integer('MIMOTO_RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000);
  const burst = integer('MIMOTO_RATE_LIMIT_BURST', Math.max(perSecond * 2, 1), 1, 10_000_000);
  if (perSecond > 0 && burst < perSecond) {
    problems.push('MIMOTO_RATE_LIMIT_BURST must be at least MIMOTO_RATE_LIMIT_PER_SECOND');
  }

  // A 10 MB upload at the minimum rate would take longer than the whole-request limit allows: the
  // minimum only cuts a body that has all but stopped; the request limit bounds the rest.
  const http: HttpTimeouts = {
    headersMs: integer('MIMOTO_HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestMs: integer('MIMOTO_HTTP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    bodyMinBytesPerSecond: integer('MIMOTO_HTTP_BODY_MIN_BYTES_PER_SECOND', 1024, 0, 1_000_000_000),
    bodyGraceMs: integer('MIMOTO_HTTP_BODY_GRACE_MS', 5_000, 0, 600_000),
    keepAliveMs: integer('MIMOTO_HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
  };
  if (http.headersMs > http.requestMs)
    problems.push('MIMOTO_HTTP_HEADERS_TIMEOUT_MS must not be more than MIMOTO_HTTP_REQUEST_TIMEOUT_MS');

  const dataDir = path.resolve(cwd, read('MIMOTO_DATA_DIR') ?? '.mimoto');
  const blobStorage = parseBlobStorage(read, flag, problems, dataDir);

  const config: Config = {
    port,
    host,
    env: environment,
    publicUrl,
    databaseUrl,
    dataDir,
    blobStorage,
    encryptionKeys,
    trustProxy: flag('MIMOTO_TRUST_PROXY'),
    rateLimit: perSecond === 0 ? null : { perSecond, burst },
    http: Object.freeze(http),
    logLevel: oneOf('MIMOTO_LOG_LEVEL', LOG_LEVELS, 'info'),
    chipCscaFiles: Object.freeze(
      (read('MIMOTO_CHIP_CSCA_FILES') ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')
        .map((p) => path.resolve(cwd, p)),
    ),
    captureCheckBudgetMs: integer('MIMOTO_CAPTURE_CHECK_BUDGET_MS', 4000, 100, 600_000),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

const S3_BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function parseBlobStorage(
  read: (name: string) => string | undefined,
  flag: (name: string) => boolean,
  problems: string[],
  dataDir: string,
): BlobStorageConfig {
  const kind = read('MIMOTO_BLOB_STORE') ?? 'local';
  if (kind === 'local') return { kind: 'local', directory: path.join(dataDir, 'blobs') };
  if (kind !== 's3') {
    problems.push(`MIMOTO_BLOB_STORE must be one of local, s3 (got '${kind}')`);
    return { kind: 'local', directory: path.join(dataDir, 'blobs') };
  }
  const bucket = read('MIMOTO_S3_BUCKET') ?? '';
  if (!S3_BUCKET_PATTERN.test(bucket)) {
    problems.push(
      bucket === ''
        ? 'MIMOTO_S3_BUCKET is required when MIMOTO_BLOB_STORE=s3'
        : `MIMOTO_S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots or dashes (got '${bucket}')`,
    );
  }
  const endpoint = read('MIMOTO_S3_ENDPOINT')?.replace(/\/+$/, '');
  if (endpoint !== undefined) {
    try {
      const url = new URL(endpoint);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    } catch {
      problems.push(`MIMOTO_S3_ENDPOINT must be an http(s) URL (got '${endpoint}')`);
    }
  }
  const prefix = read('MIMOTO_S3_PREFIX') ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9!_.*'()/-]{1,200}$/.test(prefix)) {
    problems.push("MIMOTO_S3_PREFIX may hold only letters, digits and !_.*'()/- (at most 200)");
  }
  const accessKeyId = read('MIMOTO_S3_ACCESS_KEY_ID');
  const secretAccessKey = read('MIMOTO_S3_SECRET_ACCESS_KEY');
  const sessionToken = read('MIMOTO_S3_SESSION_TOKEN');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('MIMOTO_S3_ACCESS_KEY_ID and MIMOTO_S3_SECRET_ACCESS_KEY must be set together');
  }
  // Path-style addressing is what self-hosted servers answer; AWS itself prefers virtual hosts.
  const pathStyleRaw = read('MIMOTO_S3_FORCE_PATH_STYLE');
  return {
    kind: 's3',
    bucket,
    prefix,
    region: read('MIMOTO_S3_REGION') ?? 'us-east-1',
    endpoint,
    forcePathStyle: pathStyleRaw === undefined ? endpoint !== undefined : flag('MIMOTO_S3_FORCE_PATH_STYLE'),
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined
        ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
        : undefined,
  };
}

/** `id:base64` entries; each key 32 bytes (AES-256), ids unique. Returns the problems found. */
export function checkEncryptionKeys(value: string): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const entry of value.split(',')) {
    const match = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=_-]+)$/.exec(entry.trim());
    if (!match) {
      problems.push("each key must be written 'id:base64' (id of letters, digits, _ or -)");
      continue;
    }
    const [, id, key] = match as unknown as [string, string, string];
    if (ids.has(id)) problems.push(`key id '${id}' appears twice`);
    ids.add(id);
    if (Buffer.from(key, 'base64').length !== 32) problems.push(`key '${id}' must be 32 bytes of base64`);
  }
  return problems;
}
