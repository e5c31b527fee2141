// Console accounts (docs/console-api.md "Accounts"): creation with a one-time password link,
// setting the password, signing in with lockout, sessions with idle and absolute expiry.
import { randomBytes } from 'node:crypto';
import type { ConsoleRole, ConsoleUser } from '../actors/index.ts';
import { type Actor, recordAudit } from '../actors/index.ts';
import { newId, randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import { inTransaction } from '../platform/db/in-transaction.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findTenant } from '../tenants/index.ts';
import {
  type ConsoleSessionRow,
  type ConsoleUserRow,
  consumePasswordToken,
  countLoginFailure,
  disableConsoleUser,
  findConsoleUser,
  findConsoleUserByEmail,
  findLiveConsoleSession,
  insertConsoleSession,
  insertConsoleUser,
  insertPasswordToken,
  lockConsoleUser,
  recordLoginSuccess,
  revokeConsoleSessions,
  setPasswordHash,
  touchConsoleSession,
} from './console-user-repository.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password-hash.ts';

export const PASSWORD_LINK_VALIDITY_MS = 24 * 3_600_000;
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000;
export const MAX_LOGIN_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_RESOLUTION_MS = 60_000;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

const TENANT_ROLES: readonly ConsoleRole[] = ['tenant_admin', 'reviewer'];
/** RFC 5322 atext in the local part, letters, digits and hyphens in the domain labels. */
const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

export interface UserView {
  id: string;
  email: string;
  role: ConsoleRole;
  tenantId: string | null;
  createdAt: string;
  lastLoginAt: string | null;
  disabled: boolean;
}

export const toUserView = (row: ConsoleUserRow): UserView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  tenantId: row.tenantId,
  createdAt: row.createdAt.toISOString(),
  lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  disabled: row.disabledAt !== null,
});

/** Who may be created by whom is the routes' business; this checks the account itself. */
export async function createConsoleUser(
  platform: Platform,
  actor: Actor,
  input: { email: string; role: ConsoleRole; tenantId?: string | null },
): Promise<{ user: UserView; setPasswordUrl: string }> {
  const email = input.email.trim();
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new AppError('ValidationFailed', undefined, [
      { path: '/email', message: 'must be an e-mail address' },
    ]);
  }
  const tenantId = input.tenantId ?? null;
  if (TENANT_ROLES.includes(input.role) && tenantId === null) {
    throw new AppError('ValidationFailed', `a ${input.role} belongs to a tenant: give its id`);
  }
  if (input.role === 'operator' && tenantId !== null) {
    throw new AppError('ValidationFailed', 'an operator belongs to no tenant');
  }
  if (tenantId !== null && !(await findTenant(platform.database.db, tenantId))) {
    throw new AppError('NotFound', `no tenant '${tenantId}'`);
  }
  const token = randomBase62(43);
  const user: ConsoleUser = { id: newId('usr'), email, role: input.role, tenantId };
  const now = platform.now();
  const row = await inTransaction(platform, async (tx) => {
    const db = tx.database.db;
    if (!(await insertConsoleUser(db, user))) throw new AppError('EmailTaken');
    await insertPasswordToken(db, {
      hash: passwordTokenHash(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + PASSWORD_LINK_VALIDITY_MS),
    });
    await recordAudit(db, tx, {
      ...actor,
      tenantId,
      action: 'user.create',
      targetType: 'console_user',
      targetId: user.id,
      after: user,
    });
    return (await findConsoleUser(db, user.id))!;
  });
  return {
    user: toUserView(row),
    setPasswordUrl: `${platform.config.publicUrl}/console/set-password?token=${token}`,
  };
}

const passwordTokenHash = (token: string) => sha256Hex(`console-password-link:${token}`);
const sessionTokenHash = (token: string) => sha256Hex(`console-session:${token}`);

export async function setPasswordWithLink(
  platform: Platform,
  input: { token: string; password: string },
  ip: string | null,
): Promise<void> {
  const length = [...input.password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new AppError('ValidationFailed', undefined, [
      { path: '/password', message: `must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` },
    ]);
  }
  // Hashed before the transaction: scrypt takes ~0.1 s and must not hold the (PGlite) connection.
  const hash = await hashPassword(input.password);
  await inTransaction(platform, async (tx) => {
    const db = tx.database.db;
    const now = tx.now();
    const userId = await consumePasswordToken(db, passwordTokenHash(input.token), now);
    const user = userId && (await findConsoleUser(db, userId));
    if (!user || user.disabledAt) throw new AppError('PasswordLinkInvalid');
    await setPasswordHash(db, user.id, hash, now);
    // A new password ends every session signed in with the old one.
    await revokeConsoleSessions(db, { userId: user.id }, now);
    await recordAudit(db, tx, {
      actor: user.email,
      actorUserId: user.id,
      ip,
      tenantId: user.tenantId,
      action: 'user.set_password',
      targetType: 'console_user',
      targetId: user.id,
    });
  });
}

export interface SignedIn {
  user: ConsoleUser;
  cookieValue: string;
  csrfToken: string;
}

/**
 * The same ConsoleLoginFailed for an unknown address, a user without a password, a disabled user
 * and a wrong password, each after one scrypt so the time does not tell them apart. Five failures
 * in a row lock the account (429 ConsoleAccountLocked with Retry-After), also for the right password.
 */
export async function signIn(
  platform: Platform,
  input: { email: string; password: string },
  ip: string | null,
): Promise<SignedIn> {
  const db = platform.database.db;
  const row = await findConsoleUserByEmail(db, input.email.trim());
  const usable = row && row.passwordHash !== null && row.disabledAt === null ? row : undefined;
  const matches = await verifyPassword(input.password, usable?.passwordHash ?? (await dummyPasswordHash()));
  if (!usable) throw new AppError('ConsoleLoginFailed');
  const now = platform.now();
  if (usable.lockedUntil && usable.lockedUntil > now) throw lockedError(usable.lockedUntil, now);
  if (!matches) {
    const failures = await countLoginFailure(db, usable.id, now);
    if (failures >= MAX_LOGIN_FAILURES) {
      const until = new Date(now.getTime() + LOCKOUT_MS);
      await lockConsoleUser(db, usable.id, until, now);
      throw lockedError(until, now);
    }
    throw new AppError('ConsoleLoginFailed');
  }
  const user: ConsoleUser = {
    id: usable.id,
    email: usable.email,
    role: usable.role,
    tenantId: usable.tenantId,
  };
  const cookieValue = randomBase62(43);
  const csrfToken = randomBytes(32).toString('base64url');
  await inTransaction(platform, async (tx) => {
    await recordLoginSuccess(tx.database.db, user.id, now);
    await insertConsoleSession(tx.database.db, {
      hash: sessionTokenHash(cookieValue),
      userId: user.id,
      csrfToken,
      now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      ip,
    });
    await recordAudit(tx.database.db, tx, {
      actor: user.email,
      actorUserId: user.id,
      ip,
      tenantId: user.tenantId,
      action: 'user.login',
      targetType: 'console_user',
      targetId: user.id,
    });
  });
  return { user, cookieValue, csrfToken };
}

function lockedError(until: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError('ConsoleAccountLocked', undefined, undefined, { 'Retry-After': String(seconds) });
}

/** The live session a cookie value stands for, refreshing its idle timer; undefined otherwise. */
export async function loadConsoleSession(
  platform: Platform,
  cookieValue: string,
): Promise<ConsoleSessionRow | undefined> {
  const db = platform.database.db;
  const now = platform.now();
  const hash = sessionTokenHash(cookieValue);
  const session = await findLiveConsoleSession(db, hash, now, new Date(now.getTime() - SESSION_IDLE_MS));
  if (session && now.getTime() - session.lastSeenAt.getTime() >= TOUCH_RESOLUTION_MS) {
    await touchConsoleSession(db, hash, now);
  }
  return session;
}

export async function signOut(platform: Platform, cookieValue: string): Promise<void> {
  await revokeConsoleSessions(
    platform.database.db,
    { tokenHash: sessionTokenHash(cookieValue) },
    platform.now(),
  );
}

/** Disables a user; their sessions end in the same transaction. */
export async function disableUser(platform: Platform, actor: Actor, userId: string): Promise<UserView> {
  return inTransaction(platform, async (tx) => {
    const db = tx.database.db;
    const before = await findConsoleUser(db, userId);
    if (!before) throw new AppError('NotFound', `no console user '${userId}'`);
    await disableConsoleUser(db, userId, tx.now());
    const after = (await findConsoleUser(db, userId))!;
    await recordAudit(db, tx, {
      ...actor,
      tenantId: after.tenantId,
      action: 'user.disable',
      targetType: 'console_user',
      targetId: userId,
      before: toUserView(before),
      after: toUserView(after),
    });
    return toUserView(after);
  });
}
