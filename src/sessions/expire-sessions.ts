// The periodic sweep that writes `expired` (issue 3 item 6). GET already shows the right status
// before it runs (session-access.ts); the sweep makes it true in the table for lists and exports.
import type { Platform } from '../platform/platform.ts';
import { expireSessions } from './session-repository.ts';

export const EXPIRY_SWEEP_INTERVAL_MS = 30_000;

export function sweepExpiredSessions(platform: Platform): Promise<number> {
  return expireSessions(platform.database.db, platform.now());
}

/** Runs the sweep now and then every interval until the returned function is called. */
export function startExpirySweep(platform: Platform, onError: (error: unknown) => void): () => void {
  const run = () => void sweepExpiredSessions(platform).catch(onError);
  run();
  const timer = setInterval(run, EXPIRY_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
