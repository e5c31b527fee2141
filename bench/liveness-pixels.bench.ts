// npm run bench:liveness-pixels — the API process's memory while six liveness attempts at the pixel
// budgets are received and verified at once (issue 46 point 6: 49 MP frames, 20 per attempt, peaked
// at +268 MB and left the process ~630 MB above idle). Target: peak RSS growth ≤ +150 MB.
//
// The server is `mimoto start --role api` on the embedded database, in a process of its own (its
// RSS sampled every 10 ms from /proc). Round 1: two waves of six small attempts first load the
// models in every inference thread (a production api process warms them at start); then six users,
// each with an open challenge, send at once an attempt of ten 640×480 frames (what the app sends),
// and then six attempts of ten 1920×1080 frames (MAX_LIVENESS_ATTEMPT_PIXELS, each frame at
// MAX_LIVENESS_FRAME_PIXELS): the synthetic corpus's genuine live-check frames scaled, which the
// server decodes, verifies in its inference threads and stores. Round 2, the issue's hostile shape
// on a fresh server: six attempts of 49 MP frames (7000×7000 JPEGs of a few hundred KB), refused
// with 422 at the first frame's header. Prints each wave's growth over the RSS just before it,
// the answers, and the RSS once the process settled.
//
//   npm run bench:liveness-pixels -- [--concurrent 6] [--settle-s 10]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import {
  MAX_LIVENESS_ATTEMPT_PIXELS,
  MAX_LIVENESS_FRAME_PIXELS,
} from '../src/hosted-flow/liveness-attempt.ts';
import {
  enterFlow,
  issueChallenge,
  memoryOf,
  sendAttempt,
  startFlowServer,
  watchRss,
} from './lib/flow-bench.ts';

const TARGET_MB = 150;
const { values } = parseArgs({
  options: {
    concurrent: { type: 'string', default: '6' },
    'settle-s': { type: 'string', default: '10' },
  },
});
const concurrent = Number(values.concurrent);
const settleMs = Number(values['settle-s']) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

const CORPUS = 'test/fixtures/corpus';
const sample = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8')).samples.find(
  (s: { id: string }) => s.id === 'drivers_license-genuine-0',
);
const sourceFrames = (sample.files.frames as { file: string }[]).map((f) =>
  readFileSync(`${CORPUS}/${f.file}`),
);
const FRAME_W = 1920;
const FRAME_H = 1080;
const perAttempt = Math.floor(MAX_LIVENESS_ATTEMPT_PIXELS / (FRAME_W * FRAME_H));
if (FRAME_W * FRAME_H !== MAX_LIVENESS_FRAME_PIXELS)
  throw new Error('the frame budget is no longer 1920×1080');
// The camera frames at the budget: the genuine capture's frames, scaled to 1920×1080.
const frames = await Promise.all(
  Array.from({ length: perAttempt }, (_, i) =>
    sharp(sourceFrames[i % sourceFrames.length]!)
      .resize(FRAME_W, FRAME_H, { fit: 'fill' })
      .jpeg({ quality: 90 })
      .toBuffer(),
  ),
);
const timestamps = frames.map((_, i) => i * 300);
const huge = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#8a7' } })
  .jpeg({ quality: 50 })
  .toBuffer();

console.log(
  `${concurrent} concurrent liveness attempts; a frame ≤ ${MAX_LIVENESS_FRAME_PIXELS} px (1920×1080), an attempt ≤ ${MAX_LIVENESS_ATTEMPT_PIXELS} px`,
);
let worst = 0;

// Round 1: six attempts as the app sends them (ten 640×480 frames), then six at the budgets, on a
// server whose inference threads have all loaded their models (a production api process warms
// them at start; here two waves of six small attempts do, through the same route).
{
  const server = await startFlowServer();
  try {
    const small = await Promise.all(
      Array.from({ length: perAttempt }, (_, i) =>
        sharp(sourceFrames[i % sourceFrames.length]!)
          .resize(640, 480, { fit: 'fill' })
          .jpeg({ quality: 90 })
          .toBuffer(),
      ),
    );
    const wave = async (shape: Buffer[]) => {
      const users = await Promise.all(Array.from({ length: concurrent }, () => enterFlow(server)));
      const challenges = await Promise.all(users.map((u) => issueChallenge(server, u)));
      await sleep(Math.max(3000, timestamps.at(-1)! + 500)); // the capture's span fits the time since issue
      const before = memoryOf(server.pid).rssMb;
      const watch = watchRss(server.pid);
      const started = performance.now();
      const answers = await Promise.all(
        users.map((user, i) =>
          sendAttempt(server.origin, user, {
            challengeId: challenges[i]!.challengeId,
            timestamps,
            frames: shape,
          }),
        ),
      );
      const elapsed = performance.now() - started;
      const peak = watch.stop();
      if (answers.some((a) => a.status !== 200))
        throw new Error(`answers ${answers.map((a) => `${a.status} ${a.body.slice(0, 100)}`).join('; ')}`);
      await sleep(settleMs);
      return { before, peak, settled: memoryOf(server.pid).rssMb, elapsed, answers };
    };
    const idle = memoryOf(server.pid).rssMb;
    await wave(small);
    await wave(small);
    console.log(
      `server idle ${idle.toFixed(0)} MB; warmed by two waves of six small attempts: ${memoryOf(server.pid).rssMb.toFixed(0)} MB`,
    );
    for (const [label, shape] of [
      ['as the app sends them: 10 × 640×480', small],
      ['at the budgets: 10 × 1920×1080', frames],
    ] as const) {
      const { before, peak, settled, elapsed, answers } = await wave(shape);
      const growth = peak - before;
      worst = Math.max(worst, growth);
      const bytes = shape.reduce((n, f) => n + f.length, 0);
      console.log(
        `${label} frames (${(bytes / 1048576).toFixed(1)} MB of JPEG) per attempt: ` +
          `RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (growth ${growth.toFixed(0)} MB), ` +
          `${(settled - before).toFixed(0)} MB above it ${settleMs / 1000} s later; answers ${answers.map((a) => a.status).join(',')}, ` +
          `all verified in ${(elapsed / 1000).toFixed(1)} s (load average ${load()})`,
      );
    }
  } finally {
    await server.stop();
  }
}

// Round 2: the issue's 49 MP frames, refused at the header.
{
  const server = await startFlowServer();
  try {
    const users = await Promise.all(Array.from({ length: concurrent + 1 }, () => enterFlow(server)));
    const challenges = await Promise.all(users.map((u) => issueChallenge(server, u)));
    const hugeFrames = Array.from({ length: 20 }, () => huge);
    // One first, so that the route and sharp are loaded before the baseline.
    await sendAttempt(server.origin, users[0]!, {
      challengeId: challenges[0]!.challengeId,
      timestamps: hugeFrames.map((_, i) => i * 300),
      frames: hugeFrames.slice(0, 4),
    });
    await sleep(1000);
    const before = memoryOf(server.pid).rssMb;
    const watch = watchRss(server.pid);
    const answers = await Promise.all(
      users.slice(1).map((user, i) =>
        sendAttempt(server.origin, user, {
          challengeId: challenges[i + 1]!.challengeId,
          timestamps: hugeFrames.map((_, j) => j * 300),
          frames: hugeFrames,
        }),
      ),
    );
    const peak = watch.stop();
    const growth = peak - before;
    worst = Math.max(worst, growth);
    const codes = [...new Set(answers.map((a) => a.body && JSON.parse(a.body).error).filter(Boolean))].join(
      ',',
    );
    console.log(
      `over the budget: 20 × 7000×7000 frames (49 MP, ${(huge.length / 1024).toFixed(0)} KB each) per attempt: ` +
        `RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (growth ${growth.toFixed(0)} MB); ` +
        `answers ${answers.map((a) => a.status).join(',')} (${codes}) (load average ${load()})`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  `worst RSS growth ${worst.toFixed(0)} MB — target ≤ ${TARGET_MB} MB: ${worst <= TARGET_MB ? 'met' : 'NOT met'}`,
);
