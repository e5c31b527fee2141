// A Kysely dialect for the embedded PGlite database.
// PGlite is one connection. Kysely runs a transaction as BEGIN … COMMIT on a connection it holds,
// so every other query must wait until that connection is released, or it would run inside the
// transaction. kysely-pglite has no such lock; this driver holds one mutex per database.
import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { Mutex } from './mutex.ts';

export class PgliteDialect implements Dialect {
  constructor(
    private readonly client: PGlite,
    private readonly mutex: Mutex,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.client, this.mutex);
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PgliteDriver implements Driver {
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(
    private readonly client: PGlite,
    private readonly mutex: Mutex,
  ) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    const connection = new PgliteConnection(this.client);
    this.releases.set(connection, release);
    return connection;
  }
  async releaseConnection(connection: DatabaseConnection) {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }
  async beginTransaction(connection: DatabaseConnection) {
    await (connection as PgliteConnection).run('BEGIN');
  }
  async commitTransaction(connection: DatabaseConnection) {
    await (connection as PgliteConnection).run('COMMIT');
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as PgliteConnection).run('ROLLBACK');
  }
  async destroy() {}
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}
  async run(sql: string) {
    await this.client.exec(sql);
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // The extended protocol takes one statement; text without parameters may hold several
    // (migrations, pg-boss's commands), so it goes through the simple protocol.
    const result =
      query.parameters.length === 0
        ? ((await this.client.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.client.query<R>(query.sql, [...query.parameters]);
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }
  // biome-ignore lint/correctness/useYield: PGlite has no cursors; Kysely requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}
