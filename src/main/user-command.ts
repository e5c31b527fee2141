// `mimoto user create --email E --role R [--tenant ID] [--json]` (docs/console-api.md): a console
// account and the one-time link (24 h) its owner opens to set a password.
import type { Config } from '../config.ts';
import { CLI_ACTOR, CONSOLE_ROLES, type ConsoleRole, createConsoleUser } from '../console/index.ts';
import { type CommandOutput, lines, parse, required, UsageError, withPlatform } from './operator-commands.ts';

export async function userCommand(
  config: Config,
  args: string[],
  io: CommandOutput = process,
): Promise<number> {
  const out = lines(io.stdout);
  const [action, ...rest] = args;
  const flags = parse(rest, {
    email: { type: 'string' },
    role: { type: 'string' },
    tenant: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (action !== 'create') throw new UsageError('user commands: create');
  const email = required(flags.email, '--email');
  const role = required(flags.role, '--role') as ConsoleRole;
  if (!CONSOLE_ROLES.includes(role))
    throw new UsageError(`--role must be one of ${CONSOLE_ROLES.join(', ')}`);
  if (role === 'operator' && flags.tenant !== undefined) throw new UsageError('an operator has no --tenant');
  if (role !== 'operator' && flags.tenant === undefined) throw new UsageError(`a ${role} needs --tenant`);
  return withPlatform(config, async (platform) => {
    const { user, setPasswordUrl } = await createConsoleUser(platform, CLI_ACTOR, {
      email,
      role,
      tenantId: (flags.tenant as string | undefined) ?? null,
    });
    out(
      flags.json
        ? JSON.stringify({ userId: user.id, setPasswordUrl })
        : `user id: ${user.id} (${user.role}${user.tenantId ? ` of ${user.tenantId}` : ''})\n` +
            `set-password link (valid 24 h, once): ${setPasswordUrl}`,
    );
    return 0;
  });
}
