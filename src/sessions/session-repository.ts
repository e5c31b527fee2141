import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { Tables, VerificationSessionsTable } from '../platform/db/schema.ts';

export type SessionRow = Selectable<VerificationSessionsTable>;

/** Statuses from which a session can still expire (design.md "Session status"). */
export const EXPIRABLE_STATUSES = ['pending', 'in_progress', 'liveness_success'] as const;

export async function insertSession(
  db: Db,
  session: {
    id: string;
    tenantId: string;
    callbackUrl: string;
    clientIp: string | null;
    state: string | null;
    preRegisteredInfoEnc: string | null;
    linkTokenHash: string;
    verificationUrlEnc: string;
    verificationUrlExpiresAt: Date;
    createdAt: Date;
    expiresAt: Date;
  },
) {
  await db
    .insertInto('verification_sessions')
    .values({
      id: session.id,
      tenant_id: session.tenantId,
      callback_url: session.callbackUrl,
      client_ip: session.clientIp,
      state: session.state,
      pre_registered_info_enc: session.preRegisteredInfoEnc,
      link_token_hash: session.linkTokenHash,
      verification_url_enc: session.verificationUrlEnc,
      verification_url_expires_at: session.verificationUrlExpiresAt,
      created_at: session.createdAt,
      updated_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * Not scoped to a tenant: the caller tells "unknown" (404) from "another tenant's" (403). `lock`
 * (inside a transaction) holds the row until it ends.
 */
export async function findSession(
  db: Kysely<Tables>,
  sessionId: string,
  lock = false,
): Promise<SessionRow | undefined> {
  const query = db.selectFrom('verification_sessions').selectAll().where('id', '=', sessionId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** Marks every session whose time ran out before submission as expired; returns them. */
export async function expireSessions(
  db: Db,
  now: Date,
): Promise<{ id: string; tenant_id: string; expires_at: Date }[]> {
  return db
    .updateTable('verification_sessions')
    .set({ status: 'expired', updated_at: now })
    .where('status', 'in', EXPIRABLE_STATUSES)
    .where('submitted_at', 'is', null)
    .where('expires_at', '<=', now)
    .returning(['id', 'tenant_id', 'expires_at'])
    .execute();
}
