// Whether the database server can be reached, as the queries of this process find it. A PostgreSQL
// server restarts (maintenance, a managed fail-over) and every process must ride it out: a query
// that fails because the server is gone is told apart from one that fails on its own terms, the
// outage is logged once when it starts and once when it ends, and whoever must wait for the server
// (start-up, a job whose statement was cut, pg-boss's own statements) waits on one shared probe
// that backs off, instead of each hammering the server on its own.

/** PostgreSQL SQLSTATEs meaning the server is going or not yet there (class 08: connection exceptions). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres's own messages for a connection lost or never made (it gives them no code).
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection timeout',
  'the database system is starting up',
  'the database system is shutting down',
];

/** True when `error` says the database server could not be reached or went away mid-statement. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors, cause } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  if (typeof code === 'string' && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
  // Node's happy-eyeballs connect rejects with an AggregateError of each address's failure.
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/** Thrown to whoever waits for the database when the database is closed meanwhile. */
export class DatabaseClosedError extends Error {
  constructor() {
    super('the database was closed');
    this.name = 'DatabaseClosedError';
  }
}

export interface DatabaseAvailability {
  /** False from the first failure that says the server is gone until a statement succeeds again. */
  readonly available: boolean;
  /** Resolves at once when available, else once the probe reaches the server; rejects when closed. */
  waitUntilAvailable(): Promise<void>;
}

export interface AvailabilityTracker extends DatabaseAvailability {
  /** A statement or connection failed: marks the database down when the error says so. */
  failed(error: unknown): void;
  /** A statement or connection succeeded. */
  succeeded(): void;
  close(): void;
}

export interface AvailabilityOptions {
  /** Runs one trivial statement on a fresh connection (the probe). */
  probe: () => Promise<void>;
  /** One line at the start and one at the end of each outage. */
  log?: (line: string) => void;
  /** First wait between probes, doubled to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export function trackAvailability(options: AvailabilityOptions): AvailabilityTracker {
  const log = options.log ?? ((line: string) => console.error(line));
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  let available = true;
  let downSince = 0;
  let closed = false;
  let probing: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // Not unref'd: a process starting while the database is down has nothing else keeping it
      // alive while it waits (an unref'd wait let it exit with code 13); close() wakes this.
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const markDown = (error: unknown) => {
    if (!available || closed) return;
    available = false;
    downSince = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    log(`database unreachable (${reason.slice(0, 200)}): waiting for it, retrying with backoff`);
  };
  const markUp = () => {
    if (available) return;
    available = true;
    log(`database reachable again after ${((Date.now() - downSince) / 1000).toFixed(1)} s`);
  };
  const probeUntilUp = async () => {
    let delay = initialDelayMs;
    while (!available) {
      if (closed) throw new DatabaseClosedError();
      try {
        await options.probe();
        markUp();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) markUp();
        else {
          await sleep(delay);
          delay = Math.min(delay * 2, maxDelayMs);
        }
      }
    }
  };

  return {
    get available() {
      return available;
    },
    waitUntilAvailable() {
      if (closed) return Promise.reject(new DatabaseClosedError());
      if (available) return Promise.resolve();
      probing ??= probeUntilUp().finally(() => {
        probing = undefined;
      });
      return probing;
    },
    failed(error) {
      if (isDatabaseUnavailable(error)) markDown(error);
    },
    succeeded: markUp,
    close() {
      closed = true;
      wake?.();
    },
  };
}
