// Issuing, listing, disabling and checking API keys (interface §5, §7; design.md "API keys").
import { newId, sha256Hex } from '../platform/crypto/random-id.ts';
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
  const row = await findApiKeyByHash(platform.database.db, sha256Hex(key));
  if (!row || row.disabledAt !== null || row.environment !== keyEnvironmentFor(platform.config.env)) {
    throw new AppError('Unauthorized');
  }
  const now = platform.now();
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await touchApiKey(platform.database.db, row.id, now, staleBefore);
  }
  return { tenantId: row.tenantId, keyId: row.id };
}
