// A tenant's settings as the console shows and edits them (docs/console-api.md "Tenant admin").
// They live in tenants.settings where their readers look: thresholds under `thresholds`
// (resolveThresholds), allowedDocumentTypes at the top (the hosted flow), and the console's own
// keys beside it (secondReviewForRejectedApproval is read by the review service).
import { type Static, Type } from '@sinclair/typebox';
import { type Actor, recordAudit } from '../actors/index.ts';
import { resolveThresholds } from '../decision/index.ts';
import { DEFAULT_RETENTION_DAYS, VERIFICATION_METHODS } from '../domain/index.ts';
import {
  allowedDocumentTypes,
  DOCUMENT_TYPES,
  requiredUserInputFields,
  USER_INPUT_FIELDS,
} from '../hosted-flow/index.ts';
import { inTransaction } from '../platform/db/in-transaction.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import {
  accentColorProblem,
  DISPLAY_NAME_MAX,
  displayNameProblem,
  findTenant,
  tenantVerificationMethods,
  thicknessCaptureRequired,
  updateTenantSettings,
} from '../tenants/index.ts';

const unit = Type.Number({ minimum: 0, maximum: 1 });
export const TenantSettingsSchema = Type.Object(
  {
    faceSimilarityThreshold: unit,
    ocrConfidenceThreshold: unit,
    fraudSensitivity: Type.Union([Type.Literal('low'), Type.Literal('normal'), Type.Literal('high')]),
    allowedDocumentTypes: Type.Array(Type.Union(DOCUMENT_TYPES.map((t) => Type.Literal(t))), {
      minItems: 1,
      maxItems: DOCUMENT_TYPES.length,
      uniqueItems: true,
    }),
    requiredUserInputFields: Type.Array(Type.Union(USER_INPUT_FIELDS.map((f) => Type.Literal(f))), {
      maxItems: USER_INPUT_FIELDS.length,
      uniqueItems: true,
    }),
    minimumAge: Type.Integer({ minimum: 0, maximum: 120 }),
    retentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
    secondReviewForRejectedApproval: Type.Boolean(),
    // What the hosted flow shows its users (tenants/tenant-branding.ts): left out, the stored value
    // stays; null clears it (the flow then shows the tenant's name and the service's colour).
    displayName: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: DISPLAY_NAME_MAX }), Type.Null()]),
    ),
    accentColor: Type.Optional(Type.Union([Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }), Type.Null()])),
    /** Opt-in: the interface defines three events, so verification.expired is off by default. */
    webhookExpiredEvent: Type.Optional(Type.Boolean()),
    /** Opt-in: the hosted flow also asks for the card held tilted (tenants/capture-options.ts). */
    thicknessCapture: Type.Optional(Type.Boolean()),
    /** The methods sessions offer when the create request names none (docs/ic-chip.md). */
    verificationMethods: Type.Optional(
      Type.Array(Type.Union(VERIFICATION_METHODS.map((m) => Type.Literal(m))), {
        minItems: 1,
        maxItems: VERIFICATION_METHODS.length,
        uniqueItems: true,
      }),
    ),
  },
  { additionalProperties: false },
);
export type TenantSettings = Static<typeof TenantSettingsSchema>;

/** The values in effect: what is stored and valid, the service defaults for the rest. */
export function effectiveSettings(stored: Record<string, unknown>): TenantSettings {
  const thresholds = resolveThresholds(stored);
  const retention = stored.retentionDays;
  return {
    faceSimilarityThreshold: thresholds.faceSimilarityThreshold,
    ocrConfidenceThreshold: thresholds.ocrConfidenceThreshold,
    fraudSensitivity: thresholds.fraudSensitivity,
    allowedDocumentTypes: allowedDocumentTypes(stored),
    requiredUserInputFields: requiredUserInputFields(stored),
    minimumAge: thresholds.minimumAge,
    retentionDays:
      Number.isInteger(retention) && (retention as number) >= 1 && (retention as number) <= 3650
        ? (retention as number)
        : DEFAULT_RETENTION_DAYS,
    secondReviewForRejectedApproval: stored.secondReviewForRejectedApproval === true,
    ...(typeof stored.displayName === 'string' ? { displayName: stored.displayName } : {}),
    ...(typeof stored.accentColor === 'string' ? { accentColor: stored.accentColor } : {}),
    webhookExpiredEvent: stored.webhookExpiredEvent === true,
    thicknessCapture: thicknessCaptureRequired(stored),
    verificationMethods: tenantVerificationMethods(stored),
  };
}

async function storedSettings(platform: Platform, tenantId: string): Promise<Record<string, unknown>> {
  const tenant = await findTenant(platform.database.db, tenantId);
  if (!tenant) throw new AppError('NotFound', `no tenant '${tenantId}'`);
  return tenant.settings;
}

export async function readTenantSettings(platform: Platform, tenantId: string): Promise<TenantSettings> {
  return effectiveSettings(await storedSettings(platform, tenantId));
}

/** Writes every field (validated by the route's schema); keys the console does not edit are kept. */
export async function writeTenantSettings(
  platform: Platform,
  actor: Actor,
  tenantId: string,
  settings: TenantSettings,
): Promise<TenantSettings> {
  const nameProblem =
    typeof settings.displayName === 'string' ? displayNameProblem(settings.displayName) : null;
  if (nameProblem) throw new AppError('ValidationFailed', `displayName ${nameProblem}`);
  const colourProblem =
    typeof settings.accentColor === 'string' ? accentColorProblem(settings.accentColor) : null;
  if (colourProblem) throw new AppError('ValidationFailed', `accentColor ${colourProblem}`);
  return inTransaction(platform, async (tx) => {
    const stored = await storedSettings(tx, tenantId);
    const { faceSimilarityThreshold, ocrConfidenceThreshold, fraudSensitivity, minimumAge, ...rest } =
      settings;
    const next: Record<string, unknown> = {
      ...stored,
      ...rest,
      thresholds: {
        ...((stored.thresholds as Record<string, unknown> | undefined) ?? {}),
        faceSimilarityThreshold,
        ocrConfidenceThreshold,
        fraudSensitivity,
        minimumAge,
      },
    };
    for (const key of ['displayName', 'accentColor'] as const) if (next[key] === null) delete next[key];
    await updateTenantSettings(tx.database.db, tenantId, next);
    const after = effectiveSettings(next);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId,
      action: 'tenant.settings.update',
      targetType: 'tenant',
      targetId: tenantId,
      before: effectiveSettings(stored),
      after,
    });
    return after;
  });
}
