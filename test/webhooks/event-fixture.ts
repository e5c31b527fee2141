// Tenants, sessions and decisions for the event store and delivery worker tests: the same service
// functions the API and the pipeline use, on a real database.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { createApiKey } from '../../src/api-keys/index.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createSession } from '../../src/sessions/create-session.ts';
import { findSession } from '../../src/sessions/index.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { startWebhookDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { recordWebhookEvent, type WebhookEventSession } from '../../src/webhooks/record-webhook-event.ts';
import type { AutomaticDecisionEventInput } from '../../src/webhooks/webhook-event-kinds.ts';
import { findEventsWithAttempts } from '../../src/webhooks/webhook-event-repository.ts';

export async function createTenantWithSession(
  platform: Platform,
  callbackUrl: string,
): Promise<{ tenantId: string; webhookSecret: string; sessionId: string }> {
  const origin = new URL(callbackUrl).origin;
  const { tenantId, webhookSecret } = await createTenant(platform, {
    name: 'Webhook tenant',
    callbackUrlPrefixes: [`${origin}/`],
  });
  const sessionId = await addSession(platform, tenantId, callbackUrl);
  return { tenantId, webhookSecret, sessionId };
}

export async function addSession(platform: Platform, tenantId: string, callbackUrl: string): Promise<string> {
  // A session is created only under an enabled key of its tenant, as the API does.
  const { keyId } = await createApiKey(platform, tenantId, 'event tests');
  const { sessionId } = await createSession(platform, { tenantId, keyId }, { callbackUrl });
  return sessionId;
}

export function approvedDecision(
  tenantId: string,
  sessionId: string,
  generation = 1,
): AutomaticDecisionEventInput {
  return {
    verificationId: sessionId,
    generation,
    tenantId,
    decision: {
      status: 'approved',
      reason: 'all_checks_passed',
      metadata: { faceMatchSimilarity: 0.91, threshold: 0.6 },
    },
    results: {
      ocr: {
        success: true,
        confidence: 0.93,
        payload: {
          lastName: '山田',
          firstName: '太郎',
          birthDate: '1990-04-01',
          address: '東京都千代田区1-1',
        },
      },
      faceMatch: { similarity: 0.91, isSamePerson: true },
    },
    processedAt: new Date('2026-01-02T03:04:05.678Z'),
  };
}

/** The session row an event is recorded with, as the code recording it holds it. */
export async function sessionOf(platform: Platform, sessionId: string): Promise<WebhookEventSession> {
  const session = await findSession(platform.database.db, sessionId);
  if (!session) throw new Error(`no session ${sessionId}`);
  return session;
}

/** Records the decision's event in its own transaction, as the decision code does. */
export async function recordApproval(
  platform: Platform,
  tenantId: string,
  sessionId: string,
  generation = 1,
): Promise<string> {
  const session = await sessionOf(platform, sessionId);
  const { eventId } = await platform.database.db
    .transaction()
    .execute((trx) =>
      recordWebhookEvent(
        trx,
        platform,
        'decision',
        approvedDecision(tenantId, sessionId, generation),
        session,
      ),
    );
  return eventId;
}

export async function readEvent(platform: Platform, eventId: string) {
  const { events, attempts } = await findEventsWithAttempts(platform.database.db, { eventId });
  const event = events[0];
  if (!event) throw new Error(`no event ${eventId}`);
  return { event, attempts };
}

/**
 * Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. Every 100 ms:
 * on PGlite each query runs on the thread that also serves the deliveries under test.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The receiver's check, written from interface §6.4 alone (not the package's verifier). */
export function signatureIsValid(body: Buffer, headers: http.IncomingHttpHeaders, secret: string): boolean {
  const header = headers['x-service-signature'];
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const received = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/**
 * Runs one delivery end to end with a throw-away worker. PGlite compiles the WebAssembly of each new
 * query shape on first use, which can stall the event loop for hundreds of milliseconds on a busy
 * machine; tests with shortened time limits warm up first so the stall is not mistaken for a slow
 * receiver.
 */
export async function warmUpDelivery(platform: Platform, url: string): Promise<void> {
  const { tenantId, sessionId } = await createTenantWithSession(platform, url);
  const eventId = await recordApproval(platform, tenantId, sessionId, 0);
  const worker = startWebhookDeliveryWorker(platform, { pollIntervalMs: 20 });
  try {
    await waitFor('the warm-up delivery', async () =>
      (await readEvent(platform, eventId)).event.state === 'delivered' ? true : undefined,
    );
  } finally {
    await worker.stop();
  }
}
