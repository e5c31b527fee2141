// Tenant setup and key management with their audit rows: the service functions of src/tenants and
// src/api-keys run in one transaction with the row that records them. The console's routes and the
// CLI (actor 'cli') both call these, so every path that changes these things leaves a record.

import { type Actor, recordAudit } from '../actors/index.ts';
import { createApiKey, disableTenantApiKey } from '../api-keys/index.ts';
import { inTransaction } from '../platform/db/in-transaction.ts';
import type { Platform } from '../platform/platform.ts';
import {
  allowCallbackPrefix,
  createTenant,
  disallowCallbackPrefix,
  rotateWebhookSecret,
  showTenant,
  type TenantView,
} from '../tenants/index.ts';

export function createTenantAudited(
  platform: Platform,
  actor: Actor,
  input: { name: string; callbackUrlPrefixes: string[] },
): Promise<{ tenantId: string; webhookSecret: string }> {
  return inTransaction(platform, async (tx) => {
    const created = await createTenant(tx, input);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId: created.tenantId,
      action: 'tenant.create',
      targetType: 'tenant',
      targetId: created.tenantId,
      after: { ...(await showTenant(tx, created.tenantId)), webhookSecret: created.webhookSecret },
    });
    return created;
  });
}

export function changeCallbackPrefixAudited(
  platform: Platform,
  actor: Actor,
  change: { tenantId: string; prefix: string; add: boolean },
): Promise<TenantView> {
  return inTransaction(platform, async (tx) => {
    const before = await showTenant(tx, change.tenantId);
    const after = change.add
      ? await allowCallbackPrefix(tx, change.tenantId, change.prefix)
      : await disallowCallbackPrefix(tx, change.tenantId, change.prefix);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId: change.tenantId,
      action: change.add ? 'tenant.callback_prefix.add' : 'tenant.callback_prefix.remove',
      targetType: 'tenant',
      targetId: change.tenantId,
      before: { callbackUrlPrefixes: before.callbackUrlPrefixes },
      after: { callbackUrlPrefixes: after.callbackUrlPrefixes },
    });
    return after;
  });
}

export function rotateWebhookSecretAudited(
  platform: Platform,
  actor: Actor,
  tenantId: string,
): Promise<{ webhookSecret: string }> {
  return inTransaction(platform, async (tx) => {
    const rotated = await rotateWebhookSecret(tx, tenantId);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId,
      action: 'tenant.webhook_secret.rotate',
      targetType: 'tenant',
      targetId: tenantId,
      before: { webhookSecret: 'old' },
      after: rotated,
    });
    return rotated;
  });
}

export function createApiKeyAudited(
  platform: Platform,
  actor: Actor,
  tenantId: string,
  label?: string,
): Promise<{ keyId: string; apiKey: string }> {
  return inTransaction(platform, async (tx) => {
    const created = await createApiKey(tx, tenantId, label);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId,
      action: 'api_key.create',
      targetType: 'api_key',
      targetId: created.keyId,
      after: { ...created, label: label ?? null },
    });
    return created;
  });
}

/** `tenantId` undefined: any tenant's key (the CLI); the row records the key's own tenant. */
export function disableApiKeyAudited(platform: Platform, actor: Actor, keyId: string, tenantId?: string) {
  return inTransaction(platform, async (tx) => {
    const { before, after, tenantId: keyTenant } = await disableTenantApiKey(tx, keyId, tenantId);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId: keyTenant,
      action: 'api_key.disable',
      targetType: 'api_key',
      targetId: keyId,
      before: { disabledAt: before.disabledAt },
      after: { disabledAt: after.disabledAt },
    });
    return after;
  });
}
