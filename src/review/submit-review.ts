// A reviewer's decision on a pending_review verification (interface §3.2, §6.2), shared by
// the console and the tenant API. One transaction under the session's row lock: the review, the
// decision row (kind = 'review', which makes reprocess answer DecisionFinal), the verification
// status, the webhook event with the review field, the audit row and the end of the claim commit
// together or not at all; a second reviewer racing for the same case finds the first one's work.

import { recordAudit } from '../actors/index.ts';
import { NO_VERDICT } from '../checks/index.ts';
import type { DecisionMetadata } from '../domain/index.ts';
import {
  insertDecision,
  listAutomaticDecisions,
  type PipelineDetail,
  readPipelineDetail,
} from '../pipeline/index.ts';
import { newId, randomBase62 } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession, type SessionRow, setVerificationStatus } from '../sessions/index.ts';
import { findTenantSettings } from '../tenants/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { currentReasonCode, type ReasonCode, reasonFitsDecision } from './review-reasons.ts';
import {
  deleteClaim,
  findClaim,
  findReview,
  insertReview,
  listReviews,
  type ReviewRow,
  updateReviewStatus,
} from './review-repository.ts';

export interface ReviewRequest {
  tenantId: string;
  sessionId: string;
  decision: 'approved' | 'rejected';
  reasonCode: ReasonCode;
  reason: string;
  /** The reviewer's e-mail address (interface §6.2 review.reviewedBy). */
  reviewedBy: string;
  /** Console reviews: the signed-in user, who must hold the claim. */
  reviewerUserId?: string | undefined;
  source: 'console' | 'api';
  /** Who the audit row names: the reviewer's e-mail, or `api_key:<keyId>`. */
  actor: string;
  ip?: string | null | undefined;
}

export interface ReviewView {
  id: string;
  sessionId: string;
  decision: 'approved' | 'rejected';
  reasonCode: ReasonCode | null;
  reason: string;
  reviewedBy: string;
  reviewedAt: string | null;
  source: 'console' | 'api';
  status: ReviewRow['status'];
  confirmedBy: string | null;
  createdAt: string;
}

export interface ReviewOutcome {
  /** final: decided; awaiting_confirmation: a second reviewer must confirm (202). */
  status: 'final' | 'awaiting_confirmation';
  review: ReviewView;
}

export const reviewView = (r: ReviewRow): ReviewView => ({
  id: r.id,
  sessionId: r.session_id,
  decision: r.decision,
  reasonCode: currentReasonCode(r.reason_code),
  reason: r.reason,
  reviewedBy: r.reviewed_by,
  reviewedAt: r.decided_at?.toISOString() ?? null,
  source: r.source,
  status: r.status,
  confirmedBy: r.confirmed_by,
  createdAt: r.created_at.toISOString(),
});

/** interface §6.2 verificationResult.documentAuthenticity, from the document spoof risk. */
const AUTHENTICITY: Record<string, string> = {
  low: 'authentic',
  medium: 'suspicious',
  high: 'not_authentic',
  // The check gave no verdict (a capture too poor to judge): the reviewer's decision stands alone.
  [NO_VERDICT.risk]: 'unverified',
};

/** The same person can not be the second reviewer, whatever the letter case of the address. */
const samePerson = (review: ReviewRow, email: string, userId: string | undefined) =>
  (userId !== undefined && review.reviewer_user_id === userId) ||
  review.reviewed_by.toLowerCase() === email.toLowerCase();

/** Loads the session for a tenant's caller: 404 unknown, 403 another tenant's (interface §7). */
async function lockTenantSession(trx: Db, tenantId: string, sessionId: string) {
  const session = await findSession(trx, sessionId, true);
  if (!session) throw new AppError('NotFound', 'No verification session with that id');
  if (session.tenant_id !== tenantId) throw new AppError('Forbidden');
  return session;
}

/**
 * holder: the console reviewer must hold the claim; free_or_holder: nobody else may hold it (the
 * tenant API, and a confirmation, which the waiting review already guards).
 */
type ClaimRule = 'holder' | 'free_or_holder';

/**
 * The checks a decision on this session needs, under its lock: no final review (DecisionFinal),
 * pending_review (SessionNotPendingReview), and the claim rules — a console reviewer must hold it,
 * the API must not decide a case someone is working on in the console.
 */
async function requireReviewable(
  platform: Platform,
  trx: Db,
  req: { tenantId: string; sessionId: string; reviewerUserId?: string | undefined },
  claimRule: ClaimRule,
) {
  const session = await lockTenantSession(trx, req.tenantId, req.sessionId);
  const reviews = await listReviews(trx, session.id);
  if (reviews.some((r) => r.status === 'final')) throw new AppError('DecisionFinal');
  if (session.verification_status !== 'pending_review') throw new AppError('SessionNotPendingReview');
  const claim = await findClaim(trx, session.id);
  const live = claim && claim.expires_at.getTime() > platform.now().getTime() ? claim : null;
  const mine = live !== null && live.user_id === req.reviewerUserId;
  if (live && !mine) throw new AppError('ReviewClaimed');
  if (claimRule === 'holder' && !mine) throw new AppError('ReviewClaimRequired');
  return { session, waiting: reviews.find((r) => r.status === 'awaiting_confirmation') ?? null };
}

export async function submitReview(platform: Platform, req: ReviewRequest): Promise<ReviewOutcome> {
  if (!reasonFitsDecision(req.reasonCode, req.decision))
    throw new AppError(
      'ValidationFailed',
      `The request is not valid: body/reasonCode ${req.reasonCode} does not explain ${req.decision === 'approved' ? 'an approval' : 'a rejection'}`,
      [{ path: 'body/reasonCode', message: `does not go with decision ${req.decision}` }],
    );
  // Read before the transaction (PGlite has one connection); the lock below re-checks the state.
  const pipeline = await readPipelineDetail(platform, req.sessionId);
  return platform.database.db.transaction().execute(async (trx) => {
    const { session, waiting } = await requireReviewable(
      platform,
      trx,
      req,
      req.source === 'console' ? 'holder' : 'free_or_holder',
    );
    const now = platform.now();
    if (waiting) {
      if (samePerson(waiting, req.reviewedBy, req.reviewerUserId))
        throw new AppError('SecondReviewerRequired');
      // A second reviewer's approval confirms the waiting one; a rejection overrules it.
      if (req.decision === 'approved') return confirmWaiting(platform, trx, waiting, req, pipeline);
      await updateReviewStatus(trx, waiting.id, { status: 'overruled', decided_at: now });
    }
    const automatic = await listAutomaticDecisions(trx, session.id);
    const settings = await findTenantSettings(trx, session.tenant_id);
    // docs/console-api.md "Second review": an approval of a case the machine once rejected.
    const needsSecond =
      req.decision === 'approved' &&
      settings.secondReviewForRejectedApproval === true &&
      automatic.some((d) => d.status === 'rejected');
    const review: ReviewRow = {
      id: newId('rv'),
      session_id: session.id,
      tenant_id: session.tenant_id,
      decision: req.decision,
      reason_code: req.reasonCode,
      reason: req.reason,
      reviewed_by: req.reviewedBy,
      reviewer_user_id: req.reviewerUserId ?? null,
      source: req.source,
      status: needsSecond ? 'awaiting_confirmation' : 'final',
      confirmed_by: null,
      confirmed_by_user_id: null,
      created_at: now,
      decided_at: needsSecond ? null : now,
    };
    await insertReview(trx, review);
    // The claim ends either way: a waiting approval is for someone else to pick up.
    await deleteClaim(trx, session.id);
    await recordAudit(trx, platform, {
      actor: req.actor,
      actorUserId: req.reviewerUserId ?? null,
      tenantId: session.tenant_id,
      action: needsSecond ? 'review.submit_for_confirmation' : 'review.decide',
      targetType: 'verification_session',
      targetId: session.id,
      before: { verificationStatus: session.verification_status },
      after: needsSecond
        ? { review: reviewView(review) }
        : { verificationStatus: req.decision, review: reviewView(review) },
      ip: req.ip ?? null,
    });
    if (needsSecond) return { status: 'awaiting_confirmation', review: reviewView(review) };
    await finalize(platform, trx, review, automatic[0], pipeline, session);
    return { status: 'final', review: reviewView(review) };
  });
}

/** `POST …/reviews/:reviewId/confirm`: a different reviewer confirms a waiting approval. */
export async function confirmReview(
  platform: Platform,
  req: {
    tenantId: string;
    reviewId: string;
    reviewedBy: string;
    reviewerUserId: string;
    actor: string;
    ip?: string | null;
  },
): Promise<ReviewOutcome> {
  const found = await findReview(platform.database.db, req.tenantId, req.reviewId);
  if (!found) throw new AppError('NotFound', 'No review with that id');
  const pipeline = await readPipelineDetail(platform, found.session_id);
  return platform.database.db.transaction().execute(async (trx) => {
    const { waiting } = await requireReviewable(
      platform,
      trx,
      { tenantId: req.tenantId, sessionId: found.session_id, reviewerUserId: req.reviewerUserId },
      'free_or_holder',
    );
    if (waiting?.id !== found.id)
      throw new AppError('NotFound', 'This review is not waiting for confirmation');
    if (samePerson(waiting, req.reviewedBy, req.reviewerUserId)) throw new AppError('SecondReviewerRequired');
    return confirmWaiting(platform, trx, waiting, req, pipeline);
  });
}

async function confirmWaiting(
  platform: Platform,
  trx: Db,
  waiting: ReviewRow,
  confirmer: {
    reviewedBy: string;
    reviewerUserId?: string | undefined;
    actor: string;
    ip?: string | null | undefined;
  },
  pipeline: PipelineDetail,
): Promise<ReviewOutcome> {
  const now = platform.now();
  const review: ReviewRow = {
    ...waiting,
    status: 'final',
    confirmed_by: confirmer.reviewedBy,
    confirmed_by_user_id: confirmer.reviewerUserId ?? null,
    decided_at: now,
  };
  await updateReviewStatus(trx, waiting.id, {
    status: 'final',
    decided_at: now,
    confirmed_by: review.confirmed_by,
    confirmed_by_user_id: review.confirmed_by_user_id,
  });
  await deleteClaim(trx, waiting.session_id);
  const session = await lockTenantSession(trx, waiting.tenant_id, waiting.session_id);
  await recordAudit(trx, platform, {
    actor: confirmer.actor,
    actorUserId: confirmer.reviewerUserId ?? null,
    tenantId: waiting.tenant_id,
    action: 'review.confirm',
    targetType: 'verification_session',
    targetId: waiting.session_id,
    before: { verificationStatus: session.verification_status, review: reviewView(waiting) },
    after: { verificationStatus: review.decision, review: reviewView(review) },
    ip: confirmer.ip ?? null,
  });
  const [automatic] = await listAutomaticDecisions(trx, waiting.session_id);
  await finalize(platform, trx, review, automatic, pipeline, session);
  return { status: 'final', review: reviewView(review) };
}

/** decision.metadata of a review's decision: its reason code (none on a review stored without one). */
function reviewMetadata(review: ReviewRow): DecisionMetadata {
  const reasonCode = currentReasonCode(review.reason_code);
  return reasonCode ? { reviewReasonCode: reasonCode } : {};
}

/** The decision row, the verification status and the §6.2 event of a final review. */
async function finalize(
  platform: Platform,
  trx: Db,
  review: ReviewRow,
  automatic: Awaited<ReturnType<typeof listAutomaticDecisions>>[number] | undefined,
  pipeline: PipelineDetail,
  session: SessionRow,
): Promise<void> {
  const livenessConfidence = session.liveness_confidence;
  const decidedAt = review.decided_at ?? platform.now();
  await insertDecision(trx, {
    kind: 'review',
    id: `dec_${randomBase62(22)}`,
    sessionId: review.session_id,
    tenantId: review.tenant_id,
    generation: automatic?.generation ?? 0,
    status: review.decision,
    reason: review.reason,
    // The automatic decision's thresholds and field comparisons stay with the session's detail.
    thresholds: automatic?.thresholds ?? {},
    preRegisteredInfoMatch: automatic?.pre_registered_info_match ?? null,
    userInputMatch: automatic?.user_input_match ?? null,
    // interface §6.2 rule 2 lets metadata be empty after manual review; the reviewer's code is
    // what a tenant's program can switch on (decision.reason is their free text).
    metadata: reviewMetadata(review),
    decidedAt,
  });
  await setVerificationStatus(trx, review.session_id, review.decision, decidedAt);
  const reasonCode = currentReasonCode(review.reason_code);
  const results = pipeline.results ?? {};
  const similarity = results.faceMatch?.similarity;
  const risk = results.documentSpoofCheck?.risk;
  await recordWebhookEvent(
    trx,
    platform,
    'review',
    {
      verificationId: review.session_id,
      tenantId: review.tenant_id,
      review: {
        id: review.id,
        decision: review.decision,
        reviewedBy: review.reviewed_by,
        reviewedAt: decidedAt,
        reason: review.reason,
        ...(reasonCode ? { reasonCode } : {}),
      },
      verificationResult: {
        ...(livenessConfidence !== null ? { livenessConfidence } : {}),
        ...(typeof similarity === 'number' ? { faceMatchConfidence: similarity } : {}),
        ...(risk && AUTHENTICITY[risk] ? { documentAuthenticity: AUTHENTICITY[risk] } : {}),
        ...(pipeline.userInputMatch !== undefined ? { userInputMatch: pipeline.userInputMatch } : {}),
        ...(pipeline.preRegisteredInfoMatch
          ? { preRegisteredInfoMatch: pipeline.preRegisteredInfoMatch }
          : {}),
      },
      results,
      decisionMetadata: reviewMetadata(review),
      processedAt: decidedAt,
    },
    session,
  );
}
