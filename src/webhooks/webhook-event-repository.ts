// SQL of the webhook event store (migrations/0002_webhooks.sql, 0013_webhook_event_kinds.sql). The events table is also the
// delivery queue: `claimDueEvents` leases due events under a per-endpoint cap that holds across
// every worker process, and `recordAttempt` writes the attempt and the event's next state in one
// statement.
import { sql } from 'kysely';
import type { WebhookEventKind, WebhookEventName } from '../domain/index.ts';
import type { Db } from '../platform/db/open-database.ts';
import type { WebhookEventState } from '../platform/db/schema.ts';
import type { DeliveryResult } from './deliver-webhook.ts';

export interface NewWebhookEvent {
  id: string;
  tenantId: string;
  sessionId: string;
  kind: WebhookEventKind;
  /** Unique per session and kind (webhook-event-kinds.ts). */
  idempotencyKey: string;
  event: WebhookEventName;
  callbackUrl: string;
  endpoint: string;
  bodyEnc: Buffer;
  bodySha256: string;
  nextAttemptAt: Date;
  createdAt: Date;
}

/** Inserts the event unless the session has one of its kind and key; returns that event's id. */
export async function insertWebhookEvent(
  trx: Db,
  event: NewWebhookEvent,
): Promise<{ eventId: string; created: boolean }> {
  const inserted = await trx
    .insertInto('webhook_events')
    .values({
      id: event.id,
      tenant_id: event.tenantId,
      session_id: event.sessionId,
      kind: event.kind,
      idempotency_key: event.idempotencyKey,
      event: event.event,
      callback_url: event.callbackUrl,
      endpoint: event.endpoint,
      body_enc: event.bodyEnc,
      body_sha256: event.bodySha256,
      next_attempt_at: event.nextAttemptAt,
      created_at: event.createdAt,
      updated_at: event.createdAt,
    })
    .onConflict((conflict) => conflict.columns(['session_id', 'kind', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { eventId: inserted.id, created: true };
  const existing = await trx
    .selectFrom('webhook_events')
    .select('id')
    .where('session_id', '=', event.sessionId)
    .where('kind', '=', event.kind)
    .where('idempotency_key', '=', event.idempotencyKey)
    .executeTakeFirstOrThrow();
  return { eventId: existing.id, created: false };
}

/** An event leased for one attempt. */
export interface ClaimedEvent {
  id: string;
  tenantId: string;
  sessionId: string;
  event: WebhookEventName;
  callbackUrl: string;
  endpoint: string;
  bodyEnc: Buffer;
  /** This attempt's number (X-Service-Attempt). */
  attempt: number;
  /** Scheduled attempts already finished: this attempt's place in the retry schedule, minus one. */
  scheduledAttemptCount: number;
  firstAttemptAt: Date | null;
  state: WebhookEventState;
  nextAttemptAt: Date | null;
  leaseToken: string;
  /**
   * This claim used the endpoint's last free slot (claimDueEvents only): more of its events may be
   * waiting, so a finished delivery to it is worth an early claim.
   */
  endpointFull?: boolean;
}

interface ClaimedRow {
  id: string;
  tenant_id: string;
  session_id: string;
  event: string;
  callback_url: string;
  endpoint: string;
  body_enc: Uint8Array;
  attempt_count: number;
  scheduled_attempt_count: number;
  first_attempt_at: Date | string | null;
  state: WebhookEventState;
  next_attempt_at: Date | string | null;
  fills_endpoint?: boolean;
}

export interface ClaimLimits {
  now: Date;
  leaseUntil: Date;
  leaseToken: string;
  /** At most this many events in this claim. */
  batchSize: number;
  /** In-flight deliveries per endpoint, across all processes. */
  maxPerEndpoint: number;
}

/**
 * Leases up to `batchSize` due events, oldest due first, never letting an endpoint exceed
 * `maxPerEndpoint` leased events across all processes; a dead endpoint's backlog never hides the
 * due events of others (claim_webhook_events in the migration says how).
 */
export async function claimDueEvents(db: Db, limits: ClaimLimits): Promise<ClaimedEvent[]> {
  const { now, leaseUntil, leaseToken, batchSize, maxPerEndpoint } = limits;
  // The SQL is claim_webhook_events in migrations/0002_webhooks.sql: one round trip, plan cached.
  const { rows } = await sql<ClaimedRow>`
    SELECT * FROM claim_webhook_events(${now}, ${leaseUntil}, ${leaseToken}, ${batchSize}::int, ${maxPerEndpoint}::int)`.execute(
    db,
  );
  const full = new Set(rows.filter((row) => row.fills_endpoint).map((row) => row.endpoint));
  return rows.map((row) => ({ ...toClaimedEvent(row, leaseToken), endpointFull: full.has(row.endpoint) }));
}

/**
 * Leases one event for a manual attempt whatever its state or schedule (`mimoto webhooks
 * redeliver`). Returns 'busy' while a worker holds it, undefined when there is no such event.
 */
export async function claimEventNow(
  db: Db,
  eventId: string,
  limits: Pick<ClaimLimits, 'now' | 'leaseUntil' | 'leaseToken'>,
): Promise<ClaimedEvent | 'busy' | undefined> {
  const { now, leaseUntil, leaseToken } = limits;
  // An attempt lost with an expired lease is recorded first (migration 0009), as a scheduled claim does.
  await sql`SELECT recover_lost_webhook_attempts(${now})`.execute(db);
  const result = await sql<ClaimedRow>`
    UPDATE webhook_events w
    SET lease_until = ${leaseUntil}, lease_token = ${leaseToken},
        attempt_count = w.attempt_count + 1, updated_at = ${now}
    WHERE w.id = ${eventId} AND (w.lease_until IS NULL OR w.lease_until <= ${now})
    RETURNING w.id, w.tenant_id, w.session_id, w.event, w.callback_url, w.endpoint, w.body_enc,
              w.attempt_count, w.scheduled_attempt_count, w.first_attempt_at, w.state, w.next_attempt_at`.execute(
    db,
  );
  const row = result.rows[0];
  if (row) return toClaimedEvent(row, leaseToken);
  const exists = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('id', '=', eventId)
    .executeTakeFirst();
  return exists ? 'busy' : undefined;
}

export interface AttemptRecord {
  event: ClaimedEvent;
  trigger: 'scheduled' | 'manual';
  result: DeliveryResult;
  /** The event's state after this attempt, and when the next automatic attempt is due. */
  state: WebhookEventState;
  nextAttemptAt: Date | null;
  recordedAt: Date;
}

/**
 * Writes the attempt and the event's new state in one statement and releases the lease. The event
 * is updated only while this claim still holds the lease: a worker that outlived its lease (another
 * one has the event now) still records its attempt but leaves the event to the newer claim.
 */
export async function recordAttempt(db: Db, record: AttemptRecord): Promise<void> {
  const { event, result } = record;
  const scheduledIncrement = record.trigger === 'scheduled' ? 1 : 0;
  await sql`
    WITH attempt AS (
      INSERT INTO webhook_attempts (event_id, attempt, trigger, started_at, duration_ms, outcome,
                                    http_status, error_class, error_message, response_snippet, next_attempt_at)
      VALUES (${event.id}, ${event.attempt}, ${record.trigger}, ${result.startedAt}, ${result.durationMs},
              ${result.outcome}, ${result.status}, ${result.errorClass}, ${result.errorMessage},
              ${toStorableText(result.responseSnippet)}, ${record.nextAttemptAt})
      ON CONFLICT DO NOTHING
    )
    UPDATE webhook_events
    SET state = ${record.state}, next_attempt_at = ${record.nextAttemptAt},
        scheduled_attempt_count = scheduled_attempt_count + ${scheduledIncrement}::int,
        first_attempt_at = COALESCE(first_attempt_at, ${scheduledIncrement === 1 ? result.startedAt : null}::timestamptz),
        last_attempt_at = ${result.startedAt},
        lease_until = NULL, lease_token = NULL, updated_at = ${record.recordedAt}
    WHERE id = ${event.id} AND lease_token = ${event.leaseToken}`.execute(db);
}

/** Gives a claimed event back without an attempt (the worker is stopping before it started). */
export async function releaseClaim(db: Db, event: ClaimedEvent): Promise<void> {
  await sql`
    UPDATE webhook_events SET lease_until = NULL, lease_token = NULL, attempt_count = attempt_count - 1
    WHERE id = ${event.id} AND lease_token = ${event.leaseToken}`.execute(db);
}

export interface StoredEvent {
  id: string;
  tenantId: string;
  sessionId: string;
  kind: string;
  idempotencyKey: string;
  event: string;
  callbackUrl: string;
  bodyEnc: Buffer;
  bodySha256: string;
  state: WebhookEventState;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export interface StoredAttempt {
  eventId: string;
  attempt: number;
  trigger: 'scheduled' | 'manual';
  startedAt: Date;
  durationMs: number;
  outcome: 'success' | 'failure' | 'gone';
  httpStatus: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  responseSnippet: string | null;
  nextAttemptAt: Date | null;
}

/** A tenant's events, newest first: the console's list (`before`: created strictly earlier). */
export interface TenantEventsFilter {
  tenantId: string;
  state?: WebhookEventState;
  limit: number;
  before?: Date;
}

export async function findEventsWithAttempts(
  db: Db,
  filter: { sessionId: string } | { eventId: string } | TenantEventsFilter,
): Promise<{ events: StoredEvent[]; attempts: StoredAttempt[] }> {
  let query = db.selectFrom('webhook_events').selectAll();
  if ('tenantId' in filter) {
    query = query
      .where('tenant_id', '=', filter.tenantId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
    if (filter.state) query = query.where('state', '=', filter.state);
    if (filter.before) query = query.where('created_at', '<', filter.before);
    query = query.limit(filter.limit);
  } else {
    query =
      'sessionId' in filter
        ? query.where('session_id', '=', filter.sessionId)
        : query.where('id', '=', filter.eventId);
    query = query.orderBy('created_at').orderBy('id');
  }
  const rows = await query.execute();
  if (rows.length === 0) return { events: [], attempts: [] };
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'event_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('event_id')
    .orderBy('attempt')
    .execute();
  return {
    events: rows.map((row) => ({
      id: row.id,
      tenantId: row.tenant_id,
      sessionId: row.session_id,
      kind: row.kind,
      idempotencyKey: row.idempotency_key,
      event: row.event,
      callbackUrl: row.callback_url,
      bodyEnc: toBuffer(row.body_enc),
      bodySha256: row.body_sha256,
      state: row.state,
      attemptCount: row.attempt_count,
      nextAttemptAt: row.next_attempt_at,
      createdAt: row.created_at,
    })),
    attempts: attempts.map((row) => ({
      eventId: row.event_id,
      attempt: row.attempt,
      trigger: row.trigger,
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      outcome: row.outcome,
      httpStatus: row.http_status,
      errorClass: row.error_class,
      errorMessage: row.error_message,
      responseSnippet: row.response_snippet,
      nextAttemptAt: row.next_attempt_at,
    })),
  };
}

function toClaimedEvent(row: ClaimedRow, leaseToken: string): ClaimedEvent {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    sessionId: row.session_id,
    event: row.event as WebhookEventName,
    callbackUrl: row.callback_url,
    endpoint: row.endpoint,
    bodyEnc: toBuffer(row.body_enc),
    attempt: row.attempt_count,
    scheduledAttemptCount: row.scheduled_attempt_count,
    firstAttemptAt: toDate(row.first_attempt_at),
    state: row.state,
    nextAttemptAt: toDate(row.next_attempt_at),
    leaseToken,
  };
}

/** bytea arrives as Buffer from pg and as Uint8Array from PGlite. */
function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

function toDate(value: Date | string | null): Date | null {
  return value === null ? null : value instanceof Date ? value : new Date(value);
}

/** PostgreSQL text cannot hold NUL; a receiver's binary answer is kept readable instead of failing the record. */
function toStorableText(value: string | null): string | null {
  return value === null ? null : value.replaceAll('\u0000', '\uFFFD');
}

/** Deletes the sessions' events and their attempts (the erasure of their personal data). */
export async function deleteSessionEvents(db: Db, sessionIds: string[]): Promise<void> {
  const events = db.selectFrom('webhook_events').select('id').where('session_id', 'in', sessionIds);
  await db.deleteFrom('webhook_attempts').where('event_id', 'in', events).execute();
  await db.deleteFrom('webhook_events').where('session_id', 'in', sessionIds).execute();
}
