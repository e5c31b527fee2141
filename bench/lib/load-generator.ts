// The bench's handle on the load-generator process.
import { type ChildProcess, fork } from 'node:child_process';
import type { LoadResult, LoadSpec } from './load-spec.ts';

export interface LoadGenerator {
  run(spec: LoadSpec): Promise<LoadResult>;
  close(): void;
}

export function startLoadGenerator(): LoadGenerator {
  const child: ChildProcess = fork(new URL('./load-generator-process.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  child.on('message', (message: { id: number; result?: LoadResult; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(`load generator: ${message.error}`));
    else waiter?.resolve(message.result as LoadResult);
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`load generator exited (${code})`));
    pending.clear();
  });
  return {
    run: (spec) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, spec });
      }),
    close: () => {
      child.disconnect();
    },
  };
}
