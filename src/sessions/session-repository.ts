import { CompiledQuery, type Expression, type Kysely, type Selectable } from 'kysely';
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
  /** null: the tenant's default when the flow runs. */
  verificationMethods: string[] | null;
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
  link_token_hash, verification_url_enc, verification_url_expires_at, created_at, updated_at, expires_at,
  verification_methods)
SELECT $1::text, $12::text, $2::text, $3::text, $4::text, $5::text,
  $6::text, $7::text, $8::timestamptz, $9::timestamptz, $9::timestamptz, $10::timestamptz, $14::text[]
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
      session.verificationMethods,
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

/** The session the hosted flow's cookie names. */
export async function findSessionByCookieHash(db: Db, cookieHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('verification_sessions')
    .selectAll()
    .where('flow_cookie_hash', '=', cookieHash)
    .executeTakeFirst();
}

/** Marks every session whose time ran out before submission as expired; returns them. */
export async function expireSessions(
  db: Db,
  now: Date,
): Promise<{ id: string; tenant_id: string; callback_url: string; expires_at: Date }[]> {
  return db
    .updateTable('verification_sessions')
    .set({ status: 'expired', updated_at: now })
    .where('status', 'in', EXPIRABLE_STATUSES)
    .where('submitted_at', 'is', null)
    .where('expires_at', '<=', now)
    .returning(['id', 'tenant_id', 'callback_url', 'expires_at'])
    .execute();
}

export interface SessionFilters {
  status?: string | undefined;
  verificationStatus?: string | undefined;
  documentType?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  ip?: string | undefined;
  q?: string | undefined;
  /** Only these sessions: a subquery of session ids, built by another table's owner. */
  sessionIdsIn?: Expression<string> | undefined;
}

const likePrefix = (value: string) => `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The console's session search, newest first; `before` is the last session id of the previous page. */
export async function searchSessions(
  db: Db,
  tenantId: string,
  filters: SessionFilters,
  page: { limit: number; before?: string | undefined; oldestFirst?: boolean },
) {
  let query = db
    .selectFrom('verification_sessions as s')
    .select([
      's.id',
      's.status',
      's.verification_status',
      's.document_type',
      's.client_ip',
      's.state',
      's.created_at',
      's.submitted_at',
      's.pre_registered_info_enc',
      's.user_input_enc',
    ])
    .where('s.tenant_id', '=', tenantId);
  if (filters.status) query = query.where('s.status', '=', filters.status as never);
  if (filters.verificationStatus)
    query = query.where('s.verification_status', '=', filters.verificationStatus as never);
  if (filters.documentType) query = query.where('s.document_type', '=', filters.documentType);
  if (filters.from) query = query.where('s.created_at', '>=', filters.from);
  if (filters.to) query = query.where('s.created_at', '<', filters.to);
  if (filters.ip) query = query.where('s.client_ip', '=', filters.ip);
  if (filters.q) {
    const q = filters.q;
    query = query.where((eb) => eb.or([eb('s.id', '=', q), eb('s.state', 'like', likePrefix(q))]));
  }
  if (filters.sessionIdsIn) query = query.where('s.id', 'in', filters.sessionIdsIn);
  const direction = page.oldestFirst ? 'asc' : 'desc';
  if (page.before) {
    const cursor = page.before;
    const comparison = page.oldestFirst ? '>' : '<';
    query = query.where((eb) =>
      eb(
        eb.refTuple('s.created_at', 's.id'),
        comparison,
        eb.tuple(
          eb.selectFrom('verification_sessions').select('created_at').where('id', '=', cursor),
          cursor,
        ),
      ),
    );
  }
  return query.orderBy('s.created_at', direction).orderBy('s.id', direction).limit(page.limit).execute();
}
