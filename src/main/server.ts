// `mimoto start [--role all|api|worker]`: API, hosted flow and console (api), background work
// (worker), or both in one process (all, the default on the embedded database).
import { buildApp } from '../app.ts';
import type { Config, Role } from '../config.ts';
import { startPipelineWorkers } from '../pipeline/index.ts';
import { startExpirySweep } from '../sessions/expire-sessions.ts';
import { startRetentionSweep } from '../sessions/retention-sweep.ts';
import { startWebhookDeliveryWorker } from '../webhooks/index.ts';
import { openPlatform } from './open-platform.ts';

export async function runServer(config: Config, role: Role): Promise<void> {
  const platform = await openPlatform(config, { supervise: role !== 'api' });
  const stops: (() => Promise<void> | void)[] = [];
  try {
    if (role !== 'api') {
      stops.push(startExpirySweep(platform, (error) => console.error('expiry sweep failed:', error)));
      stops.push(startRetentionSweep(platform, (error) => console.error('retention sweep failed:', error)));
      const webhooks = startWebhookDeliveryWorker(platform, {
        onError: (error) => console.error('webhook delivery failed:', error),
      });
      stops.push(() => webhooks.stop());
      const pipeline = await startPipelineWorkers(platform, {
        onError: (error, job) => console.error(`pipeline ${job.queue} (${job.sessionId}) failed:`, error),
      });
      stops.push(() => pipeline.stop());
    }
    if (role !== 'worker') {
      const app = await buildApp(platform);
      await app.listen({ port: config.port, host: config.host });
      stops.push(() => app.close());
      console.log(
        `mimoto (${role}) listening on ${config.publicUrl} — API reference at ${config.publicUrl}/docs`,
      );
    } else {
      console.log('mimoto worker started');
    }
  } catch (error) {
    await platform.close();
    throw error;
  }

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  console.log('mimoto stopping…');
  for (const stop of stops.reverse()) await stop();
  await platform.close();
}
