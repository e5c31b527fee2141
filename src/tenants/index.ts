export { callbackUrlProblem, isCallbackUrlAllowed } from './callback-url-policy.ts';
export { findTenant, updateTenantSettings } from './tenant-repository.ts';
export {
  allowCallbackPrefix,
  createTenant,
  disallowCallbackPrefix,
  listTenantViews,
  readWebhookSecret,
  rotateWebhookSecret,
  showTenant,
  type TenantView,
} from './tenant-service.ts';
