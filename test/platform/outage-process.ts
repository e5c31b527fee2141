// One server process for the database outage test: the production start-up (runServer, with its
// process guards) in the role named by OUTAGE_ROLE, on the test's private PostgreSQL cluster.
import { runServer } from '../../src/main/server.ts';
import { testConfig } from '../helpers/test-platform.ts';

const role = process.env.OUTAGE_ROLE === 'all' ? 'all' : 'worker';
await runServer(
  testConfig({
    DATABASE_URL: process.env.OUTAGE_DATABASE_URL ?? '',
    MIMOTO_DATA_DIR: process.env.OUTAGE_DATA_DIR ?? '',
    PORT: process.env.OUTAGE_PORT ?? '0',
    MIMOTO_RATE_LIMIT_PER_SECOND: '0',
  }),
  role,
);
process.exit(0);
