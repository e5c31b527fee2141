// The console (issue 8, docs/console-api.md): accounts, roles, audit log and the admin routes under
// /console/api, plus the browser app at /console.
export { type AuditEntry, recordAudit, redactSecrets } from './audit-log.ts';
export { registerConsole } from './console.routes.ts';
export {
  CONSOLE_ROLES,
  type ConsoleRole,
  type ConsoleUser,
  consoleUser,
  requireRole,
} from './console-auth.ts';
