// Records one webhook event of any kind (webhook-event-kinds.ts; interface §6). Called by the code
// that makes it happen — the automatic decision, a reviewer's outcome, the expiry sweep — INSIDE
// the transaction of that change, so the change and its event commit together or not at all. The
// event row is the delivery job: once committed, a delivery worker picks it up (delivery-worker.ts).
// The caller hands over the session row it holds: its callback URL is where the event goes, and
// webhooks, below sessions, does not read the sessions' table.
import { createHash } from 'node:crypto';
import type { WebhookEventKind } from '../domain/index.ts';
import { encryptBytes, type Keyring } from '../platform/crypto/encryption.ts';
import { newId } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { buildWebhookPayload, serializeWebhookPayload } from './build-webhook-payload.ts';
import { endpointKey } from './endpoint-concurrency.ts';
import { WEBHOOK_EVENT_KIND_DEFINITIONS, type WebhookEventInput } from './webhook-event-kinds.ts';
import { insertWebhookEvent } from './webhook-event-repository.ts';

/** What an event needs of its session's row (the caller's `verification_sessions` row). */
export interface WebhookEventSession {
  id: string;
  tenant_id: string;
  callback_url: string;
}

export class WebhookEventSessionError extends Error {
  override name = 'WebhookEventSessionError';
}

/** The associated data that binds a stored body to its row (encryption.ts). */
export const eventBodyContext = (eventId: string) => `webhook_events.body_enc:${eventId}`;

/**
 * Builds the §6.2 payload (validated against its kind's schema), serialises it once, stores the
 * bytes encrypted (a payload may carry OCR PII, docs/decisions.md "Data at rest") and makes the
 * event due now. Returns the event id; `created` is false when the session already had this kind's
 * event under the same idempotency key (a retried job), which is then returned unchanged. `session`
 * must be the row of the payload's verification, of the payload's tenant.
 */
export async function recordWebhookEvent<K extends WebhookEventKind>(
  trx: Db,
  platform: { keyring: Keyring; now(): Date },
  kind: K,
  input: WebhookEventInput<K>,
  session: WebhookEventSession,
): Promise<{ eventId: string; created: boolean }> {
  const idempotencyKey = (
    WEBHOOK_EVENT_KIND_DEFINITIONS[kind].idempotencyKey as (input: WebhookEventInput<K>) => string
  )(input);
  if (idempotencyKey.length === 0 || idempotencyKey.length > 200)
    throw new RangeError(`the idempotency key of a ${kind} event must have 1 to 200 characters`);
  const payload = buildWebhookPayload(kind, input);
  // interface §6.2: verificationId is the sessionId.
  if (session.id !== payload.verificationId) {
    throw new WebhookEventSessionError(
      `the event of '${payload.verificationId}' was given session '${session.id}'`,
    );
  }
  if (session.tenant_id !== payload.tenantId) {
    throw new WebhookEventSessionError(`session '${payload.verificationId}' belongs to another tenant`);
  }
  const body = serializeWebhookPayload(payload);
  const id = newId('evt');
  const now = platform.now();
  return insertWebhookEvent(trx, {
    id,
    tenantId: payload.tenantId,
    sessionId: payload.verificationId,
    kind,
    idempotencyKey,
    event: payload.event,
    callbackUrl: session.callback_url,
    endpoint: endpointKey(session.callback_url),
    bodyEnc: encryptBytes(platform.keyring, body, eventBodyContext(id)),
    bodySha256: createHash('sha256').update(body).digest('hex'),
    nextAttemptAt: now,
    createdAt: now,
  });
}
