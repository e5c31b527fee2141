// SQL of manual review (style.md: SQL only in repositories): claims, reviews, the reviewer's
// decision row, and the session search behind the console's lists.
import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { ReviewClaimsTable, ReviewsTable, VerificationStatus } from '../platform/db/schema.ts';

export type ClaimRow = Selectable<ReviewClaimsTable>;
export type ReviewRow = Selectable<ReviewsTable>;

/** The claim on a session, expired or not (the caller compares expires_at with its clock). */
export async function findClaim(db: Db, sessionId: string): Promise<ClaimRow | undefined> {
  return db.selectFrom('review_claims').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}

export async function listLiveClaims(db: Db, sessionIds: string[], now: Date): Promise<ClaimRow[]> {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('review_claims')
    .selectAll()
    .where('session_id', 'in', sessionIds)
    .where('expires_at', '>', now)
    .execute();
}

export async function saveClaim(db: Db, claim: ClaimRow): Promise<void> {
  await db
    .insertInto('review_claims')
    .values(claim)
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet({
        user_id: claim.user_id,
        reviewer_email: claim.reviewer_email,
        claimed_at: claim.claimed_at,
        expires_at: claim.expires_at,
      }),
    )
    .execute();
}

export async function deleteClaim(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('review_claims').where('session_id', '=', sessionId).execute();
}

export async function listReviews(db: Db, sessionId: string): Promise<ReviewRow[]> {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'asc')
    .execute();
}

export async function findReview(db: Db, tenantId: string, reviewId: string): Promise<ReviewRow | undefined> {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', reviewId)
    .executeTakeFirst();
}

export async function insertReview(db: Db, review: ReviewRow): Promise<void> {
  await db.insertInto('reviews').values(review).execute();
}

export async function updateReviewStatus(
  db: Db,
  reviewId: string,
  changes: Pick<ReviewRow, 'status' | 'decided_at'> &
    Partial<Pick<ReviewRow, 'confirmed_by' | 'confirmed_by_user_id'>>,
): Promise<void> {
  await db.updateTable('reviews').set(changes).where('id', '=', reviewId).execute();
}

/** The automatic decisions of a session, newest first. */
export async function listAutomaticDecisions(db: Db, sessionId: string) {
  return db
    .selectFrom('decisions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', 'automatic')
    .orderBy('generation', 'desc')
    .execute();
}

export async function setVerificationStatus(
  db: Db,
  sessionId: string,
  status: VerificationStatus,
  now: Date,
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ verification_status: status, updated_at: now })
    .where('id', '=', sessionId)
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
  /** The document number's keyed hash under every key of the keyring (session_identity_keys). */
  documentNumberHashes?: readonly string[] | undefined;
}

const likePrefix = (value: string) => `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Newest first; `before` is the last session id of the previous page. */
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
  if (filters.documentNumberHashes) {
    const hashes = filters.documentNumberHashes;
    query = query.where('s.id', 'in', (eb) =>
      eb
        .selectFrom('session_identity_keys as k')
        .select('k.session_id')
        .where('k.tenant_id', '=', tenantId)
        .where('k.document_number_hash', 'in', hashes.length > 0 ? [...hashes] : ['']),
    );
  }
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

/** The reason of each session's latest decision (automatic or a reviewer's). */
export async function latestDecisionReasons(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return new Map<string, { reason: string; kind: string }>();
  const rows = await db
    .selectFrom('decisions')
    .select(['session_id', 'reason', 'kind', 'decided_at', 'generation'])
    .where('session_id', 'in', sessionIds)
    .orderBy('decided_at', 'asc')
    .orderBy('generation', 'asc')
    .execute();
  return new Map(rows.map((r) => [r.session_id, { reason: r.reason, kind: r.kind }]));
}

export async function listAwaitingReviews(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('session_id', 'in', sessionIds)
    .where('status', '=', 'awaiting_confirmation')
    .execute();
}

/** The stored OCR results (encrypted envelopes) of these sessions, for the identity search. */
export async function listOcrResultRows(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('check_results')
    .select(['session_id', 'check_id', 'result_enc'])
    .where('session_id', 'in', sessionIds)
    .where('check_id', '=', 'ocr')
    .where('status', '<>', 'failed')
    .execute();
}
