// Shared by the hosted-flow benches: the server process (flow-server-process.ts), end users who
// entered the flow through their link, a streaming multipart sender (the bench holds one frame in
// memory however large the upload), and the server's RSS from /proc. Traffic to 127.0.0.1 only.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface FlowServer {
  origin: string;
  apiKey: string;
  pid: number;
  /** The server's event-loop delay since the previous call (ms). */
  eventLoop(): Promise<{ p50: number; p99: number; max: number }>;
  stop(): Promise<void>;
}

export async function startFlowServer(): Promise<FlowServer> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./flow-server-process.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ origin: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { origin: string; apiKey: string }));
    child.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
  });
  return {
    ...ready,
    pid: child.pid!,
    eventLoop: () =>
      new Promise((resolve) => {
        const onMessage = (m: unknown) => {
          const loop = (m as { loop?: { p50: number; p99: number; max: number } }).loop;
          if (!loop) return;
          child.off('message', onMessage);
          resolve(loop);
        };
        child.on('message', onMessage);
        child.send('loop');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Resident and peak resident memory of a process (MB), from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** Samples the RSS every `everyMs` until stopped; the largest value seen. */
export function watchRss(pid: number, everyMs = 10) {
  let peak = memoryOf(pid).rssMb;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rssMb);
    } catch {}
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface HttpAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

export function request(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<HttpAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface FlowUser {
  sessionId: string;
  headers: Record<string, string>;
}

/** A session created by the tenant and entered by its user: cookie, CSRF token, consent given. */
export async function enterFlow(server: FlowServer): Promise<FlowUser> {
  const created = await request(
    server.origin,
    'POST',
    '/v1/verification-sessions',
    { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    JSON.stringify({ callbackUrl: 'https://tenant.example/kyc/callback/done', clientIpAddress: '127.0.0.1' }),
  );
  if (created.status !== 201) throw new Error(`create session: ${created.status} ${created.body}`);
  const { sessionId, verificationUrl } = JSON.parse(created.body);
  const url = new URL(verificationUrl);
  const entered = await request(server.origin, 'GET', `${url.pathname}${url.search}`);
  const cookie = /mimoto_flow=[^;]+/.exec(String(entered.headers['set-cookie']))?.[0];
  if (entered.status !== 303 || !cookie) throw new Error(`enter: ${entered.status}`);
  const state = JSON.parse((await request(server.origin, 'GET', '/verify/api/state', { cookie })).body);
  const headers = { cookie, 'x-csrf-token': state.csrfToken as string };
  const consent = await request(server.origin, 'POST', '/verify/api/consent', headers);
  if (consent.status !== 204) throw new Error(`consent: ${consent.status} ${consent.body}`);
  return { sessionId, headers };
}

export async function issueChallenge(server: FlowServer, user: FlowUser) {
  const res = await request(server.origin, 'POST', '/verify/api/liveness/challenge', user.headers);
  if (res.status !== 201) throw new Error(`challenge: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as { challengeId: string; steps: string[] };
}

export interface Attempt {
  challengeId: string;
  timestamps: number[];
  /** The frames in upload order; `repeat` sends one buffer that many times. */
  frames: Buffer[] | { bytes: Buffer; repeat: number };
  /** No Content-Length: the server cannot refuse the size before reading. */
  chunked?: boolean;
}

/**
 * POST /verify/api/liveness/attempts as the browser app sends it (challengeId, timestamps, then the
 * frames), written part by part with backpressure. An answer that comes before the whole body was
 * sent counts as the answer; a connection closed before the answer's head arrived is status 0.
 */
export function sendAttempt(origin: string, user: FlowUser, attempt: Attempt): Promise<HttpAnswer> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const fileHead = (i: number) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="frames"; filename="frame-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
  const frames = Array.isArray(attempt.frames)
    ? attempt.frames
    : Array.from({ length: attempt.frames.repeat }, () => (attempt.frames as { bytes: Buffer }).bytes);
  const pieces: Buffer[] = [
    field('challengeId', attempt.challengeId),
    field('timestamps', JSON.stringify(attempt.timestamps)),
  ];
  for (const [i, frame] of frames.entries()) pieces.push(fileHead(i), frame, Buffer.from('\r\n'));
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((n, p) => n + p.length, 0);
  const started = performance.now();
  return new Promise((resolve) => {
    let answered = false;
    let status = 0;
    const req = http.request(
      `${origin}/verify/api/liveness/attempts`,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...user.headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(attempt.chunked ? {} : { 'content-length': String(length) }),
        },
      },
      (res) => {
        status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answered = true;
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on('error', () => {
      // Reset while still sending: the answer's status if it had arrived, else 0.
      if (!answered) resolve({ status, body: '', headers: {}, ms: performance.now() - started });
    });
    (async () => {
      for (const piece of pieces) {
        if (req.destroyed) return;
        if (!req.write(piece)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              req.off('drain', done).off('close', done);
              resolve();
            };
            req.on('drain', done).on('close', done);
          });
        }
      }
      req.end();
    })();
  });
}
