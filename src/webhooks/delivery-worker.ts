// Delivers due webhook events (interface §6.5; docs/decisions.md "Webhooks").
//
// Why a claim query on the events table rather than one pg-boss job per event: the isolation rule
// needs "at most N deliveries in flight per endpoint, across every worker process", which is a count
// over in-flight deliveries grouped by endpoint; pg-boss can express only one active job per key
// (its singleton policy), which would serialise every healthy endpoint too. The schedule (jitter,
// Retry-After, 410, manual redelivery) lives in the event row anyway, so the row is the one source
// of truth and the queue at once: the event is "enqueued" by the INSERT in the decision's
// transaction, claimed with a lease, and a crashed worker's lease simply runs out: the next claim
// records the lost attempt as 'interrupted' and tries the event again.
//
// In this process: up to `concurrency` deliveries at once; each claim asks the database only for
// what fits both the free local slots and every endpoint's free slots, so a dead endpoint holds at
// most `maxPerEndpoint` connections (for the 5 s limit each) and everyone else's events go on.
import { randomBytes } from 'node:crypto';
import { decryptBytes } from '../platform/crypto/encryption.ts';
import type { WebhookEventState } from '../platform/db/schema.ts';
import type { ResolveHost } from '../platform/net/ssrf-guard.ts';
import type { Platform } from '../platform/platform.ts';
import { readWebhookSecret } from '../tenants/index.ts';
import { DELIVERY_TIMEOUT_MS, type DeliveryResult, deliverWebhook } from './deliver-webhook.ts';
import { eventBodyContext } from './record-webhook-event.ts';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, type RetrySchedule } from './retry-schedule.ts';
import {
  type ClaimedEvent,
  claimDueEvents,
  claimEventNow,
  recordAttempt,
  releaseClaim,
} from './webhook-event-repository.ts';

export interface DeliveryWorkerOptions {
  /** Deliveries at once in this process. */
  concurrency?: number;
  /** Deliveries at once to one endpoint (origin of the callbackUrl), across all processes. */
  maxPerEndpoint?: number;
  /** How often to look for due events when there was nothing to do. */
  pollIntervalMs?: number;
  /** Connect plus full response (interface §6.5: 5 s); tests shorten it. */
  timeoutMs?: number;
  retrySchedule?: RetrySchedule;
  /** Jitter source of the retry schedule. */
  random?: () => number;
  resolveHost?: ResolveHost;
  ca?: string | Buffer;
  /** Called with errors of the loop itself (database down, …); deliveries never throw. */
  onError?: (error: unknown) => void;
}

export const DEFAULT_CONCURRENCY = 128;
export const DEFAULT_MAX_PER_ENDPOINT = 8;
export const DEFAULT_POLL_INTERVAL_MS = 250;
/** The shortest time between two claims that did not fill every free slot. */
const CLAIM_GAP_MS = 20;

export interface DeliveryWorker {
  /** Stops claiming, waits for the deliveries in flight to finish and be recorded. */
  stop(): Promise<void>;
  /** Looks for due events now instead of at the next poll. */
  wake(): void;
  inFlight(): number;
}

type Settings = Required<Omit<DeliveryWorkerOptions, 'resolveHost' | 'ca' | 'onError'>> &
  Pick<DeliveryWorkerOptions, 'resolveHost' | 'ca' | 'onError'>;

function settingsFrom(options: DeliveryWorkerOptions): Settings {
  return {
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    maxPerEndpoint: options.maxPerEndpoint ?? DEFAULT_MAX_PER_ENDPOINT,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    retrySchedule: options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    random: options.random ?? Math.random,
    resolveHost: options.resolveHost,
    ca: options.ca,
    onError: options.onError,
  };
}

/** A lease outlives the slowest attempt (DNS limit plus request limit) with room for recording it. */
function leaseMs(settings: Settings): number {
  return 2 * settings.timeoutMs + 30_000;
}

export function startWebhookDeliveryWorker(
  platform: Platform,
  options: DeliveryWorkerOptions = {},
): DeliveryWorker {
  const settings = settingsFrom(options);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  /**
   * Set when a delivery finishes that may let the next claim find more: the process was at full
   * concurrency, or the endpoint was full at its claim. Other finished deliveries free nothing a
   * claim is waiting for; their endpoints' new events are found by the next poll.
   */
  let completedSinceClaim = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  };
  const sleep = (ms: number, wakeable: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, ms);
      if (wakeable) {
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      }
    });

  const loop = async () => {
    while (!stopping) {
      const free = settings.concurrency - inFlight.size;
      if (free <= 0) {
        await sleep(settings.pollIntervalMs, true); // woken when a delivery finishes
        continue;
      }
      completedSinceClaim = false;
      let claimed: ClaimedEvent[] = [];
      try {
        const now = platform.now();
        claimed = await claimDueEvents(platform.database.db, {
          now,
          leaseUntil: new Date(now.getTime() + leaseMs(settings)),
          leaseToken: randomBytes(12).toString('base64url'),
          batchSize: free,
          maxPerEndpoint: settings.maxPerEndpoint,
        });
      } catch (error) {
        settings.onError?.(error);
      }
      if (stopping) {
        await Promise.all(claimed.map((event) => releaseClaim(platform.database.db, event).catch(() => {})));
        break;
      }
      // Secrets are read once per tenant per claim: current at send time (§6.4, rotation).
      const secrets = new Map<string, Promise<string>>();
      for (const event of claimed) {
        // A failure before the attempt is recorded (e.g. the tenant's secret unreadable) leaves the
        // lease to run out, which is the back-off before the event is tried again.
        const delivery: Promise<void> = deliverClaimedEvent(platform, event, 'scheduled', settings, secrets)
          .then(
            () => {},
            (error) => settings.onError?.(error),
          )
          .finally(() => {
            const wasFull = inFlight.size >= settings.concurrency;
            inFlight.delete(delivery);
            if (wasFull || event.endpointFull) {
              completedSinceClaim = true;
              wake();
            }
          });
        inFlight.add(delivery);
      }
      // A full batch may mean more is due: claim again at once. Otherwise the next claim waits for
      // a finished delivery that freed a slot someone waits for, or the poll, and in any case for
      // CLAIM_GAP_MS, so that claims come in batches rather than one per finished delivery.
      if (claimed.length < free && !stopping) {
        await sleep(CLAIM_GAP_MS, false);
        if (!completedSinceClaim && !stopping) await sleep(settings.pollIntervalMs - CLAIM_GAP_MS, true);
      }
    }
  };
  const running = loop().catch((error) => settings.onError?.(error));

  return {
    wake,
    inFlight: () => inFlight.size,
    stop: async () => {
      stopping = true;
      wake();
      await running;
      await Promise.all(inFlight);
    },
  };
}

/**
 * One attempt of a leased event: decrypt the stored bytes, sign them with the tenant's current
 * secret, POST, record, schedule.
 */
async function deliverClaimedEvent(
  platform: Platform,
  event: ClaimedEvent,
  trigger: 'scheduled' | 'manual',
  settings: Settings,
  secrets = new Map<string, Promise<string>>(),
): Promise<{ result: DeliveryResult; state: WebhookEventState; nextAttemptAt: Date | null }> {
  const body = decryptBytes(platform.keyring, event.bodyEnc, eventBodyContext(event.id));
  let secret = secrets.get(event.tenantId);
  if (!secret) {
    secret = readWebhookSecret(platform, event.tenantId);
    secrets.set(event.tenantId, secret);
  }
  const result = await deliverWebhook(
    {
      url: event.callbackUrl,
      body,
      secret: await secret,
      event: event.event,
      deliveryId: event.id,
      attempt: event.attempt,
    },
    {
      environment: platform.config.env,
      timeoutMs: settings.timeoutMs,
      ...(settings.resolveHost ? { resolveHost: settings.resolveHost } : {}),
      ...(settings.ca ? { ca: settings.ca } : {}),
    },
  );
  const { state, nextAttemptAt: next } = nextStep(event, trigger, result, settings);
  await recordAttempt(platform.database.db, {
    event,
    trigger,
    result,
    state,
    nextAttemptAt: next,
    recordedAt: platform.now(),
  });
  return { result, state, nextAttemptAt: next };
}

/**
 * The event's state after an attempt (docs/decisions.md: 2xx delivered, 410 gone, an address the SSRF guard
 * refuses failed at once, else retry until the schedule ends).
 */
function nextStep(
  event: ClaimedEvent,
  trigger: 'scheduled' | 'manual',
  result: DeliveryResult,
  settings: Settings,
): { state: WebhookEventState; nextAttemptAt: Date | null } {
  if (result.outcome === 'success') return { state: 'delivered', nextAttemptAt: null };
  if (result.outcome === 'gone') return { state: 'gone', nextAttemptAt: null };
  if (trigger === 'manual') {
    // A failed manual attempt leaves the schedule as it was: a pending event keeps its next
    // automatic attempt, a finished one stays finished.
    return { state: event.state, nextAttemptAt: event.state === 'pending' ? event.nextAttemptAt : null };
  }
  // The guard refused the address (private, loopback, metadata…): waiting does not make it public,
  // and two days of retries would only hide the misconfiguration. The attempt is recorded with why.
  if (result.errorClass === 'ssrf_refused') return { state: 'failed', nextAttemptAt: null };
  const attemptNumber = event.scheduledAttemptCount + 1;
  const next = nextAttemptAt(
    attemptNumber,
    event.firstAttemptAt ?? result.startedAt,
    result,
    settings.random,
    settings.retrySchedule,
  );
  return next === null ? { state: 'failed', nextAttemptAt: null } : { state: 'pending', nextAttemptAt: next };
}

export class WebhookEventBusyError extends Error {
  override name = 'WebhookEventBusyError';
}

/**
 * `mimoto webhooks redeliver`: one attempt now with the stored bytes, whatever the event's state.
 * Returns undefined when there is no such event; throws WebhookEventBusyError while a worker is
 * delivering it.
 */
export async function redeliverWebhookEvent(
  platform: Platform,
  eventId: string,
  options: DeliveryWorkerOptions = {},
): Promise<
  | {
      eventId: string;
      attempt: number;
      result: DeliveryResult;
      state: WebhookEventState;
      nextAttemptAt: Date | null;
    }
  | undefined
> {
  const settings = settingsFrom(options);
  const now = platform.now();
  const claimed = await claimEventNow(platform.database.db, eventId, {
    now,
    leaseUntil: new Date(now.getTime() + leaseMs(settings)),
    // 'm.': a manual attempt, should it be lost with its worker (recover_lost_webhook_attempts).
    leaseToken: `m.${randomBytes(12).toString('base64url')}`,
  });
  if (claimed === undefined) return undefined;
  if (claimed === 'busy') throw new WebhookEventBusyError(`event ${eventId} is being delivered right now`);
  const outcome = await deliverClaimedEvent(platform, claimed, 'manual', settings);
  return { eventId, attempt: claimed.attempt, ...outcome };
}
