// "Send test event" of the console's webhook log (docs/console-api.md "Tenant admin"): one signed
// POST of a small `webhook.test` body to a URL on the tenant's allow list, through the same SSRF
// guard and delivery code as real events, answered with what was sent and what came back. Nothing
// is stored and nothing is retried: it answers "does my receiver get and verify our webhooks?".
// Receivers must tolerate unknown event kinds (interface §6.5 rule 4), so the kind names itself.
import { newId } from '../platform/crypto/random-id.ts';
import type { ResolveHost } from '../platform/net/ssrf-guard.ts';
import type { Platform } from '../platform/platform.ts';
import { readWebhookSecret } from '../tenants/index.ts';
import { type DeliveryResult, deliverWebhook, RESPONSE_SNIPPET_BYTES } from './deliver-webhook.ts';

export const TEST_WEBHOOK_EVENT = 'webhook.test';

export interface TestWebhookOutcome {
  url: string;
  event: typeof TEST_WEBHOOK_EVENT;
  deliveryId: string;
  requestBody: string;
  result: DeliveryResult;
}

export async function sendTestWebhook(
  platform: Platform,
  input: { tenantId: string; url: string },
  options: { resolveHost?: ResolveHost; timeoutMs?: number } = {},
): Promise<TestWebhookOutcome> {
  const deliveryId = newId('evt');
  const body = JSON.stringify({
    event: TEST_WEBHOOK_EVENT,
    tenantId: input.tenantId,
    testId: deliveryId,
    sentAt: platform.now().toISOString(),
    message: 'A test event sent from the console; it concerns no verification.',
  });
  const result = await deliverWebhook(
    {
      url: input.url,
      body: Buffer.from(body, 'utf8'),
      secret: await readWebhookSecret(platform, input.tenantId),
      event: TEST_WEBHOOK_EVENT,
      deliveryId,
      attempt: 1,
    },
    {
      environment: platform.config.env,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    },
  );
  return { url: input.url, event: TEST_WEBHOOK_EVENT, deliveryId, requestBody: body, result };
}

/** Whether a recorded response snippet may have been cut at the recording limit. */
export const isSnippetFull = (snippet: string | null) =>
  snippet !== null && Buffer.byteLength(snippet, 'utf8') >= RESPONSE_SNIPPET_BYTES - 3;
