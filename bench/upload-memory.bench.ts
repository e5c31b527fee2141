// npm run bench:upload-memory — how much a hostile liveness upload grows the API process's memory.
// Six concurrent POST /verify/api/liveness/attempts on one flow cookie, each with an unknown
// challenge id and the largest frames (default 30 × 10 MB: valid JPEGs padded with comment
// segments, so they decode at once), first with a Content-Length, then chunked (no length: the
// server cannot refuse the size up front). The server is `mimoto start --role api` on the embedded
// database in a process of its own; its RSS is sampled every 10 ms from /proc.
// Target: peak RSS growth < 150 MB per round.
//
//   npm run bench:upload-memory -- [--frames 30] [--frame-mb 10] [--concurrent 6]
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { enterFlow, memoryOf, sendAttempt, startFlowServer, watchRss } from './lib/flow-bench.ts';

const TARGET_MB = 150;
const { values } = parseArgs({
  options: {
    frames: { type: 'string', default: '30' },
    'frame-mb': { type: 'string', default: '10' },
    concurrent: { type: 'string', default: '6' },
  },
});
const frameCount = Number(values.frames);
const frameBytes = Math.round(Number(values['frame-mb']) * 1024 * 1024);
const concurrent = Number(values.concurrent);

/** A real JPEG of exactly `size` bytes: a small picture with comment (COM) segments after SOI. */
async function paddedJpeg(size: number): Promise<Buffer> {
  const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a7' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const segments: Buffer[] = [];
  let left = size - base.length;
  while (left > 0) {
    const payload = Math.min(65_533, left - 4);
    if (payload < 0) break;
    const head = Buffer.from([0xff, 0xfe, 0, 0]);
    head.writeUInt16BE(payload + 2, 2);
    segments.push(head, Buffer.alloc(payload, 0x20));
    left -= payload + 4;
  }
  return Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
}

const frame = await paddedJpeg(frameBytes);
const small = await paddedJpeg(50_000);
const invalid = `lc_${'0'.repeat(26)}`;
const timestamps = Array.from({ length: frameCount }, (_, i) => i * 300);
console.log(
  `${concurrent} concurrent attempts on one flow cookie, unknown challenge id, ${frameCount} frames × ${(frameBytes / 1048576).toFixed(1)} MB (${((frameCount * frameBytes) / 1048576).toFixed(0)} MB per request); a fresh server process per round`,
);
let worst = 0;
for (const chunked of [false, true]) {
  const server = await startFlowServer();
  try {
    const user = await enterFlow(server);
    // One small attempt first: the route and its modules are loaded before the baseline.
    await sendAttempt(server.origin, user, {
      challengeId: invalid,
      timestamps: timestamps.slice(0, 4),
      frames: { bytes: small, repeat: 4 },
    });
    await new Promise((r) => setTimeout(r, 1000));
    const before = memoryOf(server.pid).rssMb;
    const watch = watchRss(server.pid);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: concurrent }, () =>
        sendAttempt(server.origin, user, {
          challengeId: invalid,
          timestamps,
          frames: { bytes: frame, repeat: frameCount },
          chunked,
        }),
      ),
    );
    const elapsed = performance.now() - started;
    const peak = watch.stop();
    const growth = peak - before;
    worst = Math.max(worst, growth);
    const statuses = answers.map((a) => a.status || 'closed').join(',');
    const codes = [...new Set(answers.map((a) => a.body && JSON.parse(a.body).error))].join(',');
    console.log(
      `${chunked ? 'chunked       ' : 'Content-Length'}: RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (growth ${growth.toFixed(0)} MB), answers ${statuses} (${codes}), all answered in ${(elapsed / 1000).toFixed(1)} s`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  `worst RSS growth ${worst.toFixed(0)} MB — target < ${TARGET_MB} MB: ${worst < TARGET_MB ? 'met' : 'NOT met'}`,
);
