// POST /v1/verification-sessions (interface §4.1; docs/decisions.md "verificationUrl", "Allow list").
import net from 'node:net';
import { type ApiCaller, confirmApiKey } from '../api-keys/index.ts';
import { encryptJson, encryptText } from '../platform/crypto/encryption.ts';
import { newId, randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { callbackUrlProblem, findTenant, isCallbackUrlAllowed } from '../tenants/index.ts';
import type { CreatedSession, CreateSessionBody } from './session.schemas.ts';
import { insertSessionForKey, type NewSession } from './session-repository.ts';

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

// The tenants' callback prefixes as this process last read them. Only a hint: the INSERT checks the
// chosen prefix against the tenant's row in the same statement, and a miss reads the row again.
const knownPrefixes = new WeakMap<Db, Map<string, readonly string[]>>();
const KNOWN_TENANTS_LIMIT = 10_000;

async function callbackPrefixes(platform: Platform, tenantId: string, fresh: boolean) {
  const db = platform.database.db;
  let known = knownPrefixes.get(db);
  if (!known) {
    known = new Map();
    knownPrefixes.set(db, known);
  }
  const cached = fresh ? undefined : known.get(tenantId);
  if (cached) return cached;
  const prefixes = (await findTenant(db, tenantId))?.callbackUrlPrefixes ?? [];
  if (known.size >= KNOWN_TENANTS_LIMIT) known.clear();
  known.set(tenantId, prefixes);
  return prefixes;
}

/** The tenant prefix that allows `callbackUrl`, read again from the database when none known does. */
async function allowingPrefix(platform: Platform, tenantId: string, callbackUrl: string, fresh = false) {
  const find = (prefixes: readonly string[]) =>
    prefixes.find((prefix) => isCallbackUrlAllowed(callbackUrl, [prefix]));
  const prefix =
    find(await callbackPrefixes(platform, tenantId, fresh)) ??
    (fresh ? undefined : find(await callbackPrefixes(platform, tenantId, true)));
  if (prefix === undefined) throw new AppError('CallbackUrlNotAllowed');
  return prefix;
}

/**
 * One round trip to the database in the usual case: the key was authenticated from this process's
 * memory (authenticateRecentApiKey) and the tenant's prefixes too; the INSERT itself checks, at
 * commit, that the key is enabled and the prefix still allowed. When it refuses, the key is looked
 * up (a disabled key is 401 on the next request, whichever process disabled it) and the prefixes
 * are read again.
 */
export async function createSession(
  platform: Platform,
  caller: ApiCaller,
  body: CreateSessionBody,
): Promise<CreatedSession> {
  let clientIp: string | null;
  let prefix: string;
  try {
    const problem = callbackUrlProblem(body.callbackUrl, platform.config.env);
    if (problem) {
      throw new AppError('ValidationFailed', `callbackUrl ${problem}`, [
        { path: '/callbackUrl', message: problem },
      ]);
    }
    clientIp = ipv4Binding(body.clientIpAddress);
    prefix = await allowingPrefix(platform, caller.tenantId, body.callbackUrl);
  } catch (error) {
    // The key may have come from memory: a disabled one is answered 401 before any other refusal.
    await confirmApiKey(platform, caller);
    throw error;
  }

  const sessionId = newId('vs');
  const token = randomBase62(32);
  const createdAt = platform.now();
  const verificationUrl = `${platform.config.publicUrl}/verify?sessionId=${sessionId}&token=${token}`;
  const verificationUrlExpiresAt = new Date(createdAt.getTime() + VERIFICATION_URL_VALIDITY_MS);
  const expiresAt = new Date(createdAt.getTime() + SESSION_VALIDITY_MS);
  const session: NewSession = {
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
    verificationMethods: body.verificationMethods ? [...body.verificationMethods] : null,
  };
  const db = platform.database.db;
  let inserted = await insertSessionForKey(db, session, { keyId: caller.keyId, callbackUrlPrefix: prefix });
  if (!inserted) {
    await confirmApiKey(platform, caller);
    prefix = await allowingPrefix(platform, caller.tenantId, body.callbackUrl, true);
    inserted = await insertSessionForKey(db, session, { keyId: caller.keyId, callbackUrlPrefix: prefix });
    // Changed again between the two statements: refused as the tenant's settings now stand.
    if (!inserted) throw new AppError('CallbackUrlNotAllowed');
  }
  return {
    sessionId,
    verificationUrl,
    verificationUrlExpiresAt: verificationUrlExpiresAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}
