// What the console shows of sessions (docs/console-api.md): the searchable list, the review queue
// (oldest first) and a case: the /v1 detail plus images, the field comparison, the decision with
// its thresholds, the claim, the reviews and the webhook events. Built from the existing readers.

import { listSessionImages } from '../hosted-flow/index.ts';
import { compareIdentityFields, type IdentityFields } from '../japanese/index.ts';
import {
  latestDecisionReasons,
  listAutomaticDecisions,
  listOcrResultRows,
  sessionIdsWithDocumentNumber,
} from '../pipeline/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { getSessionDetail } from '../session-api/index.ts';
import { findSession, type SessionFilters, type SessionRow, searchSessions } from '../sessions/index.ts';
import { listSessionWebhookEvents } from '../webhooks/index.ts';
import { faceCropUrls } from './face-crops.ts';
import {
  documentNumberHashes,
  type IdentityQuery,
  identitySources,
  listedName,
  matchesIdentity,
} from './identity-search.ts';
import type { QueueQuery, SessionQuery } from './review.schemas.ts';
import { claimView } from './review-claims.ts';
import { findClaim, listAwaitingReviews, listLiveClaims, listReviews } from './review-repository.ts';
import { reviewView } from './submit-review.ts';

const DEFAULT_LIMIT = 50;
/**
 * A name or birth-date search decrypts rows in batches of `batch`, and at most `limit` rows per
 * page; `next` then continues the search where it stopped.
 */
export interface ScanLimits {
  batch: number;
  limit: number;
}
const SCAN: ScanLimits = { batch: 200, limit: 2000 };

/** A session of this tenant, or 404 (another tenant's id is as unknown as a made-up one). */
export async function loadCase(platform: Platform, tenantId: string, sessionId: string): Promise<SessionRow> {
  const session = await findSession(platform.database.db, sessionId);
  if (!session || session.tenant_id !== tenantId)
    throw new AppError('NotFound', 'No verification session with that id');
  return session;
}

type ListQuery = SessionQuery | QueueQuery;

function parseQuery(
  platform: Platform,
  tenantId: string,
  query: ListQuery,
): { filters: SessionFilters; limit: number; identity: IdentityQuery } {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  const statuses = 'status' in query || 'verificationStatus' in query ? (query as SessionQuery) : {};
  return {
    limit,
    filters: {
      status: statuses.status,
      verificationStatus: statuses.verificationStatus,
      documentType: query.documentType,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      ip: query.ip,
      q: query.q,
      sessionIdsIn: query.documentNumber
        ? sessionIdsWithDocumentNumber(
            platform.database.db,
            tenantId,
            documentNumberHashes(platform.keyring, tenantId, query.documentNumber),
          )
        : undefined,
    },
    identity: { name: query.name, birthDate: query.birthDate },
  };
}

type FoundRow = Awaited<ReturnType<typeof searchSessions>>[number];

/**
 * The page of rows matching the query: straight from SQL, or — for a name or birth date, which
 * exist only encrypted — scanning the SQL matches in order and keeping those whose decrypted
 * values match, until the page is full or SCAN_LIMIT rows were looked at.
 */
async function findRows(
  platform: Platform,
  tenantId: string,
  query: ListQuery,
  queue: boolean,
  scan: ScanLimits,
): Promise<{ rows: FoundRow[]; next: string | null }> {
  const { filters, limit, identity } = parseQuery(platform, tenantId, query);
  const db = platform.database.db;
  const scope = queue ? { ...filters, verificationStatus: 'pending_review' } : filters;
  const order = { oldestFirst: queue };
  if (identity.name === undefined && identity.birthDate === undefined) {
    const rows = await searchSessions(db, tenantId, scope, { ...order, limit, before: query.before });
    return { rows, next: rows.length === limit ? (rows.at(-1)?.id ?? null) : null };
  }
  const rows: FoundRow[] = [];
  let cursor = query.before;
  let scanned = 0;
  while (scanned < scan.limit) {
    const batch = await searchSessions(db, tenantId, scope, { ...order, limit: scan.batch, before: cursor });
    const ocr = new Map(
      (
        await listOcrResultRows(
          db,
          batch.map((r) => r.id),
        )
      ).map((r) => [r.session_id, r.result_enc]),
    );
    for (const row of batch) {
      scanned++;
      cursor = row.id;
      if (!matchesIdentity(identity, identitySources(platform.keyring, row, ocr.get(row.id)))) continue;
      rows.push(row);
      if (rows.length === limit) return { rows, next: row.id };
    }
    if (batch.length < scan.batch) return { rows, next: null };
  }
  return { rows, next: cursor ?? null };
}

async function listItems(
  platform: Platform,
  tenantId: string,
  query: ListQuery,
  queue: boolean,
  scan: ScanLimits = SCAN,
) {
  const db = platform.database.db;
  const { rows, next } = await findRows(platform, tenantId, query, queue, scan);
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
      person: listedName(platform.keyring, r),
      documentType: r.document_type,
      clientIpAddress: r.client_ip,
      state: r.state,
      createdAt: r.created_at.toISOString(),
      submittedAt: r.submitted_at?.toISOString() ?? null,
      claim: claim ? claimView(claim) : null,
      awaitingConfirmation: awaiting ? reviewView(awaiting) : null,
    };
  });
  return { sessions, next };
}

export type CaseListItem = Awaited<ReturnType<typeof listItems>>['sessions'][number];

export const listCaseSessions = (
  platform: Platform,
  tenantId: string,
  query: SessionQuery,
  scan: ScanLimits = SCAN,
) => listItems(platform, tenantId, query, false, scan);

export const listReviewQueue = (platform: Platform, tenantId: string, query: QueueQuery) =>
  listItems(platform, tenantId, query, true);

const FIELDS = ['lastName', 'firstName', 'birthDate', 'address'] as const;
/**
 * Fields the person types that no check compares (the documents print no kana reading, and
 * preRegisteredInfo has none): shown too, so the reviewer sees everything the person typed.
 */
const TYPED_ONLY = ['lastNameKana', 'firstNameKana'] as const;
type TypedFields = IdentityFields & Partial<Record<(typeof TYPED_ONLY)[number], string>>;

/** Per field: what OCR read, what the user typed, what the tenant registered, and which agree. */
function compareSources(
  ocr: IdentityFields | null,
  userInput: TypedFields | null,
  pre: IdentityFields | null,
) {
  const versus = (expected: IdentityFields | null) =>
    expected && ocr ? compareIdentityFields(expected, ocr) : null;
  const user = versus(userInput);
  const registered = versus(pre);
  const typedOnly = TYPED_ONLY.map((field) => ({
    field,
    ocr: null,
    ocrRead: null,
    userInput: userInput?.[field] ?? null,
    preRegistered: null,
    userInputMatchesOcr: null,
    preRegisteredMatchesOcr: null,
  }));
  const compared = FIELDS.map((field) => {
    // A field the OCR did not read is unknown, not different: nothing contradicts the other sides.
    // ocrRead is null while there is no OCR result at all.
    const isOcrRead = typeof ocr?.[field] === 'string' && ocr[field].trim() !== '';
    return {
      field,
      ocr: isOcrRead ? ocr![field]! : null,
      ocrRead: ocr ? isOcrRead : null,
      userInput: userInput?.[field] ?? null,
      preRegistered: pre?.[field] ?? null,
      userInputMatchesOcr: isOcrRead ? (user?.[field] ?? null) : null,
      preRegisteredMatchesOcr: isOcrRead ? (registered?.[field] ?? null) : null,
    };
  });
  // Each kana reading below its name.
  return [...compared.slice(0, 2), ...typedOnly, ...compared.slice(2)];
}

export async function readCase(platform: Platform, tenantId: string, sessionId: string) {
  const session = await loadCase(platform, tenantId, sessionId);
  const detail = await getSessionDetail(platform, { tenantId, keyId: 'console' }, sessionId);
  const db = platform.database.db;
  const [automatic] = await listAutomaticDecisions(db, sessionId);
  const claim = await findClaim(db, sessionId);
  const base = `/console/api/tenants/${tenantId}/sessions/${sessionId}/images`;
  // The document's fields: the OCR's reading, or a chip session's MRZ (results.icChip, docs/ic-chip.md).
  const ocr = (detail.ocrResult?.payload ??
    detail.verification?.results?.icChip?.payload ??
    null) as IdentityFields | null;
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
    faces: await faceCropUrls(platform, session, base),
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
