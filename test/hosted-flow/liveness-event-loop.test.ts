// Verifying a liveness attempt does not hold up the API (docs/hosted-flow-api.md, ARCHITECTURE.md
// "src/pipeline"): the face mesh and face descriptors run in an inference thread, so while an
// attempt is verified the event loop keeps answering other requests. Measured with
// monitorEventLoopDelay over a second attempt (the first one loads the models).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, test } from 'node:test';
import { closeInferencePool } from '../../src/inference/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const CORPUS = 'test/fixtures/corpus';
const sample = JSON.parse(readFileSync(`${CORPUS}/manifest.json`, 'utf8')).samples.find(
  (s: { id: string }) => s.id === 'drivers_license-genuine-0',
);
const frames = sample.files.frames.map((f: { file: string }) => ({
  field: 'frames',
  bytes: readFileSync(`${CORPUS}/${f.file}`),
}));
const timestamps = JSON.stringify(frames.map((_: unknown, i: number) => i * 400));

const t = useTestApi({ env: dataDirEnv() });
after(closeInferencePool);

/** Well under the verification's own time (~1 s of CPU for 11 frames): a stall shows. */
const MAX_STALL_MS = 250;

test('while a liveness attempt is verified the event loop never stalls for long, and /healthz answers', async () => {
  const a = await FlowClient.enter(t);
  await a.send('POST', '/verify/api/consent');
  const attempt = async () => {
    const { challengeId } = (await a.send('POST', '/verify/api/liveness/challenge')).json();
    return a.upload('/verify/api/liveness/attempts', frames, { challengeId, timestamps });
  };
  const warm = await attempt();
  assert.equal(warm.statusCode, 200, warm.body);

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const health: number[] = [];
  let verifying = true;
  const probe = (async () => {
    while (verifying) {
      const started = performance.now();
      const res = await t.api.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
      health.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  const res = await attempt();
  const took = performance.now() - started;
  verifying = false;
  await probe;
  loop.disable();
  assert.equal(res.statusCode, 200, res.body);
  const stallMs = loop.max / 1e6;
  assert.ok(
    stallMs < MAX_STALL_MS,
    `longest event-loop stall ${stallMs.toFixed(0)} ms during a ${took.toFixed(0)} ms verification`,
  );
  assert.ok(health.length >= 5, `/healthz answered ${health.length} times in ${took.toFixed(0)} ms`);
});
