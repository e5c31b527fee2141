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

export interface Config {
  port: number;
  host: string;
  env: Environment;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Base64 32-byte keys as `id:base64[,id:base64…]`, the first one current; undefined: see crypto. */
  encryptionKeys: string | undefined;
  trustProxy: boolean;
  /** null: no rate limit (benchmarks). */
  rateLimit: RateLimitConfig | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
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
    problems.push(`MIMOTO_ENCRYPTION_KEY is required in ${environment} (design.md: data at rest)`);
  }

  const perSecond = integer('MIMOTO_RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000);
  const burst = integer('MIMOTO_RATE_LIMIT_BURST', Math.max(perSecond * 2, 1), 1, 10_000_000);
  if (perSecond > 0 && burst < perSecond) {
    problems.push('MIMOTO_RATE_LIMIT_BURST must be at least MIMOTO_RATE_LIMIT_PER_SECOND');
  }

  const config: Config = {
    port,
    host,
    env: environment,
    publicUrl,
    databaseUrl,
    dataDir: path.resolve(cwd, read('MIMOTO_DATA_DIR') ?? '.mimoto'),
    encryptionKeys,
    trustProxy: flag('MIMOTO_TRUST_PROXY'),
    rateLimit: perSecond === 0 ? null : { perSecond, burst },
    logLevel: oneOf('MIMOTO_LOG_LEVEL', LOG_LEVELS, 'info'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
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
