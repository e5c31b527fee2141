// A PostgreSQL cluster of the test's own (Debian's server binaries, a temporary directory, a free port
// on 127.0.0.1), for tests that stop and start the server: the machine's shared server must keep
// running for the other test files. initdb refuses to run as root, so as root the cluster belongs to
// the `postgres` user and every server binary runs as that user.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`): connections are cut at once. */
  stopImmediate(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why a private cluster cannot be started here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  if (!binDir()) return `PostgreSQL server binaries not found (looked in ${BIN_DIRS.join(', ')})`;
  if (process.getuid?.() === 0 && !postgresUid())
    return 'running as root and there is no `postgres` user to run initdb as';
  return undefined;
}

function binDir(): string | undefined {
  return BIN_DIRS.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')));
}

function postgresUid(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[]): Promise<void> {
  const owner = process.getuid?.() === 0 ? postgresUid() : undefined;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited ${code}: ${stderr}`)),
    );
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const why = privatePostgresUnavailable();
  if (why) throw new Error(why);
  const bin = binDir()!;
  const owner = process.getuid?.() === 0 ? postgresUid() : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'mimoto-private-pg-'));
  const dataDir = path.join(dir, 'data');
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  await run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`;
  const logFile = path.join(dir, 'server.log');
  const start = () =>
    run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', options, '-w', 'start']);
  const stop = (mode: string) => run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', 'stop']);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stopImmediate() {
      await stop('immediate');
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
