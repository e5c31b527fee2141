// docs/decisions.md "API keys": `mmt_live_` (production) or `mmt_test_` (staging, development) + 32 base62.
import type { Environment } from '../config.ts';
import { randomBase62 } from '../platform/crypto/random-id.ts';

const KEY_PATTERN = /^mmt_(live|test)_[0-9A-Za-z]{32}$/;

export type KeyEnvironment = 'live' | 'test';

export function keyEnvironmentFor(env: Environment): KeyEnvironment {
  return env === 'production' ? 'live' : 'test';
}

export function generateApiKey(env: Environment): {
  apiKey: string;
  environment: KeyEnvironment;
  hint: string;
} {
  const environment = keyEnvironmentFor(env);
  const apiKey = `mmt_${environment}_${randomBase62(32)}`;
  return { apiKey, environment, hint: `${apiKey.slice(0, 13)}…` };
}

/** The key's environment when it is well-formed, else undefined. */
export function parseApiKey(candidate: string): KeyEnvironment | undefined {
  return KEY_PATTERN.exec(candidate)?.[1] as KeyEnvironment | undefined;
}
