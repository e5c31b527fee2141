// The receiver's half of interface §6.4, exported by the package for tenants (src/index.ts).
// Small on purpose: a tenant should be able to read it in a minute and trust it.
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_PATTERN = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * True only when `signatureHeader` is `sha256=<hex HMAC-SHA256 of rawBody keyed with secret>`.
 *
 * - `rawBody` must be the bytes as received (§6.4 rule 3): re-serialised JSON will not verify.
 * - The digests are compared in constant time; a header of the wrong length or shape is simply
 *   invalid (§6.4 rule 4).
 * - Never throws: a missing header, a repeated header, a non-string, an empty secret or a body that
 *   is not bytes all return false, so a receiver can answer 401 without a try/catch.
 */
export function verifyWebhookSignature(
  rawBody: Uint8Array | string,
  signatureHeader: string | readonly string[] | undefined | null,
  secret: string,
): boolean {
  // The types say what to pass; the checks below hold for callers without TypeScript too.
  const header: unknown = Array.isArray(signatureHeader)
    ? signatureHeader.length === 1
      ? signatureHeader[0]
      : undefined
    : signatureHeader;
  if (typeof header !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
  const body = toBytes(rawBody);
  if (body === undefined) return false;
  const match = SIGNATURE_PATTERN.exec(header);
  if (match === null) return false;
  const received = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest();
  // Both are 32 bytes here (the pattern fixes the length); the check stays as a guard for timingSafeEqual.
  return received.length === expected.length && timingSafeEqual(received, expected);
}

function toBytes(rawBody: unknown): Uint8Array | undefined {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  return undefined;
}
