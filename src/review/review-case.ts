// What the console shows of sessions (docs/console-api.md): the searchable list, the review queue
// (oldest first) and a case: the /v1 detail plus images, the field comparison, the decision with
// its thresholds, the claim, the reviews and the webhook events. Built from the existing readers.

import { listSessionImages } from '../hosted-flow/index.ts';
import { compareIdentityFields, type IdentityFields } from '../japanese/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { getSessionDetail } from '../sessions/get-session-detail.ts';
import { findSession, type SessionRow } from '../sessions/session-repository.ts';
import { listSessionWebhookEvents } from '../webhooks/index.ts';
import type { SessionQuery } from './review.schemas.ts';
import { claimView } from './review-claims.ts';
import {
  findClaim,
  latestDecisionReasons,
  listAutomaticDecisions,
  listAwaitingReviews,
  listLiveClaims,
  listReviews,
  type SessionFilters,
  searchSessions,
} from './review-repository.ts';
import { reviewView } from './submit-review.ts';

const DEFAULT_LIMIT = 50;

/** A session of this tenant, or 404 (another tenant's id is as unknown as a made-up one). */
export async function loadCase(platform: Platform, tenantId: string, sessionId: string): Promise<SessionRow> {
  const session = await findSession(platform.database.db, sessionId);
  if (!session || session.tenant_id !== tenantId)
    throw new AppError('NotFound', 'No verification session with that id');
  return session;
}

function parseQuery(query: SessionQuery): { filters: SessionFilters; limit: number } {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  return {
    limit,
    filters: {
      status: query.status,
      verificationStatus: query.verificationStatus,
      documentType: query.documentType,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      ip: query.ip,
      q: query.q,
    },
  };
}

async function listItems(platform: Platform, tenantId: string, query: SessionQuery, queue: boolean) {
  const { filters, limit } = parseQuery(query);
  const db = platform.database.db;
  const rows = await searchSessions(
    db,
    tenantId,
    queue ? { ...filters, verificationStatus: 'pending_review' } : filters,
    {
      limit,
      before: query.before,
      oldestFirst: queue,
    },
  );
  const ids = rows.map((r) => r.id);
  const claims = new Map((await listLiveClaims(db, ids, platform.now())).map((c) => [c.session_id, c]));
  const reasons = await latestDecisionReasons(db, ids);
  const waiting = new Map((await listAwaitingReviews(db, ids)).map((r) => [r.session_id, r]));
  const sessions = rows.map((r) => {
    const claim = claims.get(r.id);
    const awaiting = waiting.get(r.id);
    return {
      sessionId: r.id,
      status: r.status,
      verificationStatus: r.verification_status,
      decisionReason: reasons.get(r.id)?.reason ?? null,
      documentType: r.document_type,
      clientIpAddress: r.client_ip,
      createdAt: r.created_at.toISOString(),
      submittedAt: r.submitted_at?.toISOString() ?? null,
      claim: claim ? claimView(claim) : null,
      awaitingConfirmation: awaiting ? reviewView(awaiting) : null,
    };
  });
  return { sessions, next: rows.length === limit ? (ids.at(-1) ?? null) : null };
}

export const listCaseSessions = (platform: Platform, tenantId: string, query: SessionQuery) =>
  listItems(platform, tenantId, query, false);

export const listReviewQueue = (platform: Platform, tenantId: string, query: SessionQuery) =>
  listItems(platform, tenantId, query, true);

const FIELDS = ['lastName', 'firstName', 'birthDate', 'address'] as const;

/** Per field: what OCR read, what the user typed, what the tenant registered, and which agree. */
function compareSources(
  ocr: IdentityFields | null,
  userInput: IdentityFields | null,
  pre: IdentityFields | null,
) {
  const versus = (expected: IdentityFields | null) =>
    expected && ocr ? compareIdentityFields(expected, ocr) : null;
  const user = versus(userInput);
  const registered = versus(pre);
  return FIELDS.map((field) => ({
    field,
    ocr: ocr?.[field] ?? null,
    userInput: userInput?.[field] ?? null,
    preRegistered: pre?.[field] ?? null,
    userInputMatchesOcr: user?.[field] ?? null,
    preRegisteredMatchesOcr: registered?.[field] ?? null,
  }));
}

export async function readCase(platform: Platform, tenantId: string, sessionId: string) {
  const session = await loadCase(platform, tenantId, sessionId);
  const detail = await getSessionDetail(platform, { tenantId, keyId: 'console' }, sessionId);
  const db = platform.database.db;
  const [automatic] = await listAutomaticDecisions(db, sessionId);
  const claim = await findClaim(db, sessionId);
  const base = `/console/api/tenants/${tenantId}/sessions/${sessionId}/images`;
  const ocr = (detail.ocrResult?.payload ?? null) as IdentityFields | null;
  return {
    ...detail,
    images: (await listSessionImages(platform, session)).map((name) => ({ name, url: `${base}/${name}` })),
    comparison: compareSources(ocr, detail.userInput ?? null, detail.preRegisteredInfo ?? null),
    automaticDecision: automatic
      ? {
          status: automatic.status,
          reason: automatic.reason,
          metadata: automatic.metadata,
          thresholds: automatic.thresholds,
          generation: automatic.generation,
          decidedAt: automatic.decided_at.toISOString(),
        }
      : null,
    claim: claim && claim.expires_at > platform.now() ? claimView(claim) : null,
    reviews: (await listReviews(db, sessionId)).map(reviewView),
    webhookEvents: (await listSessionWebhookEvents(platform, sessionId)).map((e) => ({
      eventId: e.eventId,
      event: e.event,
      state: e.state,
      createdAt: e.createdAt,
      attempts: e.attempts.length,
      lastStatusCode: e.attempts.at(-1)?.httpStatus ?? null,
    })),
  };
}
