// POST /v1/verification-sessions/{sessionId}/cancel: the tenant ends a session its user has not
// submitted. It becomes `expired` (interface §3.1 has no other end for an unfinished session) with
// cancelledAt set; the link and the flow cookie stop working at once, since the hosted flow lets
// no one into an expired session (enter-flow.ts, flow-session.ts). Cancelling again is a no-op.

import { recordAudit } from '../actors/index.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { effectiveStatus, loadCallerSession } from './session-access.ts';
import { EXPIRABLE_STATUSES } from './session-repository.ts';

export async function cancelSession(platform: Platform, caller: ApiCaller, sessionId: string): Promise<void> {
  await platform.database.db.transaction().execute(async (trx) => {
    // Under the row lock: a submission committing at the same moment either wins (409) or waits.
    const session = await loadCallerSession(trx, caller, sessionId, true);
    if (session.cancelled_at) return;
    const now = platform.now();
    const unfinished =
      (EXPIRABLE_STATUSES as readonly string[]).includes(session.status) &&
      !session.submitted_at &&
      effectiveStatus(session, now) !== 'expired';
    if (!unfinished) throw new AppError('SessionNotCancellable');
    await trx
      .updateTable('verification_sessions')
      .set({
        status: 'expired',
        cancelled_at: now,
        expires_at: now,
        verification_url_expires_at:
          session.verification_url_expires_at < now ? session.verification_url_expires_at : now,
        flow_cookie_hash: null,
        updated_at: now,
      })
      .where('id', '=', sessionId)
      .execute();
    await recordAudit(trx, platform, {
      actor: `api_key:${caller.keyId}`,
      tenantId: caller.tenantId,
      action: 'session.cancel',
      targetType: 'session',
      targetId: sessionId,
      before: { status: session.status },
      after: { status: 'expired', cancelledAt: now.toISOString() },
    });
  });
}
