// Turns a decision into its one webhook event (interface §6). Called by the deciding code — the
// automatic decision or a reviewer's outcome — INSIDE the transaction that
// writes the decision, so the decision and its event commit together or not at all. The event row
// is the delivery job: once committed, a delivery worker picks it up (delivery-worker.ts).
import { createHash } from 'node:crypto';
import { encryptBytes, type Keyring } from '../platform/crypto/encryption.ts';
import { newId } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import {
  buildWebhookPayload,
  type DecisionEventInput,
  serializeWebhookPayload,
} from './build-webhook-payload.ts';
import { endpointKey } from './endpoint-concurrency.ts';
import { findSessionCallback, insertWebhookEvent } from './webhook-event-repository.ts';

export interface DecisionEventRecord {
  /**
   * Names the decision, unique per session: recording the same key twice (a retried decision job)
   * returns the first event and creates nothing. E.g. `auto:<decision seq>` or the review id.
   */
  decisionKey: string;
  decision: DecisionEventInput;
}

export class WebhookEventSessionError extends Error {
  override name = 'WebhookEventSessionError';
}

/** The associated data that binds a stored body to its row (encryption.ts). */
export const eventBodyContext = (eventId: string) => `webhook_events.body_enc:${eventId}`;

/**
 * Builds the §6.2 payload (validated against the published schema), serialises it once, stores the
 * bytes encrypted (the payload carries OCR PII, docs/decisions.md "Data at rest") and makes the event due
 * now. Returns the event id; `created` is false when this decision already had its event.
 */
export async function recordDecisionEvent(
  trx: Db,
  platform: { keyring: Keyring; now(): Date },
  record: DecisionEventRecord,
): Promise<{ eventId: string; created: boolean }> {
  const { decision, decisionKey } = record;
  if (decisionKey.length === 0 || decisionKey.length > 200)
    throw new RangeError('decisionKey must have 1 to 200 characters');
  const payload = buildWebhookPayload(decision);
  // interface §6.2: verificationId is the sessionId.
  const session = await findSessionCallback(trx, payload.verificationId);
  if (!session) throw new WebhookEventSessionError(`no session '${payload.verificationId}'`);
  if (session.tenantId !== payload.tenantId) {
    throw new WebhookEventSessionError(`session '${payload.verificationId}' belongs to another tenant`);
  }
  const body = serializeWebhookPayload(payload);
  const id = newId('evt');
  const now = platform.now();
  return insertWebhookEvent(trx, {
    id,
    tenantId: payload.tenantId,
    sessionId: payload.verificationId,
    decisionKey,
    event: payload.event,
    callbackUrl: session.callbackUrl,
    endpoint: endpointKey(session.callbackUrl),
    bodyEnc: encryptBytes(platform.keyring, body, eventBodyContext(id)),
    bodySha256: createHash('sha256').update(body).digest('hex'),
    nextAttemptAt: now,
    createdAt: now,
  });
}
