// The browser's hold on a session (docs/decisions.md "verificationUrl"; interface §8): an opaque random
// cookie set at the first valid use of the link, whose SHA-256 is stored with the session. A CSRF
// token is derived from the cookie value (the browser's scripts learn it from GET state; another
// site can neither read the cookie nor the token), and required on every state-changing request.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSessionByCookieHash, type SessionRow } from '../sessions/index.ts';

export const FLOW_COOKIE = 'mimoto_flow';
export const CSRF_HEADER = 'x-csrf-token';
/** Interface §8: the session is valid 15 minutes after the cookie is set. */
export const FLOW_COOKIE_VALIDITY_MS = 15 * 60_000;

export function newFlowCookieValue(): string {
  return randomBase62(43);
}

export function flowCookieHash(value: string): string {
  return sha256Hex(`flow-cookie:${value}`);
}

export function csrfTokenFor(cookieValue: string): string {
  return createHash('sha256').update(`csrf:${cookieValue}`, 'utf8').digest('base64url');
}

export function setFlowCookie(reply: FastifyReply, config: Config, value: string) {
  reply.setCookie(FLOW_COOKIE, value, {
    path: '/verify',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.env !== 'development',
    maxAge: FLOW_COOKIE_VALIDITY_MS / 1000,
  });
}

export interface FlowContext {
  session: SessionRow;
  cookieValue: string;
}

const FLOW_CONTEXT = Symbol('flowContext');
type WithFlow = FastifyRequest & { [FLOW_CONTEXT]?: FlowContext };

function isSameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The session this request's cookie holds, or an error: no or unknown cookie → 401
 * FlowSessionRequired; time ran out or the session ended → 410 SessionExpired.
 */
export async function loadFlowSession(platform: Platform, request: FastifyRequest): Promise<FlowContext> {
  const cached = (request as WithFlow)[FLOW_CONTEXT];
  if (cached) return cached;
  const value = request.cookies[FLOW_COOKIE];
  if (!value || !/^[A-Za-z0-9]{43}$/.test(value)) throw new AppError('FlowSessionRequired');
  const session = await findSessionByCookieHash(platform.database.db, flowCookieHash(value));
  if (!session) throw new AppError('FlowSessionRequired');
  const isSubmitted = session.submitted_at !== null;
  const isOver = session.status === 'expired' || session.status === 'failed';
  if (isOver || (!isSubmitted && session.expires_at.getTime() <= platform.now().getTime())) {
    throw new AppError('SessionExpired');
  }
  const context = { session, cookieValue: value };
  (request as WithFlow)[FLOW_CONTEXT] = context;
  return context;
}

/**
 * The session this request's cookie names, live or not, as its ids (for the pages that refuse it:
 * the tenant for the page, the session for the log line), or null.
 */
export async function sessionOfFlowCookie(
  platform: Platform,
  request: FastifyRequest,
): Promise<{ sessionId: string; tenantId: string } | null> {
  const value = request.cookies[FLOW_COOKIE];
  if (!value || !/^[A-Za-z0-9]{43}$/.test(value)) return null;
  const session = await findSessionByCookieHash(platform.database.db, flowCookieHash(value));
  return session ? { sessionId: session.id, tenantId: session.tenant_id } : null;
}

/** State-changing requests: the CSRF token in the header (or the form field of /verify/complete). */
export function requireCsrfToken(
  config: Config,
  request: FastifyRequest,
  context: FlowContext,
  given?: string,
) {
  const token = given ?? request.headers[CSRF_HEADER];
  if (typeof token !== 'string' || !isSameText(token, csrfTokenFor(context.cookieValue))) {
    throw new AppError('CsrfTokenInvalid');
  }
  // Defence in depth: a browser that says where the request comes from must say "here". `Origin:
  // null` is refused too: it is what a sandboxed frame, a data: or file: page sends, so it never
  // means this origin (the flow's own fetches are CORS-mode and name the real origin even under
  // `Referrer-Policy: no-referrer`).
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(config.publicUrl).origin) {
    throw new AppError('CsrfTokenInvalid');
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CsrfTokenInvalid');
}

/** Mutations need a session still in the flow: not submitted yet. */
export function requireOpenFlow(context: FlowContext) {
  if (context.session.submitted_at !== null) {
    throw new AppError('FlowStepOutOfOrder', 'The verification was already submitted');
  }
}

export { isSameText };
