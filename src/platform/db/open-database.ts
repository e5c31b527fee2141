// One typed SQL layer over PostgreSQL (DATABASE_URL) or the embedded PGlite (docs/decisions.md).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import {
  type AvailabilityTracker,
  type DatabaseAvailability,
  trackAvailability,
} from './database-availability.ts';
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
  /**
   * Whether the server answers (database-availability.ts). The embedded database is in this
   * process: always available.
   */
  readonly availability: DatabaseAvailability;
  /** PGlite only: the whole data directory as a tarball (test templates, backups). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseLocation =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Where the start and end of an outage are written (default: stderr). */
      log?: (line: string) => void;
    }
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

/**
 * The pool Kysely sees: each client runs a marked statement as a named (prepared) one, and every
 * connection and statement tells `availability` whether the server answered.
 */
function preparingPool(pool: pg.Pool, availability: AvailabilityTracker): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const observed = <T>(result: T): T => {
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value) => {
        availability.succeeded();
        return value;
      },
      (error) => {
        availability.failed(error);
        throw error;
      },
    ) as T;
  };
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        availability.failed(error);
        throw error;
      }
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = {
          query: ((query: unknown, parameters?: unknown[]) => {
            const name = typeof query === 'string' ? PREPARED_MARK.exec(query)?.[1] : undefined;
            if (name !== undefined)
              return observed(client.query({ name, text: query as string, values: parameters }));
            // A cursor (Kysely's streaming) or a plain statement: as pg takes them.
            return observed(client.query(query as string, parameters));
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
    const pool = new pg.Pool({
      connectionString: location.url,
      max: location.poolSize ?? 10,
      // A server that does not answer at all (a fail-over in progress, a dropped route) fails the
      // connection within seconds instead of holding the request; TCP keep-alive finds a dead
      // connection that no statement is using.
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    const availability = trackAvailability({
      probe: async () => {
        const client = new pg.Client({ connectionString: location.url, connectionTimeoutMillis: 5000 });
        client.on('error', () => {});
        try {
          await client.connect();
          await client.query('SELECT 1');
        } finally {
          await client.end().catch(() => {});
        }
      },
      ...(location.log ? { log: location.log } : {}),
    });
    // A client that loses its server must not crash the process: idle ones report to the pool,
    // and every client — a checked-out one has no listener of the pool's — gets its own listener
    // when it is made. The statement it was running fails and is what its caller sees.
    pool.on('error', (error) => availability.failed(error));
    pool.on('connect', (client) => {
      client.on('error', (error) => availability.failed(error));
    });
    const db = new Kysely<Tables>({
      dialect: new PostgresDialect({ pool: preparingPool(pool, availability) }),
    });
    return {
      kind: 'postgres',
      db,
      executeSql: executeSqlOn(db),
      availability,
      listen: (channel, onNotify) => listenOnPostgres(location.url, channel, onNotify),
      close: async () => {
        availability.close();
        await db.destroy();
      },
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
    availability: { available: true, waitUntilAvailable: () => Promise.resolve() },
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
  // Backs off while the server stays away (1 s doubled to 10 s), from 1 s again once listening.
  let delayMs = 1000;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify(m.payload ?? '');
    });
    c.on('error', () => reconnectSoon(c));
    client = c;
    await c.connect();
    await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
    delayMs = 1000;
  };
  const reconnectSoon = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    lost.end().catch(() => {});
    if (stopped) return;
    retry = setTimeout(() => {
      connect().catch(() => client && reconnectSoon(client));
    }, delayMs);
    retry.unref();
    delayMs = Math.min(delayMs * 2, 10_000);
  };
  try {
    await connect();
  } catch (error) {
    // Not there yet: keep trying in the background (a listener is never the only way work is found).
    if (client) reconnectSoon(client);
    else throw error;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
