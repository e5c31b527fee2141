// The periodic sweep that writes `expired` (interface §3.1). GET already shows the right status
// before it runs (session-access.ts); the sweep makes it true in the table for lists and exports.
// Tenants who turned on verification.expired (settings webhookExpiredEvent) get it for each
// session the sweep expires, in the same transaction; a cancelled session sends none (the tenant
// ended it).
import type { Platform } from '../platform/platform.ts';
import { tenantsWithSettingOn } from '../tenants/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { expireSessions } from './session-repository.ts';

export const EXPIRY_SWEEP_INTERVAL_MS = 30_000;

export function sweepExpiredSessions(platform: Platform): Promise<number> {
  return platform.database.db.transaction().execute(async (trx) => {
    const now = platform.now();
    const expired = await expireSessions(trx, now);
    if (expired.length === 0) return 0;
    const optedIn = await tenantsWithSettingOn(
      trx,
      [...new Set(expired.map((s) => s.tenant_id))],
      'webhookExpiredEvent',
    );
    for (const session of expired.filter((s) => optedIn.has(s.tenant_id))) {
      await recordWebhookEvent(
        trx,
        platform,
        'expired',
        {
          verificationId: session.id,
          tenantId: session.tenant_id,
          expiresAt: session.expires_at,
          processedAt: now,
        },
        session,
      );
    }
    return expired.length;
  });
}

/** Runs the sweep now and then every interval until the returned function is called. */
export function startExpirySweep(platform: Platform, onError: (error: unknown) => void): () => void {
  const run = () => void sweepExpiredSessions(platform).catch(onError);
  run();
  const timer = setInterval(run, EXPIRY_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
