// Review claims (docs/console-api.md): a reviewer's 15-minute lock on a case so that two reviewers
// never decide the same one. Re-claiming by the holder extends it; an expired claim is free.
import { recordAudit } from '../actors/index.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession } from '../sessions/index.ts';
import { deleteClaim, findClaim, listReviews, saveClaim } from './review-repository.ts';

export const CLAIM_MINUTES = 15;

export interface ClaimView {
  reviewer: string;
  claimedAt: string;
  expiresAt: string;
}

export interface Reviewer {
  id: string;
  email: string;
  tenantId: string;
  ip?: string | null | undefined;
}

export const claimView = (c: { reviewer_email: string; claimed_at: Date; expires_at: Date }): ClaimView => ({
  reviewer: c.reviewer_email,
  claimedAt: c.claimed_at.toISOString(),
  expiresAt: c.expires_at.toISOString(),
});

/** 404 unknown or another tenant's (a console user sees only their tenant), under the row lock. */
async function lockCase(trx: Db, tenantId: string, sessionId: string) {
  const session = await findSession(trx, sessionId, true);
  if (!session || session.tenant_id !== tenantId)
    throw new AppError('NotFound', 'No verification session with that id');
  return session;
}

export async function claimCase(
  platform: Platform,
  reviewer: Reviewer,
  sessionId: string,
): Promise<ClaimView> {
  return platform.database.db.transaction().execute(async (trx) => {
    const session = await lockCase(trx, reviewer.tenantId, sessionId);
    if ((await listReviews(trx, sessionId)).some((r) => r.status === 'final'))
      throw new AppError('DecisionFinal');
    if (session.verification_status !== 'pending_review') throw new AppError('SessionNotPendingReview');
    const now = platform.now();
    const current = await findClaim(trx, sessionId);
    if (current && current.expires_at > now && current.user_id !== reviewer.id)
      throw new AppError('ReviewClaimed');
    const claim = {
      session_id: sessionId,
      tenant_id: reviewer.tenantId,
      user_id: reviewer.id,
      reviewer_email: reviewer.email,
      // The holder's re-claim extends from now; the first claim time is kept while it lasts.
      claimed_at:
        current && current.user_id === reviewer.id && current.expires_at > now ? current.claimed_at : now,
      expires_at: new Date(now.getTime() + CLAIM_MINUTES * 60_000),
    };
    await saveClaim(trx, claim);
    await recordAudit(trx, platform, {
      actor: reviewer.email,
      actorUserId: reviewer.id,
      tenantId: reviewer.tenantId,
      action: 'review.claim',
      targetType: 'verification_session',
      targetId: sessionId,
      after: claimView(claim),
      ip: reviewer.ip ?? null,
    });
    return claimView(claim);
  });
}

/** Only the holder releases; releasing a claim one does not hold (or none) changes nothing. */
export async function releaseCase(platform: Platform, reviewer: Reviewer, sessionId: string): Promise<void> {
  await platform.database.db.transaction().execute(async (trx) => {
    await lockCase(trx, reviewer.tenantId, sessionId);
    const current = await findClaim(trx, sessionId);
    if (!current || current.expires_at <= platform.now()) return;
    if (current.user_id !== reviewer.id) throw new AppError('ReviewClaimed');
    await deleteClaim(trx, sessionId);
    await recordAudit(trx, platform, {
      actor: reviewer.email,
      actorUserId: reviewer.id,
      tenantId: reviewer.tenantId,
      action: 'review.release',
      targetType: 'verification_session',
      targetId: sessionId,
      before: claimView(current),
      ip: reviewer.ip ?? null,
    });
  });
}
