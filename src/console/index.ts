// The console (issue 8, docs/console-api.md): accounts, roles, audit log and the admin routes under
// /console/api, plus the browser app at /console.
export {
  changeCallbackPrefixAudited,
  createApiKeyAudited,
  createTenantAudited,
  disableApiKeyAudited,
  rotateWebhookSecretAudited,
} from './admin-actions.ts';
export {
  type Actor,
  type AuditEntry,
  CLI_ACTOR,
  recordAudit,
  redactSecrets,
  requestActor,
} from './audit-log.ts';
export { registerConsole } from './console.routes.ts';
export { createConsoleUser } from './console-accounts.ts';
export {
  CONSOLE_ROLES,
  type ConsoleRole,
  type ConsoleUser,
  consoleUser,
  onlyRoles,
  requireRole,
} from './console-auth.ts';
