// The console (docs/console-api.md): accounts, roles, audit log and the admin routes under
// /console/api, plus the browser app at /console.
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.ts';

export {
  type Actor,
  type AuditEntry,
  CLI_ACTOR,
  CONSOLE_ROLES,
  type ConsoleRole,
  type ConsoleUser,
  consoleUser,
  onlyRoles,
  recordAudit,
  redactSecrets,
  requestActor,
  requireRole,
} from '../actors/index.ts';
export { DEFAULT_RETENTION_DAYS } from '../domain/index.ts';
export {
  changeCallbackPrefixAudited,
  createApiKeyAudited,
  createTenantAudited,
  disableApiKeyAudited,
  rotateWebhookSecretAudited,
} from './admin-actions.ts';
export { createConsoleUser } from './console-accounts.ts';

/**
 * Loaded on use: the routes pull in the review pages and through them the models, which the CLI's
 * tenant, key and user commands (importing this index for the audited actions) must not load.
 */
export async function registerConsole(app: FastifyInstance, platform: Platform): Promise<void> {
  const routes = await import('./console.routes.ts');
  await routes.registerConsole(app, platform);
}
