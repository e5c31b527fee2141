// A `mimoto start --role api|worker` process under measurement, as an operator runs it on a machine
// of its own: its CPU (all its threads, from /proc), its memory, and its event loop's delay (through
// bench/lib/event-loop-probe.mjs, loaded with --import).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface EventLoopDelay {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

export interface RoleProcess {
  role: 'api' | 'worker';
  child: ChildProcess;
  /** Every line it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once a printed line contains `text`. */
  printed(text: string, timeoutMs?: number): Promise<string>;
  /** User + system CPU seconds of the process so far, all its threads. */
  cpuSeconds(): number;
  /** The event-loop delay (ms) since the previous call; the first call starts the measurement. */
  eventLoopDelay(): Promise<EventLoopDelay>;
  memory(): { rssMb: number; hwmMb: number; peakSampledMb: number };
  /** SIGTERM, then SIGKILL after 30 s: whether it exited by itself. */
  stop(): Promise<boolean>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const kb = (text: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);

export function startRole(
  role: 'api' | 'worker',
  env: Record<string, string>,
  scratchDir: string,
): RoleProcess {
  const eventLoopFile = path.join(scratchDir, `event-loop-${role}.json`);
  const probe = path.join(repoDir, 'bench/lib/event-loop-probe.mjs');
  const child = spawn(process.execPath, [path.join(repoDir, 'bin/mimoto.js'), 'start', '--role', role], {
    cwd: repoDir,
    env: {
      ...process.env,
      ...env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${probe}`.trim(),
      MIMOTO_BENCH_EVENT_LOOP_FILE: eventLoopFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiting = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiting) check();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(`[${role}] ${chunk}`);
    onData(chunk);
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const check of waiting) check();
  });
  let peakRss = 0;
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, kb(status(), 'VmRSS'));
    } catch {}
  }, 250);
  return {
    role,
    child,
    output: () => output,
    printed: (text, timeoutMs = 300_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`${role}: no "${text}" in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiting.delete(check);
          if (error) reject(error);
          else resolve(output.split('\n').find((line) => line.includes(text)) ?? '');
        };
        const check = () => {
          if (output.includes(text)) finish();
          else if (exited) finish(new Error(`${role} exited before "${text}":\n${output}`));
        };
        waiting.add(check);
        check();
      }),
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
    },
    eventLoopDelay: async () => {
      rmSync(eventLoopFile, { force: true });
      child.kill('SIGUSR2');
      const until = Date.now() + 5000;
      while (!existsSync(eventLoopFile)) {
        if (Date.now() > until) throw new Error(`the ${role} process wrote no event-loop figures`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // Written in one call; read again if caught half-written.
      for (;;) {
        try {
          return JSON.parse(readFileSync(eventLoopFile, 'utf8')) as EventLoopDelay;
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    },
    memory: () => {
      const text = status();
      return {
        rssMb: kb(text, 'VmRSS') / 1024,
        hwmMb: kb(text, 'VmHWM') / 1024,
        peakSampledMb: peakRss / 1024,
      };
    },
    stop: async () => {
      clearInterval(sampler);
      if (exited) return true;
      const done = new Promise<boolean>((r) => child.once('exit', () => r(true)));
      child.kill('SIGTERM');
      const byItself = await Promise.race([
        done,
        new Promise<boolean>((r) => setTimeout(() => r(false), 30_000)),
      ]);
      if (!byItself) {
        child.kill('SIGKILL');
        await done;
      }
      return byItself;
    },
  };
}
