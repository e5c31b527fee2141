// What the hosted flow asks a tenant's users to photograph beyond the document's sides. The
// thickness capture (厚み): businesses verifying by the 犯罪収益移転防止法 image method (施行規則
// 6条1項1号ホ) must see the card's thickness and features, so a tenant may have its users also
// photograph the card tilted, its edge showing. Off unless the tenant turns it on
// (tenants.settings.thicknessCapture, set in the console's tenant settings).

export function thicknessCaptureRequired(tenantSettings: Record<string, unknown>): boolean {
  return tenantSettings.thicknessCapture === true;
}
