// A webhook receiver a tenant can copy: keeps the raw body, verifies the signature with the Node
// SDK (@mimoto/node, packages/node), answers 200 at once, deduplicates, and never fails on an event
// kind or payload it does not know (interface §6.4 and §6.5, docs/api-reference.md). It also answers the other use of the callback
// URL: the user's browser coming back with GET ?sessionId&state when the flow is done (§4.1).
// Run: WEBHOOK_SECRET=... node --import tsx examples/webhook-receiver/server.ts (port 3000)
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
// In your project: import { webhooks, WebhookVerificationError } from '@mimoto/node';
import { type WebhookEvent, WebhookVerificationError, webhooks } from '../../packages/node/src/index.ts';

/** Failures that mean the delivery is not from the service (or not for this secret): 401. */
const NOT_AUTHENTIC = new Set([
  'missing_secret',
  'invalid_body',
  'missing_signature',
  'malformed_signature',
  'signature_mismatch',
]);

export interface VerificationEvent {
  event: string;
  verificationId: string;
  status: string;
  /** The whole typed payload, for fields this example does not name (decision, results, review, reprocess…). */
  payload: WebhookEvent;
  deliveryId: string | undefined;
}

export interface ReceiverOptions {
  /** The webhook secret given at tenant setup (interface §5 item 6). */
  secret: string;
  /** Your business logic. Runs after the 200 has been sent, so it may take as long as it needs. */
  handleEvent: (event: VerificationEvent) => Promise<void> | void;
  /** Called for deliveries that were verified but not acted on (duplicate, unknown kind, odd payload). */
  onIgnored?: (reason: string, rawBody: Buffer) => void;
  /** How many verificationId+status pairs to remember for deduplication. */
  dedupeCapacity?: number;
  logger?: boolean;
}

export function buildReceiver(options: ReceiverOptions): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 1024 * 1024 });
  const seen = new RecentKeys(options.dedupeCapacity ?? 10_000);
  const ignore = options.onIgnored ?? (() => {});

  // §6.4 rule 3: the signature covers the raw bytes, so no parsing body reader may run first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // The browser redirect (§4.1): the user is done, the result comes later by POST. A real tenant
  // compares `state` with the value it stored for this user and refuses a mismatch.
  app.get<{ Querystring: { sessionId?: string; state?: string } }>(
    '/webhooks/mimoto',
    async (request, reply) => {
      const sessionId = String(request.query.sessionId ?? '');
      reply.type('text/html; charset=utf-8');
      return `<!doctype html><meta charset="utf-8"><title>Verification submitted</title>
<p>Verification <code>${escapeHtml(sessionId)}</code> submitted. The result arrives at this URL as a signed POST (the webhook).</p>`;
    },
  );

  app.post('/webhooks/mimoto', async (request, reply) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let payload: WebhookEvent | undefined;
    let unusable: string | undefined;
    try {
      payload = webhooks.verify(rawBody, request.headers, options.secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      if (NOT_AUTHENTIC.has(error.code)) {
        return reply.code(401).send({ error: 'Unauthorized', message: 'Invalid webhook signature' });
      }
      // Signed by the service but not a payload this receiver understands: acknowledge, never retry.
      unusable = `${error.code}: ${error.message}`;
    }
    const deliveryId = headerValue(request.headers['x-service-delivery']);
    // §6.5 rule 2: answer within 5 s and do the work afterwards.
    setImmediate(() => {
      void processDelivery(rawBody, payload, unusable, deliveryId).catch((error: unknown) => {
        app.log.error({ err: error }, 'webhook handler failed');
      });
    });
    return reply.code(200).send({ received: true });
  });

  async function processDelivery(
    rawBody: Buffer,
    payload: WebhookEvent | undefined,
    unusable: string | undefined,
    deliveryId: string | undefined,
  ): Promise<void> {
    if (!payload) return ignore(unusable ?? 'unusable payload', rawBody);
    if (!webhooks.isKnownEvent(payload)) return ignore(`unknown event ${payload.event}`, rawBody);
    const { event, verificationId } = payload;
    const status = (payload as { status?: unknown }).status;
    if (typeof status !== 'string') return ignore('payload without status', rawBody);
    // §6.5 rule 4: the same event can arrive more than once, with the same X-Service-Delivery. A
    // verification can have several events (a review after pending_review, a reprocess that changed
    // the decision, even back to an earlier status), each with its own delivery id.
    const processedAt = (payload as { processedAt?: unknown }).processedAt;
    if (!seen.add(deliveryId ?? `${verificationId}:${status}:${String(processedAt)}`))
      return ignore(`duplicate ${verificationId} ${status}`, rawBody);
    await options.handleEvent({ event, verificationId, status, payload, deliveryId });
  }

  return app;
}

/** Remembers the most recent keys; `add` is false for a key already present. Use a unique index in a real database. */
class RecentKeys {
  readonly #keys = new Set<string>();
  constructor(readonly capacity: number) {}

  add(key: string): boolean {
    if (this.#keys.has(key)) return false;
    this.#keys.add(key);
    if (this.#keys.size > this.capacity) this.#keys.delete(this.#keys.values().next().value!);
    return true;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error('Set WEBHOOK_SECRET to the webhook secret of your tenant.');
    process.exit(1);
  }
  const app = buildReceiver({
    secret,
    logger: true,
    handleEvent: ({ event, verificationId, status }) => {
      app.log.info({ event, verificationId, status }, 'verification result');
    },
    onIgnored: (reason) => app.log.warn({ reason }, 'webhook ignored'),
  });
  // Port 3000 by default: 8080 is the mimoto service's own.
  await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
}
