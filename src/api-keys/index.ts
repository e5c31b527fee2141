export { apiCaller, requireApiKey } from './api-key-auth.ts';
export {
  type ApiCaller,
  type ApiKeyView,
  authenticateApiKey,
  createApiKey,
  disableTenantApiKey,
  listTenantApiKeys,
} from './api-key-service.ts';
