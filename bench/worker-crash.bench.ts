// Recovery from a crashed worker: `kill -9` of a worker process while it runs checks, and how long
// until the jobs it held run again and the verifications are decided. Prints the figures.
//
//   npm run bench:worker-crash -- [--rounds 3] [--sessions 3]
//
// DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the
// bench creates a database of its own there and drops it afterwards (worker processes share it).
//
// Two `mimoto start --role worker` processes, both warm. Each round: the survivor is paused
// (SIGSTOP) once it is idle, so that the victim alone takes the round's jobs; --sessions genuine
// verifications are submitted (`mimoto simulate`'s flow over HTTP, the API in this process); as soon
// as check jobs of the last one are active the victim is SIGKILLed and the survivor resumed
// (SIGCONT) — every job active at that moment is the dead worker's. A replacement victim is started
// once the round is decided. Figures per such job: kill → the job running again (active with a
// higher retry count); per session: kill → decision. At the end: every session has exactly one
// automatic decision and one webhook event (0 lost, 0 double).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startMimotoServer, submitGenuineVerification } from './lib/bench-servers.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values.sessions);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mimoto-crash-bench-'));
const server = await startMimotoServer({ kind: 'postgres', adminUrl }, { MIMOTO_DATA_DIR: dataDir });
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();
const query = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows;

let seed = 0;
const submitOne = () => submitGenuineVerification(server, ++seed);

function startWorker(name: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [path.join(repoDir, 'bin/mimoto.js'), 'start', '--role', 'worker'], {
    cwd: repoDir,
    env: { ...process.env, ...server.workerEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker started')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`${name} exited (${code ?? signal})`)));
  });
  ready.catch(() => {});
  return { child, ready };
}

const children = new Set<ChildProcess>();
const figures: { round: number; sessionId: string; queue: string; killToDecisionMs: number }[] = [];
const allSessions: string[] = [];
const restarts: number[] = [];
let failure: unknown;
try {
  let workerNumber = 0;
  const next = () => {
    const started = startWorker(`worker ${++workerNumber}`);
    children.add(started.child);
    return started;
  };
  const survivor = next();
  let victim = next();
  await Promise.all([survivor.ready, victim.ready]);
  const decidedCount = async (ids: string[]) =>
    (
      await query(
        "SELECT count(DISTINCT session_id)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1)",
        [ids],
      )
    )[0].n as number;
  for (let round = 1; round <= rounds; round++) {
    while ((await decidedCount(allSessions)) < allSessions.length) await sleep(200);
    survivor.child.kill('SIGSTOP');
    const sessions: string[] = [];
    for (let i = 0; i < perRound; i++) sessions.push(await submitOne());
    allSessions.push(...sessions);
    const last = sessions.at(-1)!;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const active = await query(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE state = 'active' AND data->>'sessionId' = $1",
        [last],
      );
      if (active[0].n >= 1) break;
      if (Date.now() > deadline) throw new Error('no check jobs became active');
      await sleep(10);
    }
    const killedAt = new Date();
    victim.child.kill('SIGKILL');
    await new Promise((r) => victim.child.once('exit', r));
    survivor.child.kill('SIGCONT');
    children.delete(victim.child);
    const orphans = await query(
      `SELECT id, name, data->>'sessionId' AS session_id, retry_count FROM pgboss.job
        WHERE state = 'active' AND data->>'sessionId' = ANY($1) ORDER BY name`,
      [sessions],
    );
    console.log(
      `round ${round}: killed a worker holding ${orphans.length} jobs (${orphans.map((o) => o.name).join(', ')})`,
    );
    // Watch the orphans until their sessions are decided: a job runs again when it is active with
    // a higher retry count (its started_on moves with every heartbeat, so it cannot say when).
    const rerunAt = new Map<string, number>();
    const decidedAt = new Map<string, number>();
    const orphanSessions = [...new Set(orphans.map((o) => String(o.session_id)))];
    const until = Date.now() + 15 * 60_000;
    while (decidedAt.size < orphanSessions.length) {
      if (Date.now() > until) throw new Error(`round ${round}: not decided in 15 minutes`);
      const now = Date.now();
      const jobs = await query('SELECT id, state, retry_count FROM pgboss.job WHERE id = ANY($1::uuid[])', [
        orphans.map((o) => o.id),
      ]);
      for (const job of jobs) {
        const before = orphans.find((o) => o.id === job.id)!;
        if (!rerunAt.has(job.id) && job.retry_count > before.retry_count && job.state !== 'retry')
          rerunAt.set(job.id, now - killedAt.getTime());
      }
      const decided = await query(
        "SELECT session_id, min(decided_at) AS at FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1) GROUP BY session_id",
        [orphanSessions],
      );
      for (const row of decided)
        decidedAt.set(row.session_id, new Date(row.at).getTime() - killedAt.getTime());
      await sleep(100);
    }
    for (const orphan of orphans) {
      const ms = rerunAt.get(orphan.id);
      if (ms !== undefined) restarts.push(ms);
      console.log(
        `  ${orphan.name} of ${orphan.session_id}: ${ms === undefined ? 'not run again (its result was no longer needed)' : `running again ${secs(ms)} after the kill`}`,
      );
    }
    for (const sessionId of orphanSessions) {
      const ms = decidedAt.get(sessionId)!;
      figures.push({ round, sessionId, queue: '', killToDecisionMs: ms });
      console.log(`  ${sessionId}: decided ${secs(ms)} after the kill`);
    }
    // The replacement warms its models only now, so that its start-up does not slow the survivor.
    victim = next();
    await victim.ready;
  }
  // Every session decided (the workers finish the rest), then count.
  const until = Date.now() + 15 * 60_000;
  for (;;) {
    const rows = await query(
      "SELECT count(DISTINCT session_id)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1)",
      [allSessions],
    );
    if (rows[0].n === allSessions.length) break;
    if (Date.now() > until) throw new Error('not every session was decided');
    await sleep(200);
  }
  await sleep(3000); // a duplicate would show up now
  const decisions = await query(
    "SELECT session_id, count(*)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1) GROUP BY session_id",
    [allSessions],
  );
  const events = await query(
    'SELECT session_id, count(*)::int AS n FROM webhook_events WHERE session_id = ANY($1) GROUP BY session_id',
    [allSessions],
  );
  const lost = allSessions.length - decisions.length;
  const double = decisions.filter((r) => r.n > 1).length + events.filter((r) => r.n > 1).length;
  const missingEvents = allSessions.length - events.length;
  const worstRestart = Math.max(...restarts);
  console.log(
    `worker kill -9 → its jobs running again: ${restarts.length} jobs, median ${secs([...restarts].sort((a, b) => a - b)[Math.floor(restarts.length / 2)] ?? Number.NaN)}, max ${secs(worstRestart)} (target ≤ 60 s: ${worstRestart <= 60_000 ? 'met' : 'NOT met'})`,
  );
  const worst = Math.max(...figures.map((f) => f.killToDecisionMs));
  const sorted = figures.map((f) => f.killToDecisionMs).sort((a, b) => a - b);
  console.log('');
  console.log(
    `worker kill -9 → decision of the sessions it held: ${figures.length} sessions over ${rounds} kills, ` +
      `median ${secs(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN)}, max ${secs(worst)} (target ≤ 60 s: ${worst <= 60_000 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `verifications: ${allSessions.length}; lost ${lost}; double decisions or events ${double}; without webhook event ${missingEvents}`,
  );
  console.log(
    `machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
} catch (error) {
  failure = error;
} finally {
  for (const child of children) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await db.end();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failure) {
  console.error(failure);
  process.exit(1);
}
process.exit(0);
