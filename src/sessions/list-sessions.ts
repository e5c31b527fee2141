// GET /v1/verification-sessions: one tenant's sessions, newest first, a page at a time. The
// cursor is the last session id of the previous page; the filters are those of the detail's
// status fields, the status as GET shows it (an unsubmitted session past expiresAt is expired
// even before the expiry sweep writes it).
import { sql } from 'kysely';
import type { ApiCaller } from '../api-keys/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import type { ListSessionsQuery, SessionList } from './session.schemas.ts';
import { effectiveStatus } from './session-access.ts';
import { EXPIRABLE_STATUSES } from './session-repository.ts';

export const DEFAULT_PAGE_SIZE = 20;

export async function listSessions(
  platform: Platform,
  caller: ApiCaller,
  query: ListSessionsQuery,
): Promise<SessionList> {
  const db = platform.database.db;
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
  const createdFrom = query.createdFrom ? parseTime(query.createdFrom, 'createdFrom') : undefined;
  const createdTo = query.createdTo ? parseTime(query.createdTo, 'createdTo') : undefined;
  const now = platform.now();
  let select = db.selectFrom('verification_sessions').selectAll().where('tenant_id', '=', caller.tenantId);
  if (query.startingAfter) {
    const cursor = await db
      .selectFrom('verification_sessions')
      .select(['id', 'created_at'])
      .where('id', '=', query.startingAfter)
      .where('tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!cursor) {
      throw new AppError('ValidationFailed', 'startingAfter names no session of this tenant', [
        { path: '/startingAfter', message: 'unknown cursor' },
      ]);
    }
    select = select.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(cursor.created_at, cursor.id)),
    );
  }
  if (createdFrom) select = select.where('created_at', '>=', createdFrom);
  if (createdTo) select = select.where('created_at', '<', createdTo);
  if (query.verificationStatus) select = select.where('verification_status', '=', query.verificationStatus);
  if (query.status) {
    const pastTime = sql<boolean>`(status IN (${sql.join([...EXPIRABLE_STATUSES])}) AND submitted_at IS NULL AND expires_at <= ${now})`;
    select =
      query.status === 'expired'
        ? select.where((eb) => eb.or([eb('status', '=', 'expired'), pastTime]))
        : select.where('status', '=', query.status).where(sql<boolean>`NOT ${pastTime}`);
  }
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map((row) => ({
      sessionId: row.id,
      status: effectiveStatus(row, now),
      ...(row.verification_status ? { verificationStatus: row.verification_status } : {}),
      ...(row.document_type ? { documentType: row.document_type } : {}),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      ...(row.cancelled_at ? { cancelledAt: row.cancelled_at.toISOString() } : {}),
      ...(row.data_erased_at ? { dataErasedAt: row.data_erased_at.toISOString() } : {}),
    })),
    hasMore,
    ...(hasMore && page.length > 0 ? { nextCursor: page[page.length - 1]!.id } : {}),
  };
}

function parseTime(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new AppError('ValidationFailed', `${field} is not a valid date-time`, [
      { path: `/${field}`, message: 'must be an ISO 8601 date-time' },
    ]);
  }
  return date;
}
