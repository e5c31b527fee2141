// Who acts and what they did (ARCHITECTURE.md "Layers"): the console's roles and signed-in user, the
// CLI actor, and the audit log every audited change writes in its own transaction. Below the
// console, review and sessions, which all record their changes here.
export {
  type Actor,
  type AuditEntry,
  CLI_ACTOR,
  REDACTED,
  recordAudit,
  redactSecrets,
  requestActor,
} from './audit-log.ts';
export { type AuditRow, insertAuditRow, listAuditRows } from './audit-log-repository.ts';
export {
  CONSOLE_ROLES,
  type ConsoleRole,
  type ConsoleUser,
  consoleUser,
  onlyRoles,
  requireRole,
} from './console-roles.ts';
