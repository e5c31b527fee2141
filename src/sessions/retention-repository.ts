// SQL of the retention sweep (session-api/retention-sweep.ts): which finished sessions are past
// their tenant's retention. One set-based statement reads the tenants' settings, the decisions and
// the pending webhook events beside the sessions; the erasure itself asks each table's owner.
import { sql } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';

export interface ErasableSession {
  id: string;
  tenant_id: string;
}

/**
 * Locks up to `limit` sessions due for erasure; a second worker's sweep skips them (SKIP LOCKED).
 * Due: finished (decided approved/rejected, or expired/failed), not yet erased, with no webhook
 * still waiting to be delivered, and whose final moment — the last decision, else the row's last
 * update (when it became expired/failed) — is older than the tenant's retentionDays. The nested
 * CASE reads retentionDays as the console stores it and falls back to `defaultDays` otherwise.
 */
export async function lockErasableSessions(
  db: Db,
  now: Date,
  defaultDays: number,
  limit: number,
): Promise<ErasableSession[]> {
  const days = sql`CASE WHEN jsonb_typeof(t.settings->'retentionDays') = 'number' THEN
      CASE WHEN (t.settings->>'retentionDays')::numeric BETWEEN 1 AND 3650
            AND (t.settings->>'retentionDays')::numeric % 1 = 0
        THEN (t.settings->>'retentionDays')::int ELSE ${defaultDays}::int END
      ELSE ${defaultDays}::int END`;
  const result = await sql<ErasableSession>`
    SELECT s.id, s.tenant_id
    FROM verification_sessions s JOIN tenants t ON t.id = s.tenant_id
    WHERE s.data_erased_at IS NULL
      AND (s.verification_status IN ('approved', 'rejected') OR s.status IN ('expired', 'failed'))
      AND COALESCE((SELECT max(d.decided_at) FROM decisions d WHERE d.session_id = s.id), s.updated_at)
          < ${now}::timestamptz - make_interval(days => ${days})
      AND NOT EXISTS (SELECT 1 FROM webhook_events w WHERE w.session_id = s.id AND w.state = 'pending')
    ORDER BY s.id
    LIMIT ${limit}
    FOR UPDATE OF s SKIP LOCKED`.execute(db);
  return result.rows;
}
