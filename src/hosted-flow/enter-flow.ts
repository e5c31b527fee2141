// GET /verify?sessionId&token (docs/decisions.md "verificationUrl"; interface §4.1, §8): the one-time
// link. The first valid use within 10 s from the bound IPv4 address (when one was given) consumes
// the token, moves the session to in_progress, extends its life to 15 minutes from now, and sets
// the flow cookie. A reused, late or wrong link changes nothing.
import net from 'node:net';
import { sha256Hex } from '../platform/crypto/random-id.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession, startFlow } from '../sessions/index.ts';
import { FLOW_COOKIE_VALIDITY_MS, flowCookieHash, isSameText, newFlowCookieValue } from './flow-session.ts';

/** Why a link was refused, for the one log line of the refusal (never the page: it says "expired"). */
export type EntryRefusal =
  | 'unknown_session'
  | 'wrong_token'
  | 'link_used'
  | 'session_not_pending'
  | 'link_expired'
  | 'session_expired'
  | 'wrong_ip';

/**
 * A refused link names its session's tenant (when there is one) for the page that says so, and
 * its session and reason for the log.
 */
export type EntryOutcome =
  | { kind: 'entered'; cookieValue: string; sessionId: string }
  | { kind: 'expired'; tenantId: string | null; sessionId: string | null; reason: EntryRefusal }
  | { kind: 'wrong_ip'; tenantId: string; sessionId: string; reason: 'wrong_ip' };

/** "::ffff:203.0.113.7" (an IPv4 client on a dual-stack socket) is 203.0.113.7. */
export function plainIpv4(ip: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const candidate = mapped ?? ip;
  return net.isIPv4(candidate) ? candidate : null;
}

export async function enterFlow(
  platform: Platform,
  query: { sessionId: string; token: string },
  requestIp: string,
): Promise<EntryOutcome> {
  return platform.database.db.transaction().execute(async (trx) => {
    const session = await findSession(trx, query.sessionId, true);
    if (!session) return { kind: 'expired', tenantId: null, sessionId: null, reason: 'unknown_session' };
    const now = platform.now().getTime();
    const refusal: EntryRefusal | undefined = !isSameText(sha256Hex(query.token), session.link_token_hash)
      ? 'wrong_token'
      : session.link_used_at !== null
        ? 'link_used'
        : session.status !== 'pending'
          ? 'session_not_pending'
          : now >= session.verification_url_expires_at.getTime()
            ? 'link_expired'
            : now >= session.expires_at.getTime()
              ? 'session_expired'
              : undefined;
    if (refusal)
      return { kind: 'expired', tenantId: session.tenant_id, sessionId: session.id, reason: refusal };
    // Interface §4.1: an IPv4 binding is checked at first access; IPv6 values were never stored.
    // A refused attempt does not consume the link, so the right person can still use it.
    if (session.client_ip !== null && plainIpv4(requestIp) !== session.client_ip)
      return { kind: 'wrong_ip', tenantId: session.tenant_id, sessionId: session.id, reason: 'wrong_ip' };
    const cookieValue = newFlowCookieValue();
    await startFlow(trx, session.id, {
      cookieHash: flowCookieHash(cookieValue),
      now: new Date(now),
      expiresAt: new Date(now + FLOW_COOKIE_VALIDITY_MS),
      firstAccessIp: requestIp,
    });
    return { kind: 'entered', cookieValue, sessionId: session.id };
  });
}
