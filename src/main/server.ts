// `mimoto start [--role all|api|worker]`: API, hosted flow and console (api), background work
// (worker), or both in one process (all, the default on the embedded database).
import { buildApp } from '../app.ts';
import type { Config, Role } from '../config.ts';
import { startPipelineWorkers, warmUpCheckModels } from '../pipeline/index.ts';
import { isDatabaseUnavailable } from '../platform/db/database-availability.ts';
import { redactText } from '../platform/http/log-redaction.ts';
import { startRetentionSweep } from '../session-api/index.ts';
import { startExpirySweep } from '../sessions/index.ts';
import { startWebhookDeliveryWorker } from '../webhooks/index.ts';
import { openPlatform } from './open-platform.ts';
import { installProcessGuards } from './process-guards.ts';

/**
 * What a background loop reports: its failures, except those of a database outage, whose start and
 * end the database's availability logs once (each loop waits or retries on its own).
 */
const report =
  (what: string) =>
  (error: unknown): void => {
    // The message and stack, redacted (log-redaction.ts): a driver's error object may carry a
    // statement's parameters, a person's name among them.
    if (!isDatabaseUnavailable(error)) console.error(`${what}:`, describeError(error));
  };

const describeError = (error: unknown) =>
  redactText(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));

export async function runServer(config: Config, role: Role): Promise<void> {
  installProcessGuards();
  const platform = await openPlatform(config, { supervise: role !== 'api' });
  // Listened for from the start: a stop asked for while the models warm up waits for start-up to
  // end, then shuts down cleanly.
  const stopAsked = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const stops: (() => Promise<void> | void)[] = [];
  try {
    // The API first: it answers while a worker in the same process warms its models.
    if (role !== 'worker') {
      const app = await buildApp(platform);
      await app.listen({ port: config.port, host: config.host });
      stops.push(() => app.close());
      console.log(
        `mimoto (${role}) listening on ${config.publicUrl} — API reference at ${config.publicUrl}/docs`,
      );
      // An API-only process runs the hosted flow's capture check (OCR, face search) and live check
      // itself: warmed now, in the background, its first upload does not pay seconds of loading.
      // (With the worker role in this process, the pipeline's start-up warms the same models.)
      if (role === 'api')
        warmUpCheckModels().then(
          (warm) => console.log(`capture check models loaded and warmed in ${(warm.ms / 1000).toFixed(1)} s`),
          (error) =>
            console.error('loading the capture check models failed (each check retries on use):', error),
        );
    }
    if (role !== 'api') {
      stops.push(startExpirySweep(platform, report('expiry sweep failed')));
      stops.push(startRetentionSweep(platform, report('retention sweep failed')));
      const webhooks = startWebhookDeliveryWorker(platform, { onError: report('webhook delivery failed') });
      stops.push(() => webhooks.stop());
      const pipeline = await startPipelineWorkers(platform, {
        warmUp: true,
        onWarmUpError: (error) =>
          console.error('loading the check models failed (each check retries on use):', error),
        onError: (error, job) => report(`pipeline ${job.queue} (${job.sessionId}) failed`)(error),
      });
      stops.push(() => pipeline.stop());
      const warm = pipeline.warmedUp;
      console.log(
        `mimoto ${role === 'worker' ? 'worker' : 'pipeline workers'} started${warm ? ` (check models loaded and warmed in ${(warm.ms / 1000).toFixed(1)} s, ${warm.inferenceThreads} inference threads)` : ''}`,
      );
    }
  } catch (error) {
    for (const stop of stops.reverse()) await stop();
    await platform.close();
    throw error;
  }

  await stopAsked;
  console.log('mimoto stopping…');
  for (const stop of stops.reverse()) await stop();
  await platform.close();
}
