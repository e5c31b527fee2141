export { callbackUrlProblem, isCallbackUrlAllowed } from './callback-url-policy.ts';
export { findTenant } from './tenant-repository.ts';
export {
  allowCallbackPrefix,
  createTenant,
  readWebhookSecret,
  rotateWebhookSecret,
  showTenant,
  type TenantView,
} from './tenant-service.ts';
