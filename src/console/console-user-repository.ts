// Console accounts, password links and sign-in sessions (migration 0005).
import { sql } from 'kysely';
import type { ConsoleRole, ConsoleUser } from '../actors/index.ts';
import type { Db } from '../platform/db/open-database.ts';

export interface ConsoleUserRow extends ConsoleUser {
  passwordHash: string | null;
  disabledAt: Date | null;
  failedLoginCount: number;
  lockedUntil: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
}

type Row = {
  id: string;
  email: string;
  role: ConsoleRole;
  tenant_id: string | null;
  password_hash: string | null;
  disabled_at: Date | null;
  failed_login_count: number;
  locked_until: Date | null;
  last_login_at: Date | null;
  created_at: Date;
};

const toUser = (row: Row): ConsoleUserRow => ({
  id: row.id,
  email: row.email,
  role: row.role,
  tenantId: row.tenant_id,
  passwordHash: row.password_hash,
  disabledAt: row.disabled_at,
  failedLoginCount: row.failed_login_count,
  lockedUntil: row.locked_until,
  lastLoginAt: row.last_login_at,
  createdAt: row.created_at,
});

/** false when the e-mail address (case-insensitive) is taken. */
export async function insertConsoleUser(db: Db, user: ConsoleUser): Promise<boolean> {
  const result = await sql`INSERT INTO console_users (id, email, role, tenant_id)
    VALUES (${user.id}, ${user.email}, ${user.role}, ${user.tenantId})
    ON CONFLICT (lower(email)) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

export async function findConsoleUserByEmail(db: Db, email: string): Promise<ConsoleUserRow | undefined> {
  const row = await db
    .selectFrom('console_users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row && toUser(row);
}

export async function findConsoleUser(db: Db, userId: string): Promise<ConsoleUserRow | undefined> {
  const row = await db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirst();
  return row && toUser(row);
}

/** `tenantId` undefined: every user (operators). */
export async function listConsoleUsers(db: Db, tenantId?: string): Promise<ConsoleUserRow[]> {
  let query = db.selectFrom('console_users').selectAll().orderBy('created_at').orderBy('id');
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return (await query.execute()).map(toUser);
}

export async function disableConsoleUser(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('console_users')
    .set({ disabled_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('disabled_at', 'is', null)
    .execute();
  await revokeConsoleSessions(db, { userId }, now);
}

/** One more failure, counted atomically; returns the new count. */
export async function countLoginFailure(db: Db, userId: string, now: Date): Promise<number> {
  const row = await db
    .updateTable('console_users')
    .set((eb) => ({ failed_login_count: eb('failed_login_count', '+', 1), updated_at: now }))
    .where('id', '=', userId)
    .returning('failed_login_count')
    .executeTakeFirstOrThrow();
  return row.failed_login_count;
}

export async function lockConsoleUser(db: Db, userId: string, until: Date, now: Date): Promise<void> {
  await db
    .updateTable('console_users')
    .set({ locked_until: until, failed_login_count: 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function recordLoginSuccess(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('console_users')
    .set({ failed_login_count: 0, locked_until: null, last_login_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function setPasswordHash(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable('console_users')
    .set({ password_hash: hash, failed_login_count: 0, locked_until: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function insertPasswordToken(
  db: Db,
  token: { hash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('console_password_tokens')
    .values({ token_hash: token.hash, user_id: token.userId, expires_at: token.expiresAt })
    .execute();
}

/** Marks the link used and returns its user, or undefined when used, expired or unknown. */
export async function consumePasswordToken(db: Db, hash: string, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('console_password_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export interface ConsoleSessionRow {
  user: ConsoleUser;
  csrfToken: string;
  lastSeenAt: Date;
}

export async function insertConsoleSession(
  db: Db,
  session: { hash: string; userId: string; csrfToken: string; now: Date; expiresAt: Date; ip: string | null },
): Promise<void> {
  await db
    .insertInto('console_sessions')
    .values({
      token_hash: session.hash,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
      ip: session.ip,
    })
    .execute();
}

/** A session neither revoked, nor past its absolute end, nor idle since `idleSince`, of an enabled user. */
export async function findLiveConsoleSession(
  db: Db,
  hash: string,
  now: Date,
  idleSince: Date,
): Promise<ConsoleSessionRow | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.email', 'u.role', 'u.tenant_id', 's.csrf_token', 's.last_seen_at'])
    .where('s.token_hash', '=', hash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      user: { id: row.id, email: row.email, role: row.role, tenantId: row.tenant_id },
      csrfToken: row.csrf_token,
      lastSeenAt: row.last_seen_at,
    }
  );
}

export async function touchConsoleSession(db: Db, hash: string, now: Date): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', hash)
    .execute();
}

/** Ends one session (sign-out) or every session of a user (disabled, new password). */
export async function revokeConsoleSessions(
  db: Db,
  which: { tokenHash: string } | { userId: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ revoked_at: now })
    .$if('tokenHash' in which, (q) => q.where('token_hash', '=', (which as { tokenHash: string }).tokenHash))
    .$if('userId' in which, (q) => q.where('user_id', '=', (which as { userId: string }).userId))
    .where('revoked_at', 'is', null)
    .execute();
}
