// A tenant's logo for the hosted flow's pages (tenants/tenant-branding.ts), uploaded in the console:
// checked by content (PNG, JPEG or WebP by magic bytes, at most LOGO_MAX_BYTES and LOGO_MAX_SIDE
// pixels), re-encoded to PNG without metadata, stored encrypted in the blob store and served from
// our own origin under its SHA-256 (the flow's CSP loads images from nowhere else).
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { type Actor, recordAudit } from '../actors/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { inTransaction } from '../platform/db/in-transaction.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findTenant, tenantLogoBlobKey, updateTenantSettings } from '../tenants/index.ts';

export const LOGO_MAX_BYTES = 200 * 1024;
export const LOGO_MAX_SIDE = 1024;

function isImage(bytes: Buffer): boolean {
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const webp =
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
  return png || jpeg || webp;
}

/** Stores the logo (null removes it); returns its address on the flow's origin, or null. */
export async function setTenantLogo(
  platform: Platform,
  actor: Actor,
  tenantId: string,
  bytes: Buffer | null,
): Promise<{ logoUrl: string | null }> {
  let logo: { sha256: string; contentType: 'image/png' } | null = null;
  let png: Buffer | null = null;
  if (bytes) {
    if (bytes.length > LOGO_MAX_BYTES)
      throw new AppError('ValidationFailed', 'the logo is larger than 200 KB');
    if (!isImage(bytes)) throw new AppError('ValidationFailed', 'the logo must be a PNG, JPEG or WebP image');
    try {
      const meta = await sharp(bytes, { limitInputPixels: LOGO_MAX_SIDE * LOGO_MAX_SIDE }).metadata();
      if (!meta.width || !meta.height || meta.width > LOGO_MAX_SIDE || meta.height > LOGO_MAX_SIDE) {
        throw new AppError(
          'ValidationFailed',
          `the logo must be at most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} pixels`,
        );
      }
      png = await sharp(bytes).png().toBuffer();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('ValidationFailed', 'the logo could not be read as an image');
    }
    logo = { sha256: createHash('sha256').update(png).digest('hex'), contentType: 'image/png' };
    await openBlobStore(platform.config, platform.keyring).putBlob(
      tenantLogoBlobKey(tenantId, logo.sha256),
      png,
    );
  }
  await inTransaction(platform, async (tx) => {
    const tenant = await findTenant(tx.database.db, tenantId);
    if (!tenant) throw new AppError('NotFound', `no tenant '${tenantId}'`);
    const { logo: before, ...rest } = tenant.settings;
    await updateTenantSettings(tx.database.db, tenantId, logo ? { ...rest, logo } : rest);
    await recordAudit(tx.database.db, tx, {
      ...actor,
      tenantId,
      action: 'tenant.logo.update',
      targetType: 'tenant',
      targetId: tenantId,
      before: before ?? null,
      after: logo,
    });
  });
  return { logoUrl: logo ? `/verify/logos/${tenantId}/${logo.sha256}` : null };
}
