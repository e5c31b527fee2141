// Runs existing service functions (tenants, api-keys, …) and what goes with them (an audit row, a
// consistent read) in one transaction: the services take a Platform and query
// platform.database.db, so they are handed a Platform whose database is the transaction. Nothing
// inside may use the outer database (PGlite has one connection, held by the transaction).
import type { Platform } from '../platform.ts';
import { executeSqlOn } from './open-database.ts';

export function inTransaction<T>(
  platform: Platform,
  run: (tx: Platform) => Promise<T>,
  options: { isolation?: 'repeatable read' } = {},
): Promise<T> {
  const transaction = platform.database.db.transaction();
  return (options.isolation ? transaction.setIsolationLevel(options.isolation) : transaction).execute((trx) =>
    run({
      config: platform.config,
      keyring: platform.keyring,
      jobs: platform.jobs,
      now: () => platform.now(),
      database: { ...platform.database, db: trx, executeSql: executeSqlOn(trx) },
    }),
  );
}
