// A mimoto API process for the hosted-flow benches (bench:upload-memory, bench:liveness-event-loop):
// `mimoto start --role api` on the embedded database with one tenant and key, in a process of its
// own so that its RSS and its event loop are the server's alone. It tells the parent its origin and
// key over IPC and stops when the parent says so (or disconnects).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startMimotoServer } from './bench-servers.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'mimoto-flow-bench-'));
const server = await startMimotoServer({ kind: 'pglite' }, { MIMOTO_DATA_DIR: dataDir });
const stop = async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
// How late the server's event loop runs ('loop' → figures since the last 'loop', in ms).
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const ms = (ns: number) => Math.round(ns / 1e5) / 10;
process.on('message', (message) => {
  if (message === 'stop') void stop();
  if (message === 'loop') {
    process.send?.({
      loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    });
    loop.reset();
  }
});
process.on('disconnect', () => void stop());
process.send?.({ origin: server.origin, apiKey: server.apiKey });
