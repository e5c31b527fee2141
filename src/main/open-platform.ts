// Opens what one process needs, in order: database, migrations, keys, job queue.

import { PIPELINE_QUEUES } from '../checks/index.ts';
import type { Config } from '../config.ts';
import { rehashLegacyIdentityKeys } from '../pipeline/identity-hashes.ts';
import { type Keyring, loadOrCreateDevelopmentKeyring, parseKeyring } from '../platform/crypto/encryption.ts';
import { isDatabaseUnavailable } from '../platform/db/database-availability.ts';
import { migrate } from '../platform/db/migrate.ts';
import { type DatabaseLocation, openDatabase } from '../platform/db/open-database.ts';
import { startJobQueue } from '../platform/jobs/job-queue.ts';
import type { Platform } from '../platform/platform.ts';

export function databaseLocation(config: Config): DatabaseLocation {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', directory: `${config.dataDir}/db` };
}

export function keyringFor(config: Config): Keyring {
  // config.ts already refused a missing key outside development.
  return config.encryptionKeys
    ? parseKeyring(config.encryptionKeys)
    : loadOrCreateDevelopmentKeyring(config.dataDir);
}

export interface OpenPlatform extends Platform {
  close(): Promise<void>;
}

export async function openPlatform(config: Config, options: { supervise: boolean }): Promise<OpenPlatform> {
  const keyring = keyringFor(config);
  const database = await openDatabase(databaseLocation(config));
  try {
    // A process started while the database is down (or restarting under it) waits for it: the
    // availability probe backs off and logs the outage once.
    for (;;) {
      try {
        await migrate(database);
        // Migration 0008's step that needs the keyring: plain identity digests become keyed hashes.
        await rehashLegacyIdentityKeys(database.db, keyring);
        break;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        await database.availability.waitUntilAvailable();
      }
    }
    const jobs = await startJobQueue(database, { supervise: options.supervise, queues: PIPELINE_QUEUES });
    return {
      config,
      database,
      keyring,
      jobs,
      now: () => new Date(),
      close: async () => {
        await jobs.stop({ graceful: true, wait: true, timeout: 10_000 });
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
