// Issuing, listing, disabling and checking API keys (interface §5, §7; docs/decisions.md "API keys").
import { newId, sha256Hex } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findTenant } from '../tenants/index.ts';
import { generateApiKey, keyEnvironmentFor, parseApiKey } from './api-key-format.ts';
import {
  type ApiKeyRow,
  disableApiKey,
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys,
  touchApiKey,
} from './api-key-repository.ts';

/** How stale last_used_at may get: a key in constant use is written once a minute, not per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Keys that authenticated in this process, by hash (authenticateRecentApiKey). */
interface RecentKey {
  caller: ApiCaller;
  /** When this process last wrote (or read) the key's last_used_at. */
  lastUsedAt: number;
}
const RECENT_KEYS_LIMIT = 10_000;
const recentKeys = new WeakMap<Db, Map<string, RecentKey>>();
function forgetRecentKey(db: Db, keyId: string) {
  const recent = recentKeysOf(db);
  for (const [hash, entry] of recent) if (entry.caller.keyId === keyId) recent.delete(hash);
}
const recentKeysOf = (db: Db) => {
  let keys = recentKeys.get(db);
  if (!keys) {
    keys = new Map();
    recentKeys.set(db, keys);
  }
  return keys;
};

export interface ApiKeyView {
  keyId: string;
  label: string | null;
  hint: string;
  environment: string;
  createdAt: string;
  lastUsedAt: string | null;
  disabledAt: string | null;
}

const toView = (row: ApiKeyRow): ApiKeyView => ({
  keyId: row.id,
  label: row.label,
  hint: row.hint,
  environment: row.environment,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  disabledAt: row.disabledAt?.toISOString() ?? null,
});

/** The key is returned here only; the database keeps its SHA-256. */
export async function createApiKey(
  platform: Platform,
  tenantId: string,
  label?: string,
): Promise<{ keyId: string; apiKey: string }> {
  if (label !== undefined && (label.length > 200 || /\p{Cc}/u.test(label))) {
    throw new AppError('ValidationFailed', 'the label must have at most 200 printable characters');
  }
  if (!(await findTenant(platform.database.db, tenantId)))
    throw new AppError('NotFound', `no tenant '${tenantId}'`);
  const { apiKey, environment, hint } = generateApiKey(platform.config.env);
  const keyId = newId('key');
  await insertApiKey(platform.database.db, {
    id: keyId,
    tenantId,
    label: label ?? null,
    environment,
    hash: sha256Hex(apiKey),
    hint,
  });
  return { keyId, apiKey };
}

export async function listTenantApiKeys(platform: Platform, tenantId: string): Promise<ApiKeyView[]> {
  if (!(await findTenant(platform.database.db, tenantId)))
    throw new AppError('NotFound', `no tenant '${tenantId}'`);
  return (await listApiKeys(platform.database.db, tenantId)).map(toView);
}

/**
 * Disables a key (once; disabling again keeps the first time). With `tenantId`, only that
 * tenant's keys. Returns the key before and after, and its tenant, for the audit log.
 */
export async function disableTenantApiKey(
  platform: Platform,
  keyId: string,
  tenantId?: string,
): Promise<{ before: ApiKeyView; after: ApiKeyView; tenantId: string }> {
  const db = platform.database.db;
  const key = await findApiKey(db, keyId);
  if (!key || (tenantId !== undefined && key.tenantId !== tenantId)) {
    throw new AppError('NotFound', `no API key '${keyId}'`);
  }
  await disableApiKey(db, keyId, platform.now());
  forgetRecentKey(db, keyId);
  return { before: toView(key), after: toView((await findApiKey(db, keyId))!), tenantId: key.tenantId };
}

export interface ApiCaller {
  tenantId: string;
  keyId: string;
}

/**
 * The caller behind an Authorization header, or AppError Unauthorized (interface §7) for a
 * missing, malformed, unknown, disabled or wrong-environment key. Looked up on every request, so
 * a key disabled by another process stops working at once.
 */
export async function authenticateApiKey(
  platform: Platform,
  authorization: string | undefined,
): Promise<ApiCaller> {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || parseApiKey(key) !== keyEnvironmentFor(platform.config.env)) throw new AppError('Unauthorized');
  const hash = sha256Hex(key);
  const row = await findApiKeyByHash(platform.database.db, hash);
  if (!row || row.disabledAt !== null || row.environment !== keyEnvironmentFor(platform.config.env)) {
    throw new AppError('Unauthorized');
  }
  const caller = { tenantId: row.tenantId, keyId: row.id };
  const lastUsedAt = await keepLastUsed(platform, row.id, row.lastUsedAt?.getTime() ?? null);
  const recent = recentKeysOf(platform.database.db);
  // Bounded: past the limit the memory starts again (each key then costs one lookup more).
  if (recent.size >= RECENT_KEYS_LIMIT) recent.clear();
  recent.set(hash, { caller, lastUsedAt });
  return caller;
}

/** Writes last_used_at when it is older than the resolution; returns the time it now holds. */
async function keepLastUsed(platform: Platform, keyId: string, lastUsedAt: number | null): Promise<number> {
  const now = platform.now();
  if (lastUsedAt !== null && now.getTime() - lastUsedAt <= LAST_USED_RESOLUTION_MS) return lastUsedAt;
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await touchApiKey(platform.database.db, keyId, now, staleBefore);
  return now.getTime();
}

/**
 * authenticateApiKey for a route whose one write statement checks the key again itself, in the same
 * statement (createSession's INSERT … WHERE disabled_at IS NULL): a key that authenticated in this
 * process before is taken from memory, so the request costs one round trip to the database instead
 * of three, and a key disabled meanwhile — by any process — is still refused by that statement,
 * which then calls confirmApiKey. A key this process has not seen is looked up as usual, before the
 * body is read.
 */
export async function authenticateRecentApiKey(
  platform: Platform,
  authorization: string | undefined,
): Promise<ApiCaller> {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
  const key = match?.[1];
  const recent = key === undefined ? undefined : recentKeysOf(platform.database.db).get(sha256Hex(key));
  if (!recent) return authenticateApiKey(platform, authorization);
  recent.lastUsedAt = await keepLastUsed(platform, recent.caller.keyId, recent.lastUsedAt);
  return recent.caller;
}

/**
 * Called when a statement that checks the key found it refused: forgets the key in this process and
 * throws Unauthorized when it is disabled or gone; returns when the key is still good (the statement
 * failed for another reason).
 */
export async function confirmApiKey(platform: Platform, caller: ApiCaller): Promise<void> {
  const row = await findApiKey(platform.database.db, caller.keyId);
  if (row && row.disabledAt === null && row.tenantId === caller.tenantId) return;
  forgetRecentKey(platform.database.db, caller.keyId);
  throw new AppError('Unauthorized');
}
