// Continue on a phone: a browser without a usable camera (or a user who prefers the phone) asks for
// a one-time code, shown as a QR code and a short link; its first use on another browser moves the
// session there, and the first browser follows the progress to the tenant's callback.
// It keeps the link's protections (interface §4.1, §8; docs/decisions.md "verificationUrl"):
// - issued only to the holder of the flow cookie, with the CSRF token, before submission;
// - not guessable: 128+ bits from the CSPRNG, only its SHA-256 stored (a database reader cannot use it);
// - single use: spent under the row's lock, in the transaction that moves the session; a new code
//   ends the session's earlier unused ones;
// - short-lived: HANDOFF_VALIDITY_MS, and never past the session's own expiry (which it does not extend);
// - one holder at a time: the move gives the phone a new cookie and the session forgets the old
//   one, so the first browser can no longer act on it — it can only ask how the flow goes on.
import qrcode from 'qrcode-generator';
import { randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession } from '../sessions/index.ts';
import { type FlowContext, flowCookieHash, newFlowCookieValue, requireOpenFlow } from './flow-session.ts';
import { callbackRedirect } from './flow-steps.ts';
import {
  findHandoffByIssuer,
  insertHandoff,
  lockHandoff,
  moveSessionByHandoff,
} from './hosted-flow-repository.ts';

/** Long enough to pick up a phone and scan; short enough that a photo of the screen soon is worthless. */
export const HANDOFF_VALIDITY_MS = 5 * 60_000;
const CODE_LENGTH = 24; // base62: 142 bits
export const HANDOFF_CODE = /^[A-Za-z0-9]{24}$/;

const codeHash = (code: string) => sha256Hex(`flow-handoff:${code}`);

export interface IssuedHandoff {
  url: string;
  expiresAt: string;
  /** The URL as a QR code, an SVG document (no script; shown as an image). */
  qrSvg: string;
}

export async function issueHandoff(platform: Platform, context: FlowContext): Promise<IssuedHandoff> {
  requireOpenFlow(context);
  const now = platform.now();
  const expiresAt = new Date(
    Math.min(now.getTime() + HANDOFF_VALIDITY_MS, context.session.expires_at.getTime()),
  );
  const code = randomBase62(CODE_LENGTH);
  await insertHandoff(platform.database.db, {
    tokenHash: codeHash(code),
    sessionId: context.session.id,
    issuerCookieHash: flowCookieHash(context.cookieValue),
    now,
    expiresAt,
  });
  const url = new URL(`/verify/h/${code}`, platform.config.publicUrl).toString();
  const qr = qrcode(0, 'M');
  qr.addData(url, 'Byte');
  qr.make();
  return { url, expiresAt: expiresAt.toISOString(), qrSvg: qr.createSvgTag({ cellSize: 4, margin: 4 }) };
}

/** Why a hand-off link was refused, for the one log line of the refusal. */
export type HandoffRefusal = 'unknown_code' | 'code_used' | 'code_expired' | 'session_not_in_flow';

export type HandoffOutcome =
  | { kind: 'moved'; cookieValue: string; sessionId: string }
  | { kind: 'expired'; tenantId: string | null; sessionId: string | null; reason: HandoffRefusal };

/** The phone opens the code's link: the first valid use moves the session; anything else changes nothing. */
export async function useHandoff(platform: Platform, code: string): Promise<HandoffOutcome> {
  const unknown = { kind: 'expired', tenantId: null, sessionId: null, reason: 'unknown_code' } as const;
  if (!HANDOFF_CODE.test(code)) return unknown;
  return platform.database.db.transaction().execute(async (trx) => {
    const handoff = await lockHandoff(trx, codeHash(code));
    if (!handoff) return unknown;
    const session = await findSession(trx, handoff.session_id, true);
    const now = platform.now().getTime();
    const refusal: HandoffRefusal | undefined =
      handoff.used_at !== null
        ? 'code_used'
        : now >= handoff.expires_at.getTime()
          ? 'code_expired'
          : session === undefined ||
              session.submitted_at !== null ||
              session.status !== 'in_progress' ||
              now >= session.expires_at.getTime()
            ? 'session_not_in_flow'
            : undefined;
    if (refusal || !session)
      return {
        kind: 'expired',
        tenantId: session?.tenant_id ?? null,
        sessionId: handoff.session_id,
        reason: refusal ?? 'session_not_in_flow',
      };
    const cookieValue = newFlowCookieValue();
    await moveSessionByHandoff(trx, {
      tokenHash: handoff.token_hash,
      sessionId: session.id,
      cookieHash: flowCookieHash(cookieValue),
      now: platform.now(),
    });
    return { kind: 'moved', cookieValue, sessionId: session.id };
  });
}

export interface HandoffStatus {
  /** waiting: not used yet; continued: the phone holds the session; submitted: done, go to redirectTo. */
  status: 'waiting' | 'expired' | 'continued' | 'submitted';
  expiresAt: string;
  redirectTo: string | null;
}

/** What the first browser may know once it asked for a code: how the flow goes on, nothing more. */
export async function readHandoffStatus(
  platform: Platform,
  cookieValue: string | undefined,
): Promise<HandoffStatus> {
  if (!cookieValue || !/^[A-Za-z0-9]{43}$/.test(cookieValue)) throw new AppError('FlowSessionRequired');
  const db = platform.database.db;
  const handoff = await findHandoffByIssuer(db, flowCookieHash(cookieValue));
  if (!handoff) throw new AppError('FlowSessionRequired');
  const session = await findSession(db, handoff.session_id);
  if (!session) throw new AppError('FlowSessionRequired');
  const expiresAt = handoff.expires_at.toISOString();
  if (handoff.used_at === null) {
    const isLate = platform.now().getTime() >= handoff.expires_at.getTime();
    return { status: isLate ? 'expired' : 'waiting', expiresAt, redirectTo: null };
  }
  if (session.submitted_at !== null)
    return { status: 'submitted', expiresAt, redirectTo: callbackRedirect(session) };
  return { status: 'continued', expiresAt, redirectTo: null };
}
