// CPU time spent per request, by the server process and by its PostgreSQL backends. On a shared
// 2-core machine req/s moves with whatever else runs; CPU per request moves much less, and it says
// where the time goes.
import { readFileSync } from 'node:fs';
import type { Database } from '../../src/platform/db/open-database.ts';

/** Linux reports utime and stime in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** utime + stime of local processes; processes that ended count as zero. */
function cpuSecondsOf(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      // Fields after the parenthesised command name: state is 3rd, utime 14th, stime 15th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {}
  }
  return total;
}

/**
 * A reader of the CPU used by this database's PostgreSQL backends, or undefined when the server is
 * not on this machine (its pids would mean nothing here). WAL writer and checkpointer are shared
 * with other databases, so they are left out.
 */
export async function postgresBackendCpu(
  database: Database,
  url: string,
): Promise<(() => number) | undefined> {
  const host = new URL(url).hostname;
  if (database.kind !== 'postgres' || !['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host)) {
    return undefined;
  }
  const result = await database.executeSql(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'",
  );
  const pids = result.rows.map((row) => Number(row.pid));
  return () => cpuSecondsOf(pids);
}
