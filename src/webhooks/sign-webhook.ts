// Signs a webhook body as interface §6.3/§6.4 describe: HMAC-SHA256 over the exact raw body bytes,
// keyed with the tenant's webhook secret (its UTF-8 bytes, docs/decisions.md), sent as `sha256=<lowercase hex>`.
import { createHmac } from 'node:crypto';

/** The literal prefix of the X-Service-Signature header value (interface §6.4 rule 2). */
export const SIGNATURE_PREFIX = 'sha256=';

export function signWebhookBody(body: Buffer | string, secret: string): string {
  // A string body is signed as its UTF-8 bytes, which are the bytes that go on the wire (§6.4 rule 1).
  const digest = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
  return `${SIGNATURE_PREFIX}${digest}`;
}
