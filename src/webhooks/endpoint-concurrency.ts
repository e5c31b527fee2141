// Caps how many deliveries run at once to one endpoint, so a slow or dead receiver holds at most
// that many connections while deliveries to every other endpoint go on.
//
// This limiter is per process. Across processes (several `--role worker`), the database query that
// claims due deliveries must also cap in-flight deliveries per endpoint; this class then only stops
// one process from spending all its slots on one endpoint.
//
// A worker with a fixed number of job slots should use tryRun: when the endpoint is full, put the job
// back with a short delay instead of waiting, or the waiting jobs would fill the worker's slots and
// delay everyone else, the very thing this prevents.

/** Deliveries are grouped by origin: scheme, host and port of the callbackUrl. */
export function endpointKey(url: string | URL): string {
  return new URL(url).origin;
}

interface EndpointState {
  inFlight: number;
  waiting: Array<() => void>;
}

export class EndpointConcurrencyLimiter {
  readonly #maxPerEndpoint: number;
  readonly #endpoints = new Map<string, EndpointState>();

  constructor(maxPerEndpoint: number) {
    if (!Number.isInteger(maxPerEndpoint) || maxPerEndpoint < 1) {
      throw new RangeError(`maxPerEndpoint must be a positive integer, got ${maxPerEndpoint}`);
    }
    this.#maxPerEndpoint = maxPerEndpoint;
  }

  /** Runs `task` now if `key` has a free slot; otherwise returns { ran: false } without waiting. */
  tryRun<T>(key: string, task: () => Promise<T>): { ran: true; result: Promise<T> } | { ran: false } {
    const state = this.#state(key);
    if (state.inFlight >= this.#maxPerEndpoint) return { ran: false };
    state.inFlight++;
    return { ran: true, result: this.#runHolding(key, state, task) };
  }

  /** Runs `task` when `key` has a free slot, first come first served per endpoint. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const state = this.#state(key);
    if (state.inFlight >= this.#maxPerEndpoint) {
      // The slot is handed over by the finishing task (inFlight stays counted), so no newcomer can
      // overtake a waiting task.
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    } else {
      state.inFlight++;
    }
    return this.#runHolding(key, state, task);
  }

  inFlight(key: string): number {
    return this.#endpoints.get(key)?.inFlight ?? 0;
  }

  waiting(key: string): number {
    return this.#endpoints.get(key)?.waiting.length ?? 0;
  }

  async #runHolding<T>(key: string, state: EndpointState, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else if (--state.inFlight === 0) this.#endpoints.delete(key);
    }
  }

  #state(key: string): EndpointState {
    let state = this.#endpoints.get(key);
    if (!state) {
      state = { inFlight: 0, waiting: [] };
      this.#endpoints.set(key, state);
    }
    return state;
  }
}
