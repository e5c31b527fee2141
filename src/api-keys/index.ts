export { API_KEY_RECHECKED_BY_WRITE, apiCaller, requireApiKey } from './api-key-auth.ts';
export { enabledApiKeyCondition } from './api-key-repository.ts';
export {
  type ApiCaller,
  type ApiKeyView,
  authenticateApiKey,
  authenticateRecentApiKey,
  confirmApiKey,
  createApiKey,
  disableTenantApiKey,
  listTenantApiKeys,
} from './api-key-service.ts';
