// A webhook receiver a tenant can copy: keeps the raw body, verifies the signature, answers 200 at
// once, deduplicates, and never fails on an event kind or payload it does not know
// (interface §6.4 and §6.5, docs/api-reference.md). It also answers the other use of the callback
// URL: the user's browser coming back with GET ?sessionId&state when the flow is done (§4.1).
// Run: WEBHOOK_SECRET=... node --import tsx examples/webhook-receiver/server.ts (port 3000)
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhookSignature } from 'mimoto';

/** The event kinds this receiver acts on (interface §6.1); others are acknowledged and ignored. */
const KNOWN_EVENTS = new Set([
  'verification.approved',
  'verification.rejected',
  'verification.pending_review',
]);

export interface VerificationEvent {
  event: string;
  verificationId: string;
  status: string;
  /** The whole parsed payload, for fields this example does not name (decision, results, review…). */
  payload: Record<string, unknown>;
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
    if (!verifyWebhookSignature(rawBody, request.headers['x-service-signature'], options.secret)) {
      return reply.code(401).send({ error: 'Unauthorized', message: 'Invalid webhook signature' });
    }
    const deliveryId = headerValue(request.headers['x-service-delivery']);
    // §6.5 rule 2: answer within 5 s and do the work afterwards.
    setImmediate(() => {
      void processDelivery(rawBody, deliveryId).catch((error: unknown) => {
        app.log.error({ err: error }, 'webhook handler failed');
      });
    });
    return reply.code(200).send({ received: true });
  });

  async function processDelivery(rawBody: Buffer, deliveryId: string | undefined): Promise<void> {
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return ignore('body is not JSON', rawBody);
    }
    if (!isRecord(payload)) return ignore('payload is not an object', rawBody);
    const { event, verificationId, status } = payload;
    if (typeof event !== 'string' || !KNOWN_EVENTS.has(event))
      return ignore(`unknown event ${String(event)}`, rawBody);
    if (typeof verificationId !== 'string' || typeof status !== 'string') {
      return ignore('payload without verificationId or status', rawBody);
    }
    // §6.5 rule 4: the same event can arrive more than once. A review outcome has a new status, so
    // it is not mistaken for a duplicate of the earlier pending_review event.
    if (!seen.add(`${verificationId}:${status}`))
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
