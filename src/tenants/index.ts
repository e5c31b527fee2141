export { callbackUrlProblem, isCallbackUrlAllowed } from './callback-url-policy.ts';
export { tenantVerificationMethods, thicknessCaptureRequired } from './capture-options.ts';
export {
  accentColorProblem,
  brandingOf,
  DISPLAY_NAME_MAX,
  displayNameProblem,
  type TenantBranding,
  type TenantLogo,
  tenantLogoBlobKey,
} from './tenant-branding.ts';
export {
  callbackPrefixAllowedCondition,
  findTenant,
  findTenantSettings,
  tenantsWithSettingOn,
  updateTenantSettings,
} from './tenant-repository.ts';
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
