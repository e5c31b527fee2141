// The last line of defence of a server process: a promise rejected with nobody to handle it, or an
// 'error' event with no listener (which Node throws), is logged with one marker line and counted
// instead of ending the process silently or — for a rejection — being lost. None is expected: every
// pg client, pool and pg-boss statement has its handler (platform/db, platform/jobs), and the outage
// test fails when a process under test writes the marker. A thrown exception other than a lost
// database connection still ends the process (exit status 70) after its line: the state it leaves
// behind is unknown, and a supervisor restarts the process.
import { isDatabaseUnavailable } from '../platform/db/database-availability.ts';
import { redactText } from '../platform/http/log-redaction.ts';

/** Written at the start of every line the guards log, for operators' alerts and the tests. */
export const UNHANDLED_MARKER = 'mimoto: unhandled';

export interface ProcessGuards {
  /** How many of each the guards have seen. */
  readonly counts: { rejections: number; exceptions: number };
  uninstall(): void;
}

export function installProcessGuards(
  log: (line: string) => void = (line) => console.error(line),
): ProcessGuards {
  const counts = { rejections: 0, exceptions: 0 };
  // Message and stack only, with the secrets' shapes redacted (log-redaction.ts).
  const describe = (error: unknown) =>
    redactText(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));
  const onRejection = (reason: unknown) => {
    counts.rejections++;
    log(`${UNHANDLED_MARKER} rejection #${counts.rejections}: ${describe(reason)}`);
  };
  const onException = (error: unknown, origin: string) => {
    counts.exceptions++;
    log(`${UNHANDLED_MARKER} exception #${counts.exceptions} (${origin}): ${describe(error)}`);
    if (!isDatabaseUnavailable(error)) process.exit(70);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    counts,
    uninstall() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
