// The format of every identifier a request can carry (path, query or body), checked by the route
// schema before any handler runs, so a malformed one is a 400 ValidationFailed and never reaches
// SQL (PostgreSQL refuses a NUL byte in text with an error, which would be a 500). Our ids are a
// kind prefix, `_`, and letters and digits (platform/crypto/random-id.ts: 26 Crockford base32
// characters; blacklist entries: 22 base62); a well-formed id that names nothing is a 404.
import { Type } from '@sinclair/typebox';

const idOf = (prefix: string, description: string) =>
  Type.String({
    minLength: prefix.length + 2,
    maxLength: 64,
    pattern: `^${prefix}_[0-9A-Za-z]+$`,
    description,
  });

export const SessionId = idOf('vs', 'Session identifier (interface §4.2, §8)');
export const TenantId = idOf('tn', 'Tenant identifier');
export const ApiKeyId = idOf('key', 'API key identifier');
export const ReviewId = idOf('rv', 'Review identifier');
export const WebhookEventId = idOf('evt', 'Webhook event identifier');
export const ConsoleUserId = idOf('usr', 'Console user identifier');
export const BlacklistEntryId = idOf('bl', 'Blacklist entry identifier');

/** The one-time token of a verification link (randomBase62(32) in create-session.ts). */
export const LinkToken = Type.String({ minLength: 1, maxLength: 128, pattern: '^[0-9A-Za-z]+$' });
