// How the hosted flow names the tenant to its end users: a display name, an accent colour and an
// optional logo, kept in tenants.settings (`displayName`, `accentColor`, `logo`). The flow's pages
// show them so a person knows which service asks for their documents; the colour is refused when
// white text on it (the primary button) or it on white (links) would be hard to read.

export interface TenantLogo {
  /** SHA-256 of the image bytes: the logo's URL, so a new logo is a new address. */
  sha256: string;
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
}

export interface TenantBranding {
  displayName: string;
  /** #rrggbb, or null for the service's own colour. */
  accentColor: string | null;
  logo: TenantLogo | null;
}

export const DISPLAY_NAME_MAX = 60;
/** WCAG 2.x AA for normal text: the accent carries button labels and links. */
export const MIN_ACCENT_CONTRAST = 4.5;
const HEX_COLOR = /^#[0-9a-f]{6}$/;

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of a #rrggbb colour against white (1 to 21). */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex.toLowerCase()) + 0.05);
}

/** Why this accent colour cannot be used, or null when it can. */
export function accentColorProblem(value: string): string | null {
  const hex = value.toLowerCase();
  if (!HEX_COLOR.test(hex)) return 'must be a colour written #rrggbb';
  const ratio = contrastWithWhite(hex);
  if (ratio < MIN_ACCENT_CONTRAST) {
    return `contrasts ${ratio.toFixed(2)}:1 with white; at least ${MIN_ACCENT_CONTRAST}:1 is needed for readable buttons and links`;
  }
  return null;
}

/** Why this display name cannot be used, or null when it can. */
export function displayNameProblem(value: string): string | null {
  const name = value.trim();
  if (name.length === 0 || [...name].length > DISPLAY_NAME_MAX) {
    return `must have 1 to ${DISPLAY_NAME_MAX} characters`;
  }
  // Control characters would break the page's layout (and a name is one line).
  if (/\p{Cc}/u.test(name)) return 'must be a single line of text';
  return null;
}

function storedLogo(value: unknown): TenantLogo | null {
  if (typeof value !== 'object' || value === null) return null;
  const { sha256, contentType } = value as Record<string, unknown>;
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  if (contentType !== 'image/png' && contentType !== 'image/jpeg' && contentType !== 'image/webp')
    return null;
  return { sha256, contentType };
}

/** What the flow shows; a stored value that is not valid is ignored (the tenant's name, our colour). */
export function brandingOf(tenant: { name: string; settings: Record<string, unknown> }): TenantBranding {
  const { displayName, accentColor, logo } = tenant.settings;
  return {
    displayName:
      typeof displayName === 'string' && displayNameProblem(displayName) === null
        ? displayName.trim()
        : tenant.name,
    accentColor:
      typeof accentColor === 'string' && accentColorProblem(accentColor) === null
        ? accentColor.toLowerCase()
        : null,
    logo: storedLogo(logo),
  };
}

export const tenantLogoBlobKey = (tenantId: string, sha256: string) => `tenants/${tenantId}/logo-${sha256}`;
