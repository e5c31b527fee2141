// POST /v1/verification-sessions (interface §4.1; design.md "verificationUrl", "Allow list").
import net from 'node:net';
import type { ApiCaller } from '../api-keys/index.ts';
import { encryptJson, encryptText } from '../platform/crypto/encryption.ts';
import { newId, randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { callbackUrlProblem, findTenant, isCallbackUrlAllowed } from '../tenants/index.ts';
import type { CreatedSession, CreateSessionBody } from './session.schemas.ts';
import { insertSession } from './session-repository.ts';

/** Interface §2.1 and §8. */
export const VERIFICATION_URL_VALIDITY_MS = 10_000;
export const SESSION_VALIDITY_MS = 15 * 60_000;

export const preRegisteredInfoContext = (sessionId: string) =>
  `verification_sessions.pre_registered_info:${sessionId}`;
export const verificationUrlContext = (sessionId: string) =>
  `verification_sessions.verification_url:${sessionId}`;

/** Interface §4.1: IPv4 is the binding, IPv6 is ignored, anything else is an error. */
function ipv4Binding(clientIpAddress: string | undefined): string | null {
  if (clientIpAddress === undefined || net.isIPv6(clientIpAddress)) return null;
  if (net.isIPv4(clientIpAddress)) return clientIpAddress;
  throw new AppError(
    'ValidationFailed',
    'clientIpAddress must be an IPv4 address (an IPv6 address is ignored)',
    [{ path: '/clientIpAddress', message: 'must be an IPv4 or IPv6 address' }],
  );
}

export async function createSession(
  platform: Platform,
  caller: ApiCaller,
  body: CreateSessionBody,
): Promise<CreatedSession> {
  const problem = callbackUrlProblem(body.callbackUrl, platform.config.env);
  if (problem) {
    throw new AppError('ValidationFailed', `callbackUrl ${problem}`, [
      { path: '/callbackUrl', message: problem },
    ]);
  }
  const clientIp = ipv4Binding(body.clientIpAddress);
  const tenant = await findTenant(platform.database.db, caller.tenantId);
  if (!tenant || !isCallbackUrlAllowed(body.callbackUrl, tenant.callbackUrlPrefixes)) {
    throw new AppError('CallbackUrlNotAllowed');
  }

  const sessionId = newId('vs');
  const token = randomBase62(32);
  const createdAt = platform.now();
  const verificationUrl = `${platform.config.publicUrl}/verify?sessionId=${sessionId}&token=${token}`;
  const verificationUrlExpiresAt = new Date(createdAt.getTime() + VERIFICATION_URL_VALIDITY_MS);
  const expiresAt = new Date(createdAt.getTime() + SESSION_VALIDITY_MS);
  await insertSession(platform.database.db, {
    id: sessionId,
    tenantId: caller.tenantId,
    callbackUrl: body.callbackUrl,
    clientIp,
    state: body.state ?? null,
    preRegisteredInfoEnc: body.preRegisteredInfo
      ? encryptJson(platform.keyring, body.preRegisteredInfo, preRegisteredInfoContext(sessionId))
      : null,
    linkTokenHash: sha256Hex(token),
    verificationUrlEnc: encryptText(platform.keyring, verificationUrl, verificationUrlContext(sessionId)),
    verificationUrlExpiresAt,
    createdAt,
    expiresAt,
  });
  return {
    sessionId,
    verificationUrl,
    verificationUrlExpiresAt: verificationUrlExpiresAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}
