// The load generator's own process (forked by load-generator.ts), so that autocannon's CPU is
// scheduled apart from the server under test — every target, the bare server included, is driven
// the same way. It answers one LoadSpec at a time.
import autocannon from 'autocannon';
import { LatencyRecorder } from './latency-summary.ts';
import type { LoadResult, LoadSpec } from './load-spec.ts';
import { runPacedLoad } from './paced-load.ts';

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const { target, mode } = spec;
  const latencies = new LatencyRecorder();
  const statusCodes: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${target.origin}${target.path}`,
        method: target.method,
        headers: target.headers,
        body: target.body,
        connections: spec.connections,
        pipelining: spec.pipelining,
        duration: spec.durationS,
        ...(mode.kind === 'autocannon-rate' ? { overallRate: mode.rate } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.record(responseTime);
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
  });
  const latency = latencies.summarise();
  return {
    durationS: result.duration,
    completed: latency.count,
    reqPerSec: latency.count / result.duration,
    latency,
    statusCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

function run(spec: LoadSpec): Promise<LoadResult> {
  return spec.mode.kind === 'paced'
    ? runPacedLoad(spec.target, {
        rate: spec.mode.rate,
        durationS: spec.durationS,
        connections: spec.connections,
      })
    : runAutocannon(spec);
}

process.on('message', (message: { id: number; spec: LoadSpec }) => {
  run(message.spec).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: Error) => process.send?.({ id: message.id, error: error.stack ?? String(error) }),
  );
});
// Leave when the bench does, even if it died without saying goodbye.
process.on('disconnect', () => process.exit(0));
