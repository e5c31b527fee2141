// SQL of manual review (style.md: SQL only in repositories): claims and reviews. The reviewer's
// decision row is the pipeline's (insertDecision), the session row and search are the sessions'.
import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { ReviewClaimsTable, ReviewsTable } from '../platform/db/schema.ts';

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

export async function listAwaitingReviews(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('session_id', 'in', sessionIds)
    .where('status', '=', 'awaiting_confirmation')
    .execute();
}
