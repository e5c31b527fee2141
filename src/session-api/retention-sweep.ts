// The periodic retention sweep (tenants.settings.retentionDays, docs/console-api.md "Settings"):
// a finished session older than its tenant's retention loses its personal data — images, personal
// and OCR data, face descriptors, identity keys, webhook bodies — and keeps its row, statuses,
// decisions and audit trail, so GET still answers (personal fields null) and statistics hold.
// Batches run in one transaction each with the sessions locked SKIP LOCKED: two workers never
// erase the same session, and an erased session (data_erased_at) is never picked again.
import { recordAudit } from '../actors/index.ts';
import { DEFAULT_RETENTION_DAYS } from '../domain/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import type { Platform } from '../platform/platform.ts';
import { lockErasableSessions } from '../sessions/index.ts';
import { eraseSessionData, listSessionBlobKeys } from './erase-session-data.ts';

export const RETENTION_SWEEP_INTERVAL_MS = 10 * 60_000;
export const RETENTION_BATCH = 100;

/** Erases one batch; returns how many sessions it erased (0: nothing was due). */
export function eraseOneBatch(platform: Platform, limit = RETENTION_BATCH): Promise<number> {
  const now = platform.now();
  return platform.database.db.transaction().execute(async (trx) => {
    const sessions = await lockErasableSessions(trx, now, DEFAULT_RETENTION_DAYS, limit);
    if (sessions.length === 0) return 0;
    const ids = sessions.map((s) => s.id);
    // Blobs go first: should the transaction then fail, the rows still name them and the next
    // sweep deletes them again (deleting a missing blob is not an error).
    const store = openBlobStore(platform.config, platform.keyring);
    for (const key of await listSessionBlobKeys(trx, ids)) await store.deleteBlob(key);
    await eraseSessionData(trx, ids, now);
    for (const session of sessions) {
      await recordAudit(trx, platform, {
        actor: 'system',
        tenantId: session.tenant_id,
        action: 'session.data.erase',
        targetType: 'session',
        targetId: session.id,
        after: { dataErasedAt: now.toISOString(), reason: 'retention' },
      });
    }
    return sessions.length;
  });
}

/** Erases every due session, batch after batch; returns how many. */
export async function sweepRetention(platform: Platform): Promise<number> {
  let total = 0;
  for (let n = await eraseOneBatch(platform); n > 0; n = await eraseOneBatch(platform)) total += n;
  return total;
}

/** Runs the sweep now and then every interval until the returned function is called. */
export function startRetentionSweep(platform: Platform, onError: (error: unknown) => void): () => void {
  let running = false;
  const run = () => {
    if (running) return; // a long backlog outlasting the interval is not swept twice at once
    running = true;
    sweepRetention(platform)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
  run();
  const timer = setInterval(run, RETENTION_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
