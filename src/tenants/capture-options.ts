// What the hosted flow asks a tenant's users to photograph beyond the document's sides. The
// thickness capture (厚み): businesses verifying by the 犯罪収益移転防止法 image method (施行規則
// 6条1項1号ホ) must see the card's thickness and features, so a tenant may have its users also
// photograph the card tilted, its edge showing. Off unless the tenant turns it on
// (tenants.settings.thicknessCapture, set in the console's tenant settings).

import { VERIFICATION_METHODS, type VerificationMethod } from '../domain/index.ts';

export function thicknessCaptureRequired(tenantSettings: Record<string, unknown>): boolean {
  return tenantSettings.thicknessCapture === true;
}

/**
 * The verification methods a tenant's sessions offer when the create request names none
 * (tenants.settings.verificationMethods, set in the console): image unless the tenant chose.
 * A stored value that is not a non-empty list of known methods counts as unset.
 */
export function tenantVerificationMethods(tenantSettings: Record<string, unknown>): VerificationMethod[] {
  const stored = tenantSettings.verificationMethods;
  if (
    Array.isArray(stored) &&
    stored.length > 0 &&
    stored.every((m) => (VERIFICATION_METHODS as readonly unknown[]).includes(m))
  ) {
    return VERIFICATION_METHODS.filter((m) => stored.includes(m));
  }
  return ['image'];
}
