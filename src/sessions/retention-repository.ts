// SQL of the retention sweep (retention-sweep.ts): which finished sessions are past their tenant's
// retention, and the erasure of their personal data.
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

/** Every blob key the sessions' rows name: document sides, live-check frames, reference image. */
export async function listSessionBlobKeys(db: Db, sessionIds: string[]): Promise<string[]> {
  const documents = await db
    .selectFrom('session_documents')
    .select('blob_key')
    .where('session_id', 'in', sessionIds)
    .execute();
  const frames = await db
    .selectFrom('liveness_challenges')
    .select('frame_blobs')
    .where('session_id', 'in', sessionIds)
    .execute();
  const references = await db
    .selectFrom('verification_sessions')
    .select('liveness_reference_blob')
    .where('id', 'in', sessionIds)
    .execute();
  return [
    ...documents.map((r) => r.blob_key),
    ...frames.flatMap((r) => r.frame_blobs ?? []),
    ...references.flatMap((r) => (r.liveness_reference_blob ? [r.liveness_reference_blob] : [])),
  ];
}

/**
 * Removes the sessions' personal data and stamps them erased. Rows that only hold personal data
 * (check results with the OCR payload, face descriptors, identity keys, webhook bodies with their
 * attempts) are deleted. Blob keys stay: they name no one, the detail still says which images were
 * uploaded, and their URLs answer 404 once the bytes are gone.
 */
export async function eraseSessionData(db: Db, sessionIds: string[], now: Date): Promise<void> {
  await db.deleteFrom('check_results').where('session_id', 'in', sessionIds).execute();
  await db.deleteFrom('session_face_descriptors').where('session_id', 'in', sessionIds).execute();
  await db.deleteFrom('session_identity_keys').where('session_id', 'in', sessionIds).execute();
  await db
    .updateTable('session_documents')
    .set({ reading_enc: null })
    .where('session_id', 'in', sessionIds)
    .execute();
  const events = db.selectFrom('webhook_events').select('id').where('session_id', 'in', sessionIds);
  await db.deleteFrom('webhook_attempts').where('event_id', 'in', events).execute();
  await db.deleteFrom('webhook_events').where('session_id', 'in', sessionIds).execute();
  await db
    .updateTable('verification_sessions')
    .set({
      pre_registered_info_enc: null,
      user_input_enc: null,
      client_ip: null,
      first_access_ip: null,
      data_erased_at: now,
    })
    .where('id', 'in', sessionIds)
    .execute();
}
