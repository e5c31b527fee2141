import { drawChallengeSteps, type LivenessFrame, verifyLivenessFrames } from '../src/liveness/index.ts';
import { packagedFacePeople } from '../src/synth/index.ts';
import { noisyChallengeCapture } from './lib/noisy-challenge-capture.ts';

const RUNS = Number(process.argv[2] ?? 12);
const scene = {
  width: 320,
  height: 240,
  faceWidth: 1.5,
  centre: [0.5, 0.63] as [number, number],
  background: { kind: 'stone' as const, colour: [200, 196, 188] as [number, number, number], seed: 7 },
};
// A frontal face of the packaged people (src/synth/faces.ts), its selfie-like cut.
const photo = (await packagedFacePeople()).get('sample1c')?.[1] ?? '';
const steps = drawChallengeSteps();
const frames: LivenessFrame[] = await noisyChallengeCapture(photo, steps, scene, 1);
const warm = await verifyLivenessFrames(steps, frames);
console.log(
  `challenge ${steps.join(',')}: passed=${warm.passed} confidence=${warm.confidence} failures=${warm.failures}`,
);
const times: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  await verifyLivenessFrames(steps, frames);
  times.push(performance.now() - started);
  const used = process.cpuUsage(cpuStart);
  cpu.push((used.user + used.system) / 1000);
}
cpu.sort((a, b) => a - b);
// CPU time is what one core spends, whatever else the machine runs (wall time is not, on a busy host).
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] ?? 0;
const c = (p: number) => cpu[Math.min(cpu.length - 1, Math.ceil(p * cpu.length) - 1)] ?? 0;
console.log(`CPU per verification: p50 ${c(0.5).toFixed(0)} ms, p95 ${c(0.95).toFixed(0)} ms`);
console.log(
  `verify 15 frames, ${RUNS} runs: p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${q(1).toFixed(0)} ms`,
);
