// The audit log (docs/console-api.md "Conventions"): one row per state change, written in the
// transaction of the change, so a change and its record commit or fail together.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../platform/db/open-database.ts';
import { insertAuditRow } from './audit-log-repository.ts';
import { consoleUser } from './console-roles.ts';

export interface AuditEntry {
  /** email, 'api_key:<keyId>' or 'cli' */
  actor: string;
  actorUserId?: string | null;
  tenantId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Who acts, as the service functions of the console and the CLI take it. */
export type Actor = Pick<AuditEntry, 'actor' | 'actorUserId' | 'ip'>;

export const CLI_ACTOR: Actor = { actor: 'cli', actorUserId: null, ip: null };

/** The signed-in console user of a request as an audit actor. */
export function requestActor(request: FastifyRequest): Actor {
  const user = consoleUser(request);
  return { actor: user.email, actorUserId: user.id, ip: request.ip };
}

export const REDACTED = '[redacted]';
/** Field names whose values never reach the log, whatever object they sit in. */
const SECRET_KEY = /secret|password|apikey|api_key|token|hash/i;

/** A copy of `value` with every secret-looking field replaced by "[redacted]". */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(item)]),
  );
}

/** Writes one audit row; call it inside the transaction of the change it records. */
export async function recordAudit(db: Db, platform: { now(): Date }, entry: AuditEntry): Promise<void> {
  await insertAuditRow(db, {
    at: platform.now(),
    actor: entry.actor,
    actorUserId: entry.actorUserId ?? null,
    tenantId: entry.tenantId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before === undefined ? undefined : redactSecrets(entry.before),
    after: entry.after === undefined ? undefined : redactSecrets(entry.after),
    ip: entry.ip ?? null,
  });
}
