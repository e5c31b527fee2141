// Open-loop load at a constant rate, for "p99 at that load" (the API bench's latency target).
//
// autocannon's overallRate is not a constant rate: each connection sends its per-second quota
// back to back and then waits for the next second, so the server sees bursts at full speed and
// the latencies are those of saturation. Here a request is due every 1/rate seconds whatever the
// server does, and its latency runs from when it was due (so a stall also delays the requests
// queued behind it: no coordinated omission). Plain keep-alive sockets with a prebuilt request
// keep the load generator's own CPU cost small; responses must carry Content-Length (fastify's do).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { LatencyRecorder } from './latency-summary.ts';
import type { LoadResult, LoadTarget } from './load-spec.ts';

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection with at most one request in flight. */
class PacedConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private dueAt = 0;
  busy = false;
  readonly ready: Promise<void>;

  constructor(
    port: number,
    private readonly onResponse: (connection: PacedConnection, status: number, dueAt: number) => void,
    private readonly onError: (error: Error) => void,
    private readonly socket = net.connect({ host: '127.0.0.1', port, noDelay: true }),
  ) {
    this.ready = new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('error', (error) => this.onError(error));
  }

  send(request: Buffer, dueAt: number) {
    this.busy = true;
    this.dueAt = dueAt;
    this.socket.write(request);
  }

  private read(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headerEnd = this.buffer.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.buffer.subarray(0, headerEnd).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.onError(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
      this.socket.destroy();
      return;
    }
    const total = headerEnd + HEADER_END.length + Number(length[1]);
    if (this.buffer.length < total) return;
    this.buffer = this.buffer.subarray(total);
    this.busy = false;
    this.onResponse(this, Number(head.slice(9, 12)), this.dueAt);
  }

  close() {
    this.socket.destroy();
  }
}

export function buildRawRequest(target: LoadTarget, host: string): Buffer {
  const body = target.body === undefined ? undefined : Buffer.from(target.body);
  const lines = [
    `${target.method} ${target.path} HTTP/1.1`,
    `Host: ${host}`,
    'Connection: keep-alive',
    ...Object.entries(target.headers).map(([name, value]) => `${name}: ${value}`),
    ...(body ? [`Content-Length: ${body.length}`] : []),
  ];
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

export async function runPacedLoad(
  target: LoadTarget,
  options: { rate: number; durationS: number; connections: number },
): Promise<LoadResult> {
  const url = new URL(target.origin);
  const request = buildRawRequest(target, url.host);
  const latencies = new LatencyRecorder();
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const queue: number[] = [];
  const idle: PacedConnection[] = [];
  let outstanding = 0;
  let onDrained = () => {};
  let lastResponseAt = 0;

  const dispatch = () => {
    while (queue.length > 0 && idle.length > 0) {
      const connection = idle.pop() as PacedConnection;
      connection.send(request, queue.shift() as number);
    }
  };
  const connections = Array.from(
    { length: options.connections },
    () =>
      new PacedConnection(
        Number(url.port),
        (connection, status, dueAt) => {
          lastResponseAt = performance.now();
          latencies.record(lastResponseAt - dueAt);
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          outstanding--;
          idle.push(connection);
          dispatch();
          if (outstanding === 0) onDrained();
        },
        () => {
          errors++;
        },
      ),
  );
  await Promise.all(connections.map((c) => c.ready));
  idle.push(...connections);

  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.durationS);
  const start = performance.now();
  let scheduled = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (scheduled < total && start + scheduled * interval <= now) {
        queue.push(start + scheduled * interval);
        scheduled++;
        outstanding++;
      }
      dispatch();
      if (scheduled < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // Let the last requests finish, within reason.
  await new Promise<void>((resolve) => {
    if (outstanding === 0) return resolve();
    onDrained = resolve;
    setTimeout(resolve, 10_000).unref();
  });
  for (const connection of connections) connection.close();
  const summary = latencies.summarise();
  const elapsedS = (lastResponseAt - start) / 1000;
  return {
    durationS: elapsedS,
    completed: summary.count,
    reqPerSec: summary.count / elapsedS,
    latency: summary,
    statusCodes,
    non2xx: Object.entries(statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .reduce((sum, [, n]) => sum + n, 0),
    errors,
    timeouts: outstanding,
  };
}
