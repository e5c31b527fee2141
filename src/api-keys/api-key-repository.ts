import { sql } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { KeyEnvironment } from './api-key-format.ts';

export interface ApiKeyRow {
  id: string;
  tenantId: string;
  label: string | null;
  environment: KeyEnvironment;
  hint: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  disabledAt: Date | null;
}

const toRow = (row: {
  id: string;
  tenant_id: string;
  label: string | null;
  environment: KeyEnvironment;
  key_hint: string;
  created_at: Date;
  last_used_at: Date | null;
  disabled_at: Date | null;
}): ApiKeyRow => ({
  id: row.id,
  tenantId: row.tenant_id,
  label: row.label,
  environment: row.environment,
  hint: row.key_hint,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  disabledAt: row.disabled_at,
});

export async function insertApiKey(
  db: Db,
  key: {
    id: string;
    tenantId: string;
    label: string | null;
    environment: KeyEnvironment;
    hash: string;
    hint: string;
  },
) {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      tenant_id: key.tenantId,
      label: key.label,
      environment: key.environment,
      key_hash: key.hash,
      key_hint: key.hint,
    })
    .execute();
}

export async function findApiKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  return row && toRow(row);
}

export async function findApiKey(db: Db, keyId: string): Promise<ApiKeyRow | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  return row && toRow(row);
}

export async function listApiKeys(db: Db, tenantId: string): Promise<ApiKeyRow[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .execute();
  return rows.map(toRow);
}

/** Returns the key's tenant, or undefined when there is no such key. */
export async function disableApiKey(db: Db, keyId: string, at: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ disabled_at: sql<Date>`coalesce(disabled_at, ${at})` })
    .where('id', '=', keyId)
    .returning('tenant_id')
    .executeTakeFirst();
  return row?.tenant_id;
}

/** Moves last_used_at forward only when it is older than `staleBefore`: at most one write a minute per key. */
export async function touchApiKey(db: Db, keyId: string, at: Date, staleBefore: Date) {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

/**
 * For a statement of another capability that may run only while an API key is enabled (the
 * create-session insert, sessions/session-repository.ts): SQL true when key `keyParam` of tenant
 * `tenantParam` exists and is not disabled, at the statement's snapshot. The arguments are the
 * caller's placeholders (`$11`), so the caller's statement stays one constant prepared text.
 */
export const enabledApiKeyCondition = (keyParam: string, tenantParam: string) =>
  `EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${keyParam} AND k.tenant_id = ${tenantParam} AND k.disabled_at IS NULL)`;
