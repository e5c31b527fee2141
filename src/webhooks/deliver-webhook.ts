// One delivery attempt of one webhook event (interface §6.3–§6.5, docs/decisions.md "Webhooks"): vet the
// URL, POST the stored bytes to the vetted address, and describe what happened so the attempt can be
// recorded and the next one scheduled (retry-schedule.ts). Never throws: every failure is a result.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebhookEventName } from '../domain/index.ts';
import {
  type ResolveHost,
  resolveWithSystemDns,
  type VettedAddress,
  vetWebhookUrl,
  type WebhookEnvironment,
} from '../platform/net/ssrf-guard.ts';
import { signWebhookBody } from './sign-webhook.ts';

/** Interface §6.5 rule 1 / §8: connect plus the complete response within 5 seconds. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** The first 1 KB of the response is recorded with the attempt, to show why a receiver refused. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export type DeliveryOutcome = 'success' | 'failure' | 'gone';
export type DeliveryErrorClass =
  | 'timeout'
  | 'connection_refused'
  | 'connection_error'
  | 'tls_error'
  | 'dns_error'
  | 'ssrf_refused'
  | 'http_status'
  | 'redirect'
  /** Recorded by the database, not by an attempt: the worker died mid-attempt (migration 0009). */
  | 'interrupted';

export interface DeliveryResult {
  outcome: DeliveryOutcome;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  startedAt: Date;
  durationMs: number;
  errorClass: DeliveryErrorClass | null;
  /** Short human-readable cause, for the attempt record and `mimoto webhooks list`. */
  errorMessage: string | null;
  /** First 1 KB of the response body as UTF-8 text (null when there was no response). */
  responseSnippet: string | null;
  /** From a Retry-After header on a failed response, in ms from the end of this attempt. */
  retryAfterMs: number | null;
}

export interface WebhookRequest {
  /** The session's callbackUrl. */
  url: string;
  /** The event's stored bytes, sent unchanged on every attempt. */
  body: Buffer;
  /** The tenant's current webhook secret; the signature is computed over `body` (§6.4). */
  secret: string;
  /** Or 'webhook.test': the console's test event (send-test-webhook.ts), about no session. */
  event: WebhookEventName | 'webhook.test';
  /** Stable id of the event (X-Service-Delivery), the same on every attempt. */
  deliveryId: string;
  /** 1 for the first try (X-Service-Attempt). */
  attempt: number;
}

export interface DeliveryOptions {
  environment: WebhookEnvironment;
  resolveHost?: ResolveHost;
  /** Applies to DNS resolution, and separately to connect plus full response. */
  timeoutMs?: number;
  /** Trusted roots for https receivers, replacing the system roots (tests, private deployments). */
  ca?: string | Buffer;
}

/** Vets `request.url` (ssrf-guard.ts) and, when allowed, makes one POST attempt to the vetted address. */
export async function deliverWebhook(
  request: WebhookRequest,
  options: DeliveryOptions,
): Promise<DeliveryResult> {
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const vetting = await withTimeout(
    vetWebhookUrl(request.url, options.environment, options.resolveHost ?? resolveWithSystemDns),
    timeoutMs,
  );
  if (vetting === 'timeout' || !vetting.allowed) {
    const errorClass = vetting === 'timeout' ? 'dns_error' : vetting.errorClass;
    const errorMessage =
      vetting === 'timeout' ? `resolving the host took over ${timeoutMs} ms` : vetting.reason;
    return noResponse(startedAt, started, errorClass, errorMessage);
  }
  return postToVettedAddresses({ url: vetting.url, addresses: vetting.addresses }, request, {
    timeoutMs,
    ca: options.ca,
  });
}

/**
 * POSTs to `target.url` but connects only to `target.addresses` (the ones the guard checked): the
 * pinned `lookup` answers for the host name, while the Host header and TLS SNI/certificate check keep
 * the original name. Exported for tests of the pinning itself; use deliverWebhook otherwise.
 */
export function postToVettedAddresses(
  target: { url: URL; addresses: VettedAddress[] },
  request: WebhookRequest,
  options: { timeoutMs?: number; ca?: string | Buffer | undefined } = {},
): Promise<DeliveryResult> {
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const { url, addresses } = target;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const isHttps = url.protocol === 'https:';
  const pinnedLookup: LookupFunction = (_name, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };

  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    let status: number | null = null;
    let retryAfterHeader: string | undefined;
    const snippet: Buffer[] = [];
    let snippetLength = 0;

    const finish = (errorClass: DeliveryErrorClass | null, errorMessage: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const durationMs = Math.round(performance.now() - started);
      const outcome: DeliveryOutcome = errorClass === null ? 'success' : status === 410 ? 'gone' : 'failure';
      resolve({
        outcome,
        status,
        startedAt,
        durationMs,
        errorClass,
        errorMessage,
        responseSnippet: status === null ? null : Buffer.concat(snippet).toString('utf8'),
        retryAfterMs: outcome === 'failure' ? parseRetryAfter(retryAfterHeader, Date.now()) : null,
      });
      req.destroy();
    };

    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      host: hostname,
      port: url.port === '' ? (isHttps ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      lookup: pinnedLookup,
      // A fresh connection per attempt: no pooled socket outlives the address check that allowed it.
      agent: false,
      ...(isHttps ? { servername: isIP(hostname) === 0 ? hostname : undefined, ca: options.ca } : {}),
      headers: {
        Host: url.host,
        'Content-Type': 'application/json',
        'Content-Length': String(request.body.length),
        'User-Agent': 'mimoto-webhooks/1',
        'X-Service-Signature': signWebhookBody(request.body, request.secret),
        'X-Service-Event': request.event,
        'X-Service-Delivery': request.deliveryId,
        'X-Service-Attempt': String(request.attempt),
      },
    });

    const deadline = setTimeout(() => {
      timedOut = true;
      if (status !== null && !isSuccess(status)) finish(...statusFailure(status));
      else finish('timeout', `no complete response within ${timeoutMs} ms`);
    }, timeoutMs);

    req.on('response', (res) => {
      status = res.statusCode ?? null;
      retryAfterHeader = res.headers['retry-after'];
      res.on('data', (chunk: Buffer) => {
        if (snippetLength < RESPONSE_SNIPPET_BYTES) {
          const part = chunk.subarray(0, RESPONSE_SNIPPET_BYTES - snippetLength);
          snippet.push(part);
          snippetLength += part.length;
        }
        // A failed status is already known; no need to wait for the rest of its body.
        if (snippetLength >= RESPONSE_SNIPPET_BYTES && status !== null && !isSuccess(status)) {
          finish(...statusFailure(status));
        }
      });
      res.on('end', () => {
        if (status !== null && isSuccess(status)) finish(null, null);
        else finish(...statusFailure(status ?? 0));
      });
      res.on('error', (error) => {
        if (!timedOut) finish('connection_error', `response interrupted: ${describe(error)}`);
      });
    });
    req.on('error', (error) => {
      if (!timedOut) finish(classifyError(error), describe(error));
    });
    req.end(request.body);
  });
}

/** Parses Retry-After (delta-seconds or HTTP-date) into milliseconds from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function statusFailure(status: number): [DeliveryErrorClass, string] {
  // Redirects are never followed: a 3xx could point anywhere, including inside our network.
  if (status >= 300 && status < 400) return ['redirect', `HTTP ${status}: redirects are not followed`];
  return ['http_status', `HTTP ${status}`];
}

function classifyError(error: Error): DeliveryErrorClass {
  // With several vetted addresses Node tries each (autoSelectFamily) and may report an AggregateError.
  const first = error instanceof AggregateError && error.errors[0] instanceof Error ? error.errors[0] : error;
  const code = (error as NodeJS.ErrnoException).code ?? (first as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|EPROTO|HOSTNAME_MISMATCH|ERR_TLS_CERT)/.test(
      code,
    )
  ) {
    return 'tls_error';
  }
  return 'connection_error';
}

function noResponse(
  startedAt: Date,
  started: number,
  errorClass: DeliveryErrorClass,
  errorMessage: string,
): DeliveryResult {
  return {
    outcome: 'failure',
    status: null,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    errorClass,
    errorMessage,
    responseSnippet: null,
    retryAfterMs: null,
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}: ${error.message}` : error.message;
}
