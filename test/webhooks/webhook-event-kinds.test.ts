// The event store takes any kind of event, each with its own idempotency key; the rows written
// before kinds existed (a decision_key per session) keep working after migration 0013.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { WEBHOOK_EVENT_KINDS } from '../../src/domain/index.ts';
import { parseKeyring } from '../../src/platform/crypto/encryption.ts';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { type Database, openDatabase } from '../../src/platform/db/open-database.ts';
import {
  recordWebhookEvent,
  WEBHOOK_EVENT_KIND_DEFINITIONS,
  webhookOperations,
  webhookPayloadComponents,
} from '../../src/webhooks/index.ts';
import { createFreshPostgres } from '../helpers/fresh-postgres.ts';
import {
  createTestPlatform,
  POSTGRES_URL,
  TEST_ENCRYPTION_KEY,
  type TestPlatform,
} from '../helpers/test-platform.ts';
import { approvedDecision, createTenantWithSession, sessionOf } from './event-fixture.ts';

describe('event kinds', () => {
  let platform: TestPlatform;
  before(async () => {
    platform = await createTestPlatform();
  });
  after(() => platform.close());

  const record = <K extends keyof typeof WEBHOOK_EVENT_KIND_DEFINITIONS>(
    kind: K,
    input: Parameters<typeof recordWebhookEvent<K>>[3],
  ) =>
    sessionOf(platform, input.verificationId).then((session) =>
      platform.database.db
        .transaction()
        .execute((trx) => recordWebhookEvent(trx, platform, kind, input, session)),
    );

  it('every kind of the vocabulary has its definition, and the OpenAPI document shows each', () => {
    assert.deepEqual(Object.keys(WEBHOOK_EVENT_KIND_DEFINITIONS), [...WEBHOOK_EVENT_KINDS]);
    const components = webhookPayloadComponents();
    const operations = webhookOperations();
    for (const definition of Object.values(WEBHOOK_EVENT_KIND_DEFINITIONS)) {
      assert.ok(components[definition.openApi.component], definition.openApi.component);
      for (const event of definition.events) assert.ok(operations[event], event);
    }
  });

  it('keys are per kind: a decision, a review and an expiry of one session are three events', async () => {
    const { tenantId, sessionId } = await createTenantWithSession(platform, 'https://tenant.example/kinds');
    const decision = await record('decision', approvedDecision(tenantId, sessionId, 1));
    const review = await record('review', {
      verificationId: sessionId,
      tenantId,
      review: {
        id: 'rv_1',
        decision: 'rejected',
        reviewedBy: 'r@tenant.example',
        reviewedAt: new Date(),
        reason: 'x',
      },
      verificationResult: {},
      processedAt: new Date(),
    });
    const expired = await record('expired', {
      verificationId: sessionId,
      tenantId,
      expiresAt: new Date(),
      processedAt: new Date(),
    });
    assert.ok([decision, review, expired].every((e) => e.created));
    const rows = await platform.database.db
      .selectFrom('webhook_events')
      .select(['id', 'kind', 'idempotency_key', 'event'])
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .orderBy('kind')
      .execute();
    assert.deepEqual(rows.map((r) => [r.kind, r.idempotency_key, r.event]).sort(), [
      ['decision', 'auto:1', 'verification.approved'],
      ['expired', 'expired', 'verification.expired'],
      ['review', 'review:rv_1', 'verification.rejected'],
    ]);
    // Each kind's key makes a repeat return the first event.
    const again = await record('expired', {
      verificationId: sessionId,
      tenantId,
      expiresAt: new Date(),
      processedAt: new Date(),
    });
    assert.deepEqual(again, { eventId: expired.eventId, created: false });
  });
});

describe('migration 0013', () => {
  let database: Database;
  let drop = async () => {};
  before(async () => {
    if (POSTGRES_URL) {
      const fresh = await createFreshPostgres(POSTGRES_URL);
      drop = fresh.drop;
      database = await openDatabase({ kind: 'postgres', url: fresh.url });
    } else {
      database = await openDatabase({ kind: 'pglite' });
    }
  });
  after(async () => {
    await database.close();
    await drop();
  });

  it('keeps the decision events written before it, and their keys still deduplicate', async () => {
    const migrations = readMigrations();
    await migrate(
      database,
      migrations.filter((m) => m.id < '0013'),
    );
    const db = database.db;
    await sql`INSERT INTO tenants (id, name, webhook_secret_enc) VALUES ('tn_old', 'Old', 'x')`.execute(db);
    await sql`
      INSERT INTO verification_sessions (id, tenant_id, callback_url, link_token_hash, verification_url_enc,
                                         verification_url_expires_at, expires_at)
      VALUES ('vs_old', 'tn_old', 'https://tenant.example/cb', 'h', 'u', now(), now())`.execute(db);
    for (const [id, key, event] of [
      ['evt_auto', 'auto:1', 'verification.pending_review'],
      ['evt_review', 'review:rv_9', 'verification.approved'],
      ['evt_expired', 'expired', 'verification.expired'],
    ])
      await sql`
        INSERT INTO webhook_events (id, tenant_id, session_id, decision_key, event, callback_url, endpoint,
                                    body_enc, body_sha256)
        VALUES (${id}, 'tn_old', 'vs_old', ${key}, ${event}, 'https://tenant.example/cb',
                'https://tenant.example', '\\x00'::bytea, 'x')`.execute(db);

    await migrate(database, migrations);
    const rows = await db
      .selectFrom('webhook_events')
      .select(['id', 'kind', 'idempotency_key', 'state'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.id, r.kind, r.idempotency_key, r.state]),
      [
        ['evt_auto', 'decision', 'auto:1', 'pending'],
        ['evt_expired', 'expired', 'expired', 'pending'],
        ['evt_review', 'review', 'review:rv_9', 'pending'],
      ],
    );
    // A decision job retried after the upgrade finds the event its first run wrote.
    const platform = { keyring: parseKeyring(TEST_ENCRYPTION_KEY), now: () => new Date() };
    const retried = await db.transaction().execute((trx) =>
      recordWebhookEvent(
        trx,
        platform,
        'decision',
        {
          ...approvedDecision('tn_old', 'vs_old', 1),
          decision: { status: 'pending_review', reason: 'low_ocr_confidence' },
        },
        { id: 'vs_old', tenant_id: 'tn_old', callback_url: 'https://tenant.example/cb' },
      ),
    );
    assert.deepEqual(retried, { eventId: 'evt_auto', created: false });
  });
});
