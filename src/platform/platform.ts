// What capabilities are handed: the parsed config and the shared infrastructure of one process.
import type { Config } from '../config.ts';
import type { Keyring } from './crypto/encryption.ts';
import type { Database } from './db/open-database.ts';
import type { JobQueue } from './jobs/job-queue.ts';

export interface Platform {
  readonly config: Config;
  readonly database: Database;
  readonly keyring: Keyring;
  readonly jobs: JobQueue;
  /** The clock; tests move it to see expiry. */
  now(): Date;
}
