// `mimoto <command> …`: every operator command. Each command module is loaded only when used,
// so `mimoto synth` does not load the database and `mimoto start` does not load the corpus tools.
import { type Config, ConfigError, parseConfig } from '../config.ts';
import { DatabaseInUseError } from '../platform/db/lock-data-directory.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { CommandOutput } from './operator-commands.ts';

/**
 * What a command writes to and the environment its configuration is read from: the process's
 * own when run as `mimoto`, a test's when called in the test's process.
 */
export interface CommandIo extends CommandOutput {
  env: Record<string, string | undefined>;
}

const processIo = (): CommandIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

type Command = (args: string[], io: CommandIo) => Promise<number>;
type ConfiguredCommand = (config: Config, args: string[], io: CommandIo) => Promise<number>;

const configured =
  (load: () => Promise<ConfiguredCommand>): (() => Promise<Command>) =>
  async () => {
    const run = await load();
    return (args, io) => run(parseConfig(io.env), args, io);
  };
const operator = () => import('./operator-commands.ts');

const commands: Record<string, () => Promise<Command>> = {
  start: configured(async () => (await operator()).startCommand),
  migrate: configured(async () => (await operator()).migrateCommand),
  tenant: configured(async () => (await operator()).tenantCommand),
  key: configured(async () => (await operator()).keyCommand),
  webhooks: configured(async () => (await operator()).webhooksCommand),
  user: configured(async () => (await import('./user-command.ts')).userCommand),
  synth: async () => (await import('../synth/synth.command.ts')).synthCommand,
  simulate: async () => {
    const { simulateCommand } = await import('../simulate/simulate.command.ts');
    return (args, io) => simulateCommand(args, io, () => parseConfig(io.env));
  },
  inspect: async () => (await import('./inspect-command.ts')).inspectCommand,
};

const usage = `usage: mimoto <command> [options]

commands:
  start [--role all|api|worker]       run the service (npm start)
  migrate                             apply database migrations
  tenant create --name NAME --callback-url-prefix URL [--callback-url-prefix URL …] [--json]
  tenant allow-callback --tenant ID --callback-url-prefix URL
  tenant show --tenant ID [--json]
  tenant rotate-webhook-secret --tenant ID [--json]   prints the new secret once
  key create --tenant ID [--label L] [--json]
  key list --tenant ID [--json]
  key disable --key ID
  webhooks list --session ID [--json]                 events, attempts, outcomes
  webhooks redeliver --event ID [--json]              one attempt now, same bytes
  user create --email E --role operator|tenant_admin|reviewer [--tenant ID] [--json]   prints a one-time password link
  synth --out DIR --seed N --count K  write a synthetic identity corpus
  simulate --persona P --api-key KEY --callback-url URL [--wait] [--json]   create a session and play
                                      an end user through it (simulate --help for every option)
  inspect document --type TYPE --front FILE [--back FILE] [--json]   ocr + documentSpoofCheck on image files
  inspect faces FILE_A FILE_B [--json]                faceMatch of two pictures at the default threshold
  inspect selfie FILE [--json]                        selfieSpoofCheck on one still: {risk, score, signals}
  inspect chip --sod FILE --dg1 FILE [--dg2 FILE] --csca FILE.pem [--json]   passive authentication of chip files

configuration comes from the environment: see .env.example
`;

/** Runs one command; resolves to the process exit status. */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage);
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (!load) {
    io.stderr.write(`mimoto: unknown command '${name}'\n\n${usage}`);
    return 2;
  }
  try {
    return await (await load())(rest, io);
  } catch (error) {
    if ((error as Error).name === 'UsageError') {
      io.stderr.write(`mimoto ${name}: ${(error as Error).message}\n`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof DatabaseInUseError || error instanceof AppError) {
      io.stderr.write(`mimoto ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
