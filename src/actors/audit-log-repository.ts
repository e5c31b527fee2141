// The audit_log table (migration 0005).
import type { Db } from '../platform/db/open-database.ts';

export interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  actorUserId: string | null;
  tenantId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export async function insertAuditRow(db: Db, row: Omit<AuditRow, 'id'>): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: row.at,
      actor: row.actor,
      actor_user_id: row.actorUserId,
      tenant_id: row.tenantId,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      before: row.before === undefined ? null : JSON.stringify(row.before),
      after: row.after === undefined ? null : JSON.stringify(row.after),
      ip: row.ip,
    })
    .execute();
}

/** Newest first; `tenantId` undefined lists every tenant's rows (operators). */
export async function listAuditRows(
  db: Db,
  filter: { tenantId?: string; limit: number; before?: string },
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.tenantId !== undefined) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: String(row.id),
    at: row.at,
    actor: row.actor,
    actorUserId: row.actor_user_id,
    tenantId: row.tenant_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    ip: row.ip,
  }));
}
