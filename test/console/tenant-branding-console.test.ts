// A tenant admin names the tenant to its end users: display name and accent colour in the
// settings (a colour unreadable with white text is refused), and a logo checked by content,
// served by the hosted flow from our origin.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { findTenant } from '../../src/tenants/index.ts';
import { useConsoleWorld } from './console-helpers.ts';

describe('tenant branding in the console', () => {
  const world = useConsoleWorld();
  const settingsPath = () => `/tenants/${world.tenantA.tenantId}/settings`;
  const logoPath = () => `/tenants/${world.tenantA.tenantId}/logo`;

  it('stores a display name and a readable accent colour; refuses one white text cannot be read on', async () => {
    const current = (await world.client.request('GET', settingsPath(), world.adminA)).json().settings;
    const ok = await world.client.request('PUT', settingsPath(), world.adminA, {
      settings: { ...current, displayName: 'みらい銀行', accentColor: '#8a1538' },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().settings.displayName, 'みらい銀行');
    const pale = await world.client.request('PUT', settingsPath(), world.adminA, {
      settings: { ...current, accentColor: '#ffd400' },
    });
    assert.equal(pale.statusCode, 400);
    assert.match(pale.json().message, /accentColor contrasts 1\.\d\d:1 with white/);
    // Leaving the fields out keeps them (a console that does not know them cannot clear them).
    const kept = await world.client.request('PUT', settingsPath(), world.adminA, { settings: current });
    assert.equal(kept.json().settings.accentColor, '#8a1538');
  });

  it('takes a PNG logo, serves it from the flow origin, and refuses what is not an image', async () => {
    const png = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#8a1538' } })
      .png()
      .toBuffer();
    const put = await world.client.request('PUT', logoPath(), world.adminA, {
      image: png.toString('base64'),
    });
    assert.equal(put.statusCode, 200, put.body);
    const { logoUrl } = put.json();
    assert.match(logoUrl, /^\/verify\/logos\/tn_[A-Z0-9]+\/[0-9a-f]{64}$/);
    const image = await world.client.app.inject({ method: 'GET', url: logoUrl });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.equal((await sharp(image.rawPayload).metadata()).width, 120);

    const text = await world.client.request('PUT', logoPath(), world.adminA, {
      image: Buffer.from('<svg onload=alert(1)>').toString('base64'),
    });
    assert.equal(text.statusCode, 400);
    assert.match(text.json().message, /PNG, JPEG or WebP/);
    // Another tenant's admin cannot set it.
    const other = await world.client.request('PUT', logoPath(), world.adminB, {
      image: png.toString('base64'),
    });
    assert.equal(other.statusCode, 403);

    const removed = await world.client.request('PUT', logoPath(), world.adminA, { image: null });
    assert.equal(removed.json().logoUrl, null);
    assert.equal(
      (await findTenant(world.platform.database.db, world.tenantA.tenantId))?.settings.logo,
      undefined,
    );
    assert.equal((await world.client.app.inject({ method: 'GET', url: logoUrl })).statusCode, 404);
  });
});
