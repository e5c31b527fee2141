// One typed SQL layer over PostgreSQL (DATABASE_URL) or the embedded PGlite (docs/decisions.md).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { lockDataDirectory } from './lock-data-directory.ts';
import { Mutex } from './mutex.ts';
import { PgliteDialect } from './pglite-dialect.ts';
import type { Tables } from './schema.ts';

export type Db = Kysely<Tables>;

export interface SqlResult {
  rows: Record<string, unknown>[];
}
/** Runs raw SQL; text without parameters may hold several statements. The shape pg-boss asks for. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<SqlResult>;

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  readonly executeSql: ExecuteSql;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` once its transaction commits.
   * Resolves when listening, to a function that stops. On PostgreSQL it holds one connection of its
   * own, opened again a second after it is lost (notifications meanwhile are missed: a listener must
   * not be the only way its work is found).
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** PGlite only: the whole data directory as a tarball (test templates, backups). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseLocation =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `directory` undefined: in memory, for tests, optionally starting from a dumped data directory. */
  | { kind: 'pglite'; directory?: string; loadDataDir?: Blob };

/** `executeSql` bound to a Kysely connection or transaction, so pg-boss can enqueue inside it. */
export function executeSqlOn(db: Kysely<Tables>): ExecuteSql {
  return async (text, values = []) => {
    const result = await db.executeQuery(CompiledQuery.raw(text, values));
    return { rows: result.rows as Record<string, unknown>[] };
  };
}

/**
 * Marks a constant statement to be prepared once per PostgreSQL connection under `name` (parsed and
 * planned once, then only bound and executed): for the few statements on a hot path. Elsewhere, and
 * on PGlite, the mark is only a comment. Names must be unique per statement text.
 */
export function preparedStatement(name: string, text: string): string {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(name)) throw new Error(`invalid statement name '${name}'`);
  return `/* prepared ${name} */ ${text}`;
}
const PREPARED_MARK = /^\/\* prepared ([a-z][a-z0-9_]*) \*\//;

/** The pool Kysely sees: each client runs a marked statement as a named (prepared) one. */
function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = {
          query: ((query: unknown, parameters?: unknown[]) => {
            const name = typeof query === 'string' ? PREPARED_MARK.exec(query)?.[1] : undefined;
            if (name !== undefined) return client.query({ name, text: query as string, values: parameters });
            // A cursor (Kysely's streaming) or a plain statement: as pg takes them.
            return client.query(query as string, parameters);
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        // Kysely keeps one connection object per client: the same wrapper each time.
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
    return {
      kind: 'postgres',
      db,
      executeSql: executeSqlOn(db),
      listen: (channel, onNotify) => listenOnPostgres(location.url, channel, onNotify),
      close: () => db.destroy(),
    };
  }

  let unlock = () => {};
  let client: PGlite;
  if (location.directory) {
    fs.mkdirSync(location.directory, { recursive: true });
    unlock = lockDataDirectory(location.directory);
    try {
      client = await PGlite.create(path.join(location.directory, 'pgdata'));
    } catch (error) {
      unlock();
      throw error;
    }
  } else {
    client = await PGlite.create(location.loadDataDir ? { loadDataDir: location.loadDataDir } : {});
  }
  const mutex = new Mutex();
  const db = new Kysely<Tables>({ dialect: new PgliteDialect(client, mutex) });
  return {
    kind: 'pglite',
    db,
    executeSql: executeSqlOn(db),
    // Under the transaction lock: a LISTEN run inside another caller's open transaction would be
    // undone with it.
    listen: async (channel, onNotify) => {
      const stop = await withLock(mutex, () => client.listen(channel, onNotify));
      return () => withLock(mutex, stop);
    },
    dumpDataDir: () => withLock(mutex, async () => (await client.dumpDataDir('none')) as Blob),
    close: async () => {
      await db.destroy();
      await client.close();
      unlock();
    },
  };
}

async function withLock<T>(mutex: Mutex, run: () => Promise<T>): Promise<T> {
  const release = await mutex.lock();
  try {
    return await run();
  } finally {
    release();
  }
}

async function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify(m.payload ?? '');
    });
    c.on('error', () => reconnectSoon(c));
    client = c;
    await c.connect();
    await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
  };
  const reconnectSoon = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    lost.end().catch(() => {});
    if (stopped) return;
    retry = setTimeout(() => {
      connect().catch(() => client && reconnectSoon(client));
    }, 1000);
  };
  try {
    await connect();
  } catch (error) {
    await client?.end().catch(() => {});
    throw error;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
