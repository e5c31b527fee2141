// POST /v1/verification-sessions/{sessionId}/redact: erases a finished session's personal data and
// images on the tenant's request, exactly as the retention sweep does when the retention period
// ends (erase-session-data.ts): the row, statuses, decisions and audit trail stay. A session still
// being processed or waiting for review is refused (409): its checks or its reviewer need the data.

import { recordAudit } from '../actors/index.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { effectiveStatus, loadCallerSession, setSessionStatus } from '../sessions/index.ts';
import { eraseSessionData, listSessionBlobKeys } from './erase-session-data.ts';

export async function redactSession(platform: Platform, caller: ApiCaller, sessionId: string): Promise<void> {
  await platform.database.db.transaction().execute(async (trx) => {
    const session = await loadCallerSession(trx, caller, sessionId, true);
    if (session.data_erased_at) return;
    const now = platform.now();
    const status = effectiveStatus(session, now);
    const finished =
      session.verification_status === 'approved' ||
      session.verification_status === 'rejected' ||
      status === 'expired' ||
      status === 'failed';
    if (!finished) throw new AppError('SessionNotRedactable');
    // Blobs first, as the sweep: should the transaction fail, the rows still name them.
    const store = openBlobStore(platform.config, platform.keyring);
    for (const key of await listSessionBlobKeys(trx, [sessionId])) await store.deleteBlob(key);
    await eraseSessionData(trx, [sessionId], now);
    // An unsubmitted session past its time is expired from now on in the table too.
    if (status !== session.status) await setSessionStatus(trx, sessionId, status, now);
    await recordAudit(trx, platform, {
      actor: `api_key:${caller.keyId}`,
      tenantId: caller.tenantId,
      action: 'session.data.erase',
      targetType: 'session',
      targetId: sessionId,
      after: { dataErasedAt: now.toISOString(), reason: 'redact' },
    });
  });
}
