import { CompiledQuery, type Kysely, type Selectable } from 'kysely';
import { enabledApiKeyCondition } from '../api-keys/index.ts';
import { type Db, preparedStatement } from '../platform/db/open-database.ts';
import type { Tables, VerificationSessionsTable } from '../platform/db/schema.ts';
import { callbackPrefixAllowedCondition } from '../tenants/index.ts';

export type SessionRow = Selectable<VerificationSessionsTable>;

/** Statuses from which a session can still expire (docs/decisions.md "Session status"). */
export const EXPIRABLE_STATUSES = ['pending', 'in_progress', 'liveness_success'] as const;

export interface NewSession {
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
}

// One statement that is also the request's authorisation: the row goes in only while the API key is
// enabled and its tenant still allows the callback prefix, so create-session needs no read before
// it (create-session.ts). The two conditions are their tables' owners' (api-keys, tenants), joined
// into this text once at load: constant, prepared once per connection, nothing to build or plan per
// request.
const INSERT_SESSION_FOR_KEY = preparedStatement(
  'insert_session_for_key',
  `
INSERT INTO verification_sessions (id, tenant_id, callback_url, client_ip, state, pre_registered_info_enc,
  link_token_hash, verification_url_enc, verification_url_expires_at, created_at, updated_at, expires_at)
SELECT $1::text, $12::text, $2::text, $3::text, $4::text, $5::text,
  $6::text, $7::text, $8::timestamptz, $9::timestamptz, $9::timestamptz, $10::timestamptz
WHERE ${enabledApiKeyCondition('$11::text', '$12::text')}
  AND ${callbackPrefixAllowedCondition('$12::text', '$13::text')}
RETURNING id`,
);

/**
 * Inserts the session when key `keyId` of the session's tenant is enabled and `callbackUrlPrefix`
 * is among the tenant's prefixes, at the time of the statement; returns false (nothing written)
 * otherwise.
 */
export async function insertSessionForKey(
  db: Db,
  session: NewSession,
  guard: { keyId: string; callbackUrlPrefix: string },
): Promise<boolean> {
  const result = await db.executeQuery(
    CompiledQuery.raw(INSERT_SESSION_FOR_KEY, [
      session.id,
      session.callbackUrl,
      session.clientIp,
      session.state,
      session.preRegisteredInfoEnc,
      session.linkTokenHash,
      session.verificationUrlEnc,
      session.verificationUrlExpiresAt,
      session.createdAt,
      session.expiresAt,
      guard.keyId,
      session.tenantId,
      guard.callbackUrlPrefix,
    ]),
  );
  return result.rows.length === 1;
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
