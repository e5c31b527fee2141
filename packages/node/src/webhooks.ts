// Webhook verification for receivers: the signature of the raw body (HMAC-SHA256 with the webhook
// secret, compared in constant time), then the payload parsed and returned typed. Every failure is
// a WebhookVerificationError with a code saying which check failed, so a receiver answers 401 (or
// 400) and logs the reason.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookAutomaticDecision, WebhookExpired, WebhookReviewOutcome } from './types.gen.js';

export type WebhookVerificationFailure =
  | 'missing_secret'
  | 'invalid_body'
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'invalid_payload'
  | 'event_mismatch';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The events this SDK knows. The payloads are open: fields added later are kept. */
export type KnownWebhookEvent = WebhookAutomaticDecision | WebhookReviewOutcome | WebhookExpired;

/** An event kind added after this SDK version: receivers acknowledge it and may ignore it. */
export interface UnknownWebhookEvent {
  event: string;
  verificationId: string;
  tenantId?: string;
  [key: string]: unknown;
}

export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

export const KNOWN_WEBHOOK_EVENTS = [
  'verification.approved',
  'verification.rejected',
  'verification.pending_review',
  'verification.expired',
] as const;

export function isKnownEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return (KNOWN_WEBHOOK_EVENTS as readonly string[]).includes(event.event);
}

/** Node's IncomingHttpHeaders, a fetch Headers object, or a plain record. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

function header(headers: WebhookHeaders, name: string): string | string[] | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(record).find((k) => k.toLowerCase() === name);
  return found === undefined ? undefined : record[found];
}

/**
 * Verifies a delivery and returns its payload. `rawBody` must be the bytes as received: JSON parsed
 * and serialised again does not verify. Throws WebhookVerificationError.
 */
export function verify(rawBody: Uint8Array | string, headers: WebhookHeaders, secret: string): WebhookEvent {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new WebhookVerificationError('missing_secret', 'No webhook secret was given');
  }
  let body: Uint8Array;
  if (typeof rawBody === 'string') body = Buffer.from(rawBody, 'utf8');
  else if (rawBody instanceof Uint8Array) body = rawBody;
  else {
    throw new WebhookVerificationError(
      'invalid_body',
      'Pass the raw request body (Buffer, Uint8Array or string), not parsed JSON',
    );
  }
  if (headers === null || typeof headers !== 'object') {
    throw new WebhookVerificationError('missing_signature', 'No headers were given');
  }
  const value = header(headers, 'x-service-signature');
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    throw new WebhookVerificationError('missing_signature', 'The X-Service-Signature header is missing');
  }
  const match = Array.isArray(value)
    ? value.length === 1
      ? SIGNATURE.exec(value[0]!)
      : null
    : SIGNATURE.exec(value);
  if (!match) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'X-Service-Signature is not one "sha256=" followed by 64 hexadecimal digits',
    );
  }
  const received = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest();
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'The signature does not match the body: wrong secret, or the body was changed (parsed and serialised again?)',
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The body is not JSON');
  }
  const fields = payload as Record<string, unknown> | null;
  if (
    typeof fields !== 'object' ||
    fields === null ||
    Array.isArray(fields) ||
    typeof fields.event !== 'string' ||
    typeof fields.verificationId !== 'string'
  ) {
    throw new WebhookVerificationError(
      'invalid_payload',
      'The payload is not an object with a string event and verificationId',
    );
  }
  const eventHeader = header(headers, 'x-service-event');
  const named = Array.isArray(eventHeader) ? eventHeader[0] : eventHeader;
  if (named !== undefined && named !== fields.event) {
    throw new WebhookVerificationError(
      'event_mismatch',
      `X-Service-Event says ${named} but the payload says ${fields.event}`,
    );
  }
  return fields as unknown as WebhookEvent;
}

export const webhooks = { verify, isKnownEvent };
