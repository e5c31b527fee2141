// `mimoto webhooks list --session ID`: a session's events, every attempt and its
// outcome, for an operator answering "did the tenant get it?".
import { decryptBytes } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import { eventBodyContext } from './record-webhook-event.ts';
import {
  findEventsWithAttempts,
  type StoredAttempt,
  type StoredEvent,
  type TenantEventsFilter,
} from './webhook-event-repository.ts';

export interface WebhookAttemptView {
  attempt: number;
  trigger: 'scheduled' | 'manual';
  startedAt: string;
  durationMs: number;
  outcome: 'success' | 'failure' | 'gone';
  httpStatus: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  responseSnippet: string | null;
  nextAttemptAt: string | null;
}

export interface WebhookEventView {
  eventId: string;
  tenantId: string;
  sessionId: string;
  /** The event kind (decision, review, expired) and its idempotency key within the session. */
  kind: string;
  idempotencyKey: string;
  event: string;
  callbackUrl: string;
  state: 'pending' | 'delivered' | 'failed' | 'gone';
  /** SHA-256 of the stored body: the same bytes go out on every attempt. */
  bodySha256: string;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: WebhookAttemptView[];
}

export async function listSessionWebhookEvents(
  platform: Platform,
  sessionId: string,
): Promise<WebhookEventView[]> {
  return toViews(await findEventsWithAttempts(platform.database.db, { sessionId }));
}

/** The console's list of a tenant's deliveries. */
export async function listTenantWebhookEvents(
  platform: Platform,
  filter: TenantEventsFilter,
): Promise<WebhookEventView[]> {
  return toViews(await findEventsWithAttempts(platform.database.db, filter));
}

export async function showWebhookEvent(
  platform: Platform,
  eventId: string,
): Promise<WebhookEventView | undefined> {
  return toViews(await findEventsWithAttempts(platform.database.db, { eventId }))[0];
}

/**
 * The exact request body of an event (what every attempt sends), cut at `maxBytes` for display; the
 * console's webhook log shows it. undefined when the event is gone (erased with its session).
 */
export async function readWebhookEventBody(
  platform: Platform,
  eventId: string,
  maxBytes = 16 * 1024,
): Promise<{ body: string; truncated: boolean } | undefined> {
  const row = await platform.database.db
    .selectFrom('webhook_events')
    .select(['id', 'body_enc'])
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!row) return undefined;
  const bytes = decryptBytes(platform.keyring, Buffer.from(row.body_enc), eventBodyContext(row.id));
  const truncated = bytes.length > maxBytes;
  return { body: bytes.subarray(0, maxBytes).toString('utf8'), truncated };
}

function toViews({ events, attempts }: { events: StoredEvent[]; attempts: StoredAttempt[] }) {
  return events.map((event) => ({
    eventId: event.id,
    tenantId: event.tenantId,
    sessionId: event.sessionId,
    kind: event.kind,
    idempotencyKey: event.idempotencyKey,
    event: event.event,
    callbackUrl: event.callbackUrl,
    state: event.state,
    bodySha256: event.bodySha256,
    createdAt: event.createdAt.toISOString(),
    nextAttemptAt: event.nextAttemptAt?.toISOString() ?? null,
    attempts: attempts
      .filter((attempt) => attempt.eventId === event.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        trigger: attempt.trigger,
        startedAt: attempt.startedAt.toISOString(),
        durationMs: attempt.durationMs,
        outcome: attempt.outcome,
        httpStatus: attempt.httpStatus,
        errorClass: attempt.errorClass,
        errorMessage: attempt.errorMessage,
        responseSnippet: attempt.responseSnippet,
        nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
      })),
  }));
}

/** Plain text for a terminal: one block per event, one line per attempt. */
export function formatWebhookEvents(events: WebhookEventView[]): string {
  if (events.length === 0) return 'no webhook events for this session';
  return events
    .map((event) => {
      const head = [
        `${event.eventId}  ${event.event}  ${event.state}${event.nextAttemptAt ? ` (next attempt ${event.nextAttemptAt})` : ''}`,
        `  to ${event.callbackUrl}  ${event.kind} ${event.idempotencyKey}  created ${event.createdAt}  body sha256 ${event.bodySha256}`,
      ];
      const lines = event.attempts.map((a) => {
        const answer = a.httpStatus === null ? 'no response' : `HTTP ${a.httpStatus}`;
        const error = a.errorClass ? `  ${a.errorClass}: ${a.errorMessage ?? ''}` : '';
        const snippet = a.responseSnippet
          ? `  response: ${JSON.stringify(a.responseSnippet.slice(0, 120))}`
          : '';
        return `  #${a.attempt} ${a.trigger.padEnd(9)} ${a.startedAt}  ${String(a.durationMs).padStart(5)} ms  ${a.outcome.padEnd(7)} ${answer}${error}${snippet}`;
      });
      return [...head, ...(lines.length ? lines : ['  no attempt yet'])].join('\n');
    })
    .join('\n\n');
}
