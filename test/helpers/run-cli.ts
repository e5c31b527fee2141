// The CLI in two ways: through its `main` in the test's process, with the command's own
// environment and output (a process per command costs seconds of TypeScript start-up), and as
// the separate process of bin/mimoto.js an operator runs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { main } from '../../src/main/cli.ts';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `mimoto ARGS` in this process, its configuration read from `env` only. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const out = { stdout: '', stderr: '' };
  const status = await main(args, {
    env,
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
  });
  return { status, ...out };
}

/** `mimoto ARGS` as a separate process of the installed entry point, with `env` and PATH only. */
export function runBin(args: string[], env: Record<string, string> = {}, timeout = 60_000): CliRun {
  const result = spawnSync(process.execPath, [path.resolve('bin/mimoto.js'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
