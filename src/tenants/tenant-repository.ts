import type { Db } from '../platform/db/open-database.ts';

export interface TenantRow {
  id: string;
  name: string;
  callbackUrlPrefixes: string[];
  webhookSecretEnc: string;
  settings: Record<string, unknown>;
  createdAt: Date;
}

export async function insertTenant(
  db: Db,
  tenant: { id: string; name: string; callbackUrlPrefixes: string[]; webhookSecretEnc: string },
) {
  await db
    .insertInto('tenants')
    .values({
      id: tenant.id,
      name: tenant.name,
      callback_url_prefixes: tenant.callbackUrlPrefixes,
      webhook_secret_enc: tenant.webhookSecretEnc,
    })
    .execute();
}

export async function findTenant(db: Db, tenantId: string): Promise<TenantRow | undefined> {
  const row = await db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      callbackUrlPrefixes: row.callback_url_prefixes,
      webhookSecretEnc: row.webhook_secret_enc,
      settings: row.settings,
      createdAt: row.created_at,
    }
  );
}

/** Adds a prefix unless present; returns false when the tenant does not exist. */
export async function addCallbackPrefix(db: Db, tenantId: string, prefix: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('tenants')
      .select('callback_url_prefixes')
      .where('id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return false;
    if (!row.callback_url_prefixes.includes(prefix)) {
      await trx
        .updateTable('tenants')
        .set({ callback_url_prefixes: [...row.callback_url_prefixes, prefix], updated_at: new Date() })
        .where('id', '=', tenantId)
        .execute();
    }
    return true;
  });
}

/** Replaces the webhook secret's ciphertext; returns false when the tenant does not exist. */
export async function updateWebhookSecret(
  db: Db,
  tenantId: string,
  webhookSecretEnc: string,
): Promise<boolean> {
  const result = await db
    .updateTable('tenants')
    .set({ webhook_secret_enc: webhookSecretEnc, updated_at: new Date() })
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
