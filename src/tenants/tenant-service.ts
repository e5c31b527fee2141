// Tenant setup for operators (the CLI; the console reuses these functions).
import { decryptText, encryptText } from '../platform/crypto/encryption.ts';
import { newId, randomBase62 } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { callbackUrlProblem, normaliseCallbackPrefix } from './callback-url-policy.ts';
import {
  addCallbackPrefix,
  findTenant,
  insertTenant,
  listTenants,
  removeCallbackPrefix,
  type TenantRow,
  updateWebhookSecret,
} from './tenant-repository.ts';

export interface TenantView {
  tenantId: string;
  name: string;
  callbackUrlPrefixes: string[];
  createdAt: string;
}

const secretContext = (tenantId: string) => `tenants.webhook_secret:${tenantId}`;

function checkPrefixes(platform: Platform, prefixes: string[]): string[] {
  if (prefixes.length === 0)
    throw new AppError('ValidationFailed', 'at least one callback URL prefix is required');
  return prefixes.map((prefix) => {
    const problem = callbackUrlProblem(prefix, platform.config.env);
    if (problem) throw new AppError('ValidationFailed', `callback URL prefix '${prefix}' ${problem}`);
    return normaliseCallbackPrefix(prefix);
  });
}

export async function createTenant(
  platform: Platform,
  input: { name: string; callbackUrlPrefixes: string[] },
): Promise<{ tenantId: string; webhookSecret: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) {
    throw new AppError('ValidationFailed', 'the tenant name must have 1 to 200 characters');
  }
  const prefixes = checkPrefixes(platform, input.callbackUrlPrefixes);
  const tenantId = newId('tn');
  const webhookSecret = newWebhookSecret();
  await insertTenant(platform.database.db, {
    id: tenantId,
    name,
    callbackUrlPrefixes: [...new Set(prefixes)],
    webhookSecretEnc: encryptText(platform.keyring, webhookSecret, secretContext(tenantId)),
  });
  return { tenantId, webhookSecret };
}

export async function allowCallbackPrefix(
  platform: Platform,
  tenantId: string,
  prefix: string,
): Promise<TenantView> {
  const [normalised] = checkPrefixes(platform, [prefix]);
  if (!(await addCallbackPrefix(platform.database.db, tenantId, normalised!))) {
    throw new AppError('NotFound', `no tenant '${tenantId}'`);
  }
  return showTenant(platform, tenantId);
}

/** Takes a prefix off the allow list (the console); the last one stays, as at creation. */
export async function disallowCallbackPrefix(
  platform: Platform,
  tenantId: string,
  prefix: string,
): Promise<TenantView> {
  const tenant = await showTenant(platform, tenantId);
  if (tenant.callbackUrlPrefixes.length === 1 && tenant.callbackUrlPrefixes[0] === prefix) {
    throw new AppError('ValidationFailed', 'a tenant keeps at least one callback URL prefix');
  }
  if (!(await removeCallbackPrefix(platform.database.db, tenantId, prefix))) {
    throw new AppError('NotFound', `'${prefix}' is not on the allow list`);
  }
  return showTenant(platform, tenantId);
}

const toView = (tenant: TenantRow): TenantView => ({
  tenantId: tenant.id,
  name: tenant.name,
  callbackUrlPrefixes: tenant.callbackUrlPrefixes,
  createdAt: tenant.createdAt.toISOString(),
});

export async function showTenant(platform: Platform, tenantId: string): Promise<TenantView> {
  const tenant = await findTenant(platform.database.db, tenantId);
  if (!tenant) throw new AppError('NotFound', `no tenant '${tenantId}'`);
  return toView(tenant);
}

export async function listTenantViews(platform: Platform): Promise<TenantView[]> {
  return (await listTenants(platform.database.db)).map(toView);
}

/** The secret that signs this tenant's webhooks (interface §6.4). */
export async function readWebhookSecret(platform: Platform, tenantId: string): Promise<string> {
  const tenant = await findTenant(platform.database.db, tenantId);
  if (!tenant) throw new AppError('NotFound', `no tenant '${tenantId}'`);
  return decryptText(platform.keyring, tenant.webhookSecretEnc, secretContext(tenantId));
}

function newWebhookSecret(): string {
  return `whsec_${randomBase62(40)}`;
}

/**
 * `mimoto tenant rotate-webhook-secret` (interface §6.4): a new secret, returned once. Every
 * delivery attempt reads the current secret when it is sent, so attempts from now on — retries of
 * older events included — are signed with the new one.
 */
export async function rotateWebhookSecret(
  platform: Platform,
  tenantId: string,
): Promise<{ webhookSecret: string }> {
  const webhookSecret = newWebhookSecret();
  const sealed = encryptText(platform.keyring, webhookSecret, secretContext(tenantId));
  if (!(await updateWebhookSecret(platform.database.db, tenantId, sealed))) {
    throw new AppError('NotFound', `no tenant '${tenantId}'`);
  }
  return { webhookSecret };
}
