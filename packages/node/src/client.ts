// The API client: one method per /v1 operation, typed by the generated Operations, with retries
// on 429 and 503 (the request was not processed) and, for operations that are safe to repeat, on
// other 5xx answers and connection failures, with exponential backoff and Retry-After honoured.
import { MimotoApiError, MimotoConnectionError } from './errors.js';
import type {
  CreatedSession,
  CreateSessionRequest,
  ListSessionsQuery,
  OperationId,
  Operations,
  ReprocessRequest,
  ReprocessResult,
  ReviewRequest,
  SessionDetail,
  SessionList,
} from './types.gen.js';
import { webhooks } from './webhooks.js';

export interface MimotoOptions {
  /** The tenant's API key (mmt_…). Server side only. */
  apiKey: string;
  /** The service's base URL, e.g. https://mimoto.example (no /v1). */
  baseUrl: string;
  /** Retries after the first try (default 2). */
  maxRetries?: number;
  /** Per-try timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** First backoff in milliseconds, doubled each retry, with jitter (default 500). */
  retryBaseDelayMs?: number;
  /** Longest wait between tries in milliseconds, Retry-After included (default 20 000). */
  maxRetryDelayMs?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
}

export type ImageKind = 'front' | 'back' | 'liveness-reference';
export type SessionSummary = SessionList['data'][number];
export type ListSessionsParams = Omit<ListSessionsQuery, 'limit'> & { limit?: number | string };

/** Operations a repeat cannot change the outcome of: retried on 5xx and connection failures too. */
const REPEATABLE: ReadonlySet<OperationId> = new Set<OperationId>([
  'getSession',
  'listSessions',
  'cancelSession',
  'redactSession',
  'getSessionImage',
]);

interface Call<Op extends OperationId> {
  operation: Op;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  binary?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Mimoto {
  readonly sessions: Sessions;
  readonly webhooks = webhooks;
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;

  constructor(options: MimotoOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey.length === 0) {
      throw new TypeError('Mimoto: apiKey is required');
    }
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError('Mimoto: baseUrl must be an absolute URL, e.g. https://mimoto.example');
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') {
      throw new TypeError('Mimoto: baseUrl must be an http(s) URL');
    }
    this.#apiKey = options.apiKey;
    this.#baseUrl = base.href.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 2));
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#baseDelayMs = options.retryBaseDelayMs ?? 500;
    this.#maxDelayMs = options.maxRetryDelayMs ?? 20_000;
    this.sessions = new Sessions(this);
  }

  /** @internal One call with its retries. */
  async call<Op extends OperationId>(method: string, call: Call<Op>): Promise<Operations[Op]['response']> {
    const url = new URL(this.#baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: call.binary ? 'image/jpeg' : 'application/json',
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const repeatable = REPEATABLE.has(call.operation);
    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < this.#maxRetries;
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
      } catch (error) {
        if (repeatable && retriesLeft) {
          await sleep(this.#backoff(attempt, undefined));
          continue;
        }
        const timedOut = (error as { name?: string })?.name === 'TimeoutError';
        throw new MimotoConnectionError(
          call.operation,
          timedOut
            ? `no answer within ${this.#timeoutMs} ms`
            : `request failed: ${(error as Error)?.message}`,
          { cause: error },
        );
      }
      if (response.ok) {
        if (call.binary) return new Uint8Array(await response.arrayBuffer()) as never;
        return (await response.json()) as Operations[Op]['response'];
      }
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const notProcessed = response.status === 429 || response.status === 503;
      if (retriesLeft && (notProcessed || (repeatable && response.status >= 500))) {
        await response.body?.cancel().catch(() => {});
        await sleep(this.#backoff(attempt, retryAfter));
        continue;
      }
      throw await apiError(call.operation, response, retryAfter);
    }
  }

  #backoff(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, this.#maxDelayMs);
    const ceiling = Math.min(this.#baseDelayMs * 2 ** attempt, this.#maxDelayMs);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

async function apiError(operation: OperationId, response: Response, retryAfter: number | undefined) {
  const text = await response.text().catch(() => '');
  let body: { error?: unknown; message?: unknown; details?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const known = typeof body?.error === 'string' && typeof body.message === 'string';
  return new MimotoApiError(
    operation,
    response.status,
    known ? (body!.error as never) : 'UnexpectedResponse',
    known ? (body!.message as string) : text.slice(0, 200) || response.statusText,
    Array.isArray(body?.details) ? (body.details as { path: string; message: string }[]) : undefined,
    retryAfter,
  );
}

const sessionPath = (sessionId: string, suffix = '') => {
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    throw new TypeError('sessionId must be a non-empty string');
  }
  return `/v1/verification-sessions/${encodeURIComponent(sessionId)}${suffix}`;
};

/** /v1/verification-sessions and the routes under it. */
export class Sessions {
  readonly #client: Mimoto;
  constructor(client: Mimoto) {
    this.#client = client;
  }

  /** Creates a session; send the user's browser to verificationUrl at once (valid 10 s). */
  create(body: CreateSessionRequest): Promise<CreatedSession> {
    return this.#client.call('POST', { operation: 'createSession', path: '/v1/verification-sessions', body });
  }

  /** The session with its results; fields with no value are absent. */
  get(sessionId: string): Promise<SessionDetail> {
    return this.#client.call('GET', { operation: 'getSession', path: sessionPath(sessionId) });
  }

  /** One page of the tenant's sessions, newest first. */
  list(params: ListSessionsParams = {}): Promise<SessionList> {
    return this.#client.call('GET', {
      operation: 'listSessions',
      path: '/v1/verification-sessions',
      query: params as Record<string, string | number | undefined>,
    });
  }

  /** Every session matching the filters, page after page. */
  async *listAll(params: Omit<ListSessionsParams, 'startingAfter'> = {}): AsyncGenerator<SessionSummary> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.list({ ...params, ...(startingAfter ? { startingAfter } : {}) });
      yield* page.data;
      if (!page.hasMore || !page.nextCursor) return;
      startingAfter = page.nextCursor;
    }
  }

  /** Ends a session the user has not submitted; its link and cookie stop working. */
  cancel(sessionId: string): Promise<SessionDetail> {
    return this.#client.call('POST', { operation: 'cancelSession', path: sessionPath(sessionId, '/cancel') });
  }

  /** Erases the personal data and images of a decided, expired or failed session. */
  redact(sessionId: string): Promise<SessionDetail> {
    return this.#client.call('POST', { operation: 'redactSession', path: sessionPath(sessionId, '/redact') });
  }

  /** Runs checks again (all when none are named), then the decision. */
  reprocess(sessionId: string, body?: ReprocessRequest): Promise<ReprocessResult> {
    return this.#client.call('POST', {
      operation: 'reprocessSession',
      path: sessionPath(sessionId, '/reprocess'),
      body,
    });
  }

  /** Decides a pending_review verification (a reviewer's decision is final). */
  review(sessionId: string, body: ReviewRequest): Promise<SessionDetail> {
    return this.#client.call('POST', {
      operation: 'reviewSession',
      path: sessionPath(sessionId, '/review'),
      body,
    });
  }

  /** A document image or the liveness reference image, as JPEG bytes. */
  image(sessionId: string, kind: ImageKind): Promise<Uint8Array> {
    return this.#client.call('GET', {
      operation: 'getSessionImage',
      path: sessionPath(sessionId, `/images/${encodeURIComponent(kind)}`),
      binary: true,
    }) as Promise<Uint8Array>;
  }
}
