// GET /verify?sessionId&token (docs/decisions.md "verificationUrl"; interface §4.1, §8): the one-time
// link. The first valid use within 10 s from the bound IPv4 address (when one was given) consumes
// the token, moves the session to in_progress, extends its life to 15 minutes from now, and sets
// the flow cookie. A reused, late or wrong link changes nothing.
import net from 'node:net';
import { sha256Hex } from '../platform/crypto/random-id.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession, startFlow } from '../sessions/index.ts';
import { FLOW_COOKIE_VALIDITY_MS, flowCookieHash, isSameText, newFlowCookieValue } from './flow-session.ts';

/** A refused link names its session's tenant (when there is one) for the page that says so. */
export type EntryOutcome =
  | { kind: 'entered'; cookieValue: string }
  | { kind: 'expired'; tenantId: string | null }
  | { kind: 'wrong_ip'; tenantId: string };

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
    const now = platform.now();
    const isValid =
      session !== undefined &&
      isSameText(sha256Hex(query.token), session.link_token_hash) &&
      session.link_used_at === null &&
      session.status === 'pending' &&
      now.getTime() < session.verification_url_expires_at.getTime() &&
      now.getTime() < session.expires_at.getTime();
    if (!session || !isValid) return { kind: 'expired', tenantId: session?.tenant_id ?? null };
    // Interface §4.1: an IPv4 binding is checked at first access; IPv6 values were never stored.
    // A refused attempt does not consume the link, so the right person can still use it.
    if (session.client_ip !== null && plainIpv4(requestIp) !== session.client_ip)
      return { kind: 'wrong_ip', tenantId: session.tenant_id };
    const cookieValue = newFlowCookieValue();
    await startFlow(trx, session.id, {
      cookieHash: flowCookieHash(cookieValue),
      now,
      expiresAt: new Date(now.getTime() + FLOW_COOKIE_VALIDITY_MS),
      firstAccessIp: requestIp,
    });
    return { kind: 'entered', cookieValue };
  });
}
