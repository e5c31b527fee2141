// Reading a session on behalf of an API caller: 404 unknown, 403 another tenant's (interface §7).
import type { Kysely } from 'kysely';
import type { ApiCaller } from '../api-keys/index.ts';
import type { Tables } from '../platform/db/schema.ts';
import { AppError } from '../platform/http/app-error.ts';
import { EXPIRABLE_STATUSES, findSession, type SessionRow } from './session-repository.ts';

/** The caller's session (404 unknown, 403 another tenant's); `lock` holds its row for the transaction. */
export async function loadCallerSession(
  db: Kysely<Tables>,
  caller: ApiCaller,
  sessionId: string,
  lock = false,
): Promise<SessionRow> {
  const session = await findSession(db, sessionId, lock);
  if (!session) throw new AppError('NotFound', 'No verification session with that id');
  if (session.tenant_id !== caller.tenantId) throw new AppError('Forbidden');
  return session;
}

/** The status as it is now, even before the expiry sweep has written it. */
export function effectiveStatus(session: SessionRow, now: Date): SessionRow['status'] {
  const canExpire =
    (EXPIRABLE_STATUSES as readonly string[]).includes(session.status) && !session.submitted_at;
  return canExpire && session.expires_at.getTime() <= now.getTime() ? 'expired' : session.status;
}
