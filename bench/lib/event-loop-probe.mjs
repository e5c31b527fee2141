// Loaded into a process under measurement with `node --import` (bench:pipeline's worker): records
// how late its event loop runs (perf_hooks.monitorEventLoopDelay). On SIGUSR2 it writes the figures
// since the previous signal to MIMOTO_BENCH_EVENT_LOOP_FILE as JSON (milliseconds) and starts over.
// In `mimoto start` (all roles) the API shares this loop: a request waits as long as the loop does.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MIMOTO_BENCH_EVENT_LOOP_FILE;
// Worker threads inherit the preload; their loops are not the one requests wait on.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  process.on('SIGUSR2', () => {
    const figures = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    };
    histogram.reset();
    writeFileSync(file, JSON.stringify(figures));
  });
}
