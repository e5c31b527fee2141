// A worker process for the crash test: the production platform (openPlatform) on the test's
// PostgreSQL database, running the pipeline workers only (no webhook delivery: no network in tests).

import { openPlatform } from '../../src/main/open-platform.ts';
import { startPipelineWorkers } from '../../src/pipeline/index.ts';
import { testConfig } from '../helpers/test-platform.ts';

const config = testConfig({
  DATABASE_URL: process.env.CRASH_DATABASE_URL ?? '',
  MIMOTO_DATA_DIR: process.env.CRASH_DATA_DIR ?? '',
});
const platform = await openPlatform(config, { supervise: true });
const workers = await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5 });
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await workers.stop();
  await platform.close();
  process.exit(0);
});
