// PGlite keeps a whole PostgreSQL in one process's memory: a second process opening the same
// directory would corrupt it. The first process takes an exclusive lock file holding its pid.
import fs from 'node:fs';
import path from 'node:path';

export class DatabaseInUseError extends Error {
  constructor(directory: string, pid: number) {
    super(
      `the embedded database in ${directory} is in use by another mimoto process (pid ${pid}); ` +
        'stop that process first, or set DATABASE_URL to share a PostgreSQL server between processes. ' +
        "While it runs, the console shows the same: sessions, and the Webhooks page (a tenant's admin, " +
        'or an operator under Tenants)',
    );
    this.name = 'DatabaseInUseError';
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws DatabaseInUseError; returns the function that releases it. */
export function lockDataDirectory(directory: string): () => void {
  const lockPath = path.join(directory, 'pgdata.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        fs.rmSync(lockPath, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
      throw new DatabaseInUseError(directory, holder);
    }
    // The holder died without cleaning up (or wrote nothing): the lock is stale.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`could not lock ${directory}`);
}
