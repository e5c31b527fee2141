// npm run bench:upload-memory — how much a hostile liveness upload grows the API process's memory.
// Six concurrent POST /verify/api/liveness/attempts on one flow cookie, each with an unknown
// challenge id and the largest frames (default 30 × 10 MB: valid JPEGs padded with comment
// segments, so they decode at once), first with a Content-Length, then chunked (no length: the
// server cannot refuse the size up front). The server is `mimoto start --role api` on the embedded
// database in a process of its own; its RSS is sampled every 10 ms from /proc. Then the same
// with the largest upload the server accepts (MAX_LIVENESS_FRAMES frames filling
// LIVENESS_UPLOAD_LIMITS.maxRequestBytes), which only the challenge check can refuse.
// Target: peak RSS growth < 150 MB per round.
//
//   npm run bench:upload-memory -- [--frames 30] [--frame-mb 10] [--concurrent 6]
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { LIVENESS_UPLOAD_LIMITS } from '../src/hosted-flow/liveness-attempt.ts';
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

const small = await paddedJpeg(50_000);
const invalid = `lc_${'0'.repeat(26)}`;
const accepted = {
  frames: LIVENESS_UPLOAD_LIMITS.maxFiles,
  bytes: Math.min(
    LIVENESS_UPLOAD_LIMITS.maxFileBytes,
    Math.floor((LIVENESS_UPLOAD_LIMITS.maxRequestBytes - 64 * 1024) / LIVENESS_UPLOAD_LIMITS.maxFiles),
  ),
};
const rounds = [
  { frames: frameCount, bytes: frameBytes },
  { frames: accepted.frames, bytes: accepted.bytes },
].flatMap((shape) => [false, true].map((chunked) => ({ ...shape, chunked })));
console.log(
  `${concurrent} concurrent attempts on one flow cookie, unknown challenge id; a fresh server process per round`,
);
let worst = 0;
for (const { frames: count, bytes, chunked } of rounds) {
  const frame = await paddedJpeg(bytes);
  const timestamps = Array.from({ length: count }, (_, i) => i * 300);
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
          frames: { bytes: frame, repeat: count },
          chunked,
        }),
      ),
    );
    const elapsed = performance.now() - started;
    const peak = watch.stop();
    const growth = peak - before;
    worst = Math.max(worst, growth);
    const statuses = answers.map((a) => a.status || 'closed').join(',');
    const codes = [...new Set(answers.map((a) => a.body && JSON.parse(a.body).error).filter(Boolean))].join(
      ',',
    );
    console.log(
      `${count} × ${(bytes / 1048576).toFixed(2)} MB, ${chunked ? 'chunked       ' : 'Content-Length'}: RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (growth ${growth.toFixed(0)} MB), answers ${statuses} (${codes}), all answered in ${(elapsed / 1000).toFixed(1)} s`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  `worst RSS growth ${worst.toFixed(0)} MB — target < ${TARGET_MB} MB: ${worst < TARGET_MB ? 'met' : 'NOT met'}`,
);
