// The console (issue 8, docs/console-api.md): accounts, roles, audit log and the admin routes under
// /console/api, plus the browser app at /console.
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.ts';

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
export { createConsoleUser } from './console-accounts.ts';
export {
  CONSOLE_ROLES,
  type ConsoleRole,
  type ConsoleUser,
  consoleUser,
  onlyRoles,
  requireRole,
} from './console-auth.ts';
export { DEFAULT_RETENTION_DAYS } from './tenant-settings.ts';

/**
 * Loaded on use: the routes pull in the review pages and through them the models, which the CLI's
 * tenant, key and user commands (importing this index for the audited actions) must not load.
 */
export async function registerConsole(app: FastifyInstance, platform: Platform): Promise<void> {
  const routes = await import('./console.routes.ts');
  await routes.registerConsole(app, platform);
}
