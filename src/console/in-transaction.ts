// Runs existing service functions (tenants, api-keys, …) and the audit row they need in one
// transaction: the services take a Platform and query platform.database.db, so they are handed a
// Platform whose database is the transaction. Nothing inside may use the outer database (PGlite has
// one connection, held by the transaction).
import { executeSqlOn } from '../platform/db/open-database.ts';
import type { Platform } from '../platform/platform.ts';

export function inTransaction<T>(platform: Platform, run: (tx: Platform) => Promise<T>): Promise<T> {
  return platform.database.db.transaction().execute((trx) =>
    run({
      config: platform.config,
      keyring: platform.keyring,
      jobs: platform.jobs,
      now: () => platform.now(),
      database: { ...platform.database, db: trx, executeSql: executeSqlOn(trx) },
    }),
  );
}
