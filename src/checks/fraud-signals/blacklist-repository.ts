// SQL of the tenant blacklist (style.md: SQL only in repositories). Conditions arrive encrypted.
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/open-database.ts';
import type { BlacklistEntriesTable } from '../../platform/db/schema.ts';

export type BlacklistEntryRow = Selectable<BlacklistEntriesTable>;

/** A tenant's entries are compared in memory; this bounds the work of one fraud check. */
export const MAX_BLACKLIST_ENTRIES = 5000;

export async function listBlacklistRows(db: Db, tenantId: string): Promise<BlacklistEntryRow[]> {
  return db
    .selectFrom('blacklist_entries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(MAX_BLACKLIST_ENTRIES)
    .execute();
}

export async function countBlacklistRows(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('blacklist_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findBlacklistRow(db: Db, tenantId: string, id: string) {
  return db
    .selectFrom('blacklist_entries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertBlacklistRow(db: Db, row: BlacklistEntryRow): Promise<void> {
  await db.insertInto('blacklist_entries').values(row).execute();
}

export async function updateBlacklistRow(db: Db, row: BlacklistEntryRow): Promise<void> {
  const { id, tenant_id, created_at, ...changes } = row;
  await db
    .updateTable('blacklist_entries')
    .set(changes)
    .where('tenant_id', '=', tenant_id)
    .where('id', '=', id)
    .execute();
}

export async function deleteBlacklistRow(db: Db, tenantId: string, id: string): Promise<void> {
  await db.deleteFrom('blacklist_entries').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}
