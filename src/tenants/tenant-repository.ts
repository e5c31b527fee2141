import { type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { TenantsTable } from '../platform/db/schema.ts';

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
  return row && toTenantRow(row);
}

/** The tenant's settings ({} for a tenant that does not exist). */
export async function findTenantSettings(db: Db, tenantId: string): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('tenants').select('settings').where('id', '=', tenantId).executeTakeFirst();
  return row?.settings ?? {};
}

/** Which of these tenants have the boolean setting `name` turned on. */
export async function tenantsWithSettingOn(
  db: Db,
  tenantIds: readonly string[],
  name: string,
): Promise<Set<string>> {
  if (tenantIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('tenants')
    .select('id')
    .where('id', 'in', [...tenantIds])
    .where(sql<boolean>`settings->>${name} = 'true'`)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * For a statement of another capability that may run only while a callback prefix is allowed (the
 * create-session insert): SQL true when tenant `tenantParam` lists `prefixParam` among its callback
 * URL prefixes, at the statement's snapshot. The arguments are the caller's placeholders.
 */
export const callbackPrefixAllowedCondition = (tenantParam: string, prefixParam: string) =>
  `EXISTS (SELECT 1 FROM tenants t WHERE t.id = ${tenantParam} AND ${prefixParam} = ANY (t.callback_url_prefixes))`;

const toTenantRow = (row: Selectable<TenantsTable>): TenantRow => ({
  id: row.id,
  name: row.name,
  callbackUrlPrefixes: row.callback_url_prefixes,
  webhookSecretEnc: row.webhook_secret_enc,
  settings: row.settings,
  createdAt: row.created_at,
});

/**
 * Adds a prefix unless present; returns false when the tenant does not exist. One UPDATE, so it
 * is atomic on its own and can run inside a caller's transaction.
 */
export async function addCallbackPrefix(db: Db, tenantId: string, prefix: string): Promise<boolean> {
  const result = await db
    .updateTable('tenants')
    .set({
      callback_url_prefixes: sql<string[]>`CASE WHEN ${prefix} = ANY(callback_url_prefixes)
        THEN callback_url_prefixes ELSE array_append(callback_url_prefixes, ${prefix}) END`,
      updated_at: new Date(),
    })
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes a prefix; false when the tenant does not exist or does not have it. */
export async function removeCallbackPrefix(db: Db, tenantId: string, prefix: string): Promise<boolean> {
  const result = await db
    .updateTable('tenants')
    .set({
      callback_url_prefixes: sql<string[]>`array_remove(callback_url_prefixes, ${prefix})`,
      updated_at: new Date(),
    })
    .where('id', '=', tenantId)
    .where(sql<boolean>`${prefix} = ANY(callback_url_prefixes)`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listTenants(db: Db): Promise<TenantRow[]> {
  const rows = await db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toTenantRow);
}

/** Replaces the settings document (the console writes it whole, after validation). */
export async function updateTenantSettings(
  db: Db,
  tenantId: string,
  settings: Record<string, unknown>,
): Promise<boolean> {
  const result = await db
    .updateTable('tenants')
    .set({ settings: JSON.stringify(settings), updated_at: new Date() })
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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
