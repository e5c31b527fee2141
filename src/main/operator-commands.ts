// Operator commands. They open the database like the server does; with the
// embedded database that works only while the server is stopped (lock-data-directory.ts).
import { parseArgs } from 'node:util';
import { listTenantApiKeys } from '../api-keys/index.ts';
import type { Config, Role } from '../config.ts';
import {
  CLI_ACTOR,
  changeCallbackPrefixAudited,
  createApiKeyAudited,
  createTenantAudited,
  disableApiKeyAudited,
  rotateWebhookSecretAudited,
} from '../console/index.ts';
import { migrate } from '../platform/db/migrate.ts';
import { openDatabase } from '../platform/db/open-database.ts';
import { showTenant } from '../tenants/index.ts';
import {
  formatWebhookEvents,
  listSessionWebhookEvents,
  redeliverWebhookEvent,
  WebhookEventBusyError,
} from '../webhooks/index.ts';
import { databaseLocation, type OpenPlatform, openPlatform } from './open-platform.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

export function parse<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as {
      [K in keyof T]?: T[K]['multiple'] extends true
        ? string[]
        : T[K]['type'] extends 'boolean'
          ? boolean
          : string;
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(value: unknown, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

export async function withPlatform<T>(
  config: Config,
  run: (platform: OpenPlatform) => Promise<T>,
): Promise<T> {
  const platform = await openPlatform(config, { supervise: false });
  try {
    return await run(platform);
  } finally {
    await platform.close();
  }
}

/** Where a command writes: the process's streams, or a test's. */
export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Writes whole lines to `stream`. */
export const lines =
  (stream: CommandOutput['stdout']) =>
  (text: string): void => {
    stream.write(`${text}\n`);
  };

export async function startCommand(config: Config, args: string[]): Promise<number> {
  const { role = 'all' } = parse(args, { role: { type: 'string' } });
  if (!['all', 'api', 'worker'].includes(role as string))
    throw new UsageError('--role must be all, api or worker');
  // Loaded only here: the server pulls in every route and model; the other commands need none of it.
  const { runServer } = await import('./server.ts');
  await runServer(config, role as Role);
  return 0;
}

export async function migrateCommand(
  config: Config,
  args: string[],
  io: CommandOutput = process,
): Promise<number> {
  const print = lines(io.stdout);
  parse(args, {});
  const database = await openDatabase(databaseLocation(config));
  try {
    const applied = await migrate(database);
    print(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
  } finally {
    await database.close();
  }
  return 0;
}

export async function tenantCommand(
  config: Config,
  args: string[],
  io: CommandOutput = process,
): Promise<number> {
  const out = lines(io.stdout);
  const [action, ...rest] = args;
  const flags = parse(rest, {
    name: { type: 'string' },
    'callback-url-prefix': { type: 'string', multiple: true },
    tenant: { type: 'string' },
    json: { type: 'boolean' },
  });
  const prefixes = (flags['callback-url-prefix'] as string[] | undefined) ?? [];
  return withPlatform(config, async (platform) => {
    if (action === 'create') {
      const created = await createTenantAudited(platform, CLI_ACTOR, {
        name: required(flags.name, '--name'),
        callbackUrlPrefixes: prefixes,
      });
      out(
        flags.json
          ? JSON.stringify(created)
          : `tenant id:      ${created.tenantId}\nwebhook secret: ${created.webhookSecret}\n(the secret is shown only now)`,
      );
      return 0;
    }
    const tenantId = required(flags.tenant, '--tenant');
    if (action === 'allow-callback') {
      if (prefixes.length !== 1) throw new UsageError('give exactly one --callback-url-prefix');
      const tenant = await changeCallbackPrefixAudited(platform, CLI_ACTOR, {
        tenantId,
        prefix: prefixes[0]!,
        add: true,
      });
      out(
        flags.json
          ? JSON.stringify(tenant)
          : `allowed callback URL prefixes:\n  ${tenant.callbackUrlPrefixes.join('\n  ')}`,
      );
      return 0;
    }
    if (action === 'show') {
      const tenant = await showTenant(platform, tenantId);
      out(
        flags.json
          ? JSON.stringify(tenant)
          : `tenant id: ${tenant.tenantId}\nname:      ${tenant.name}\ncreated:   ${tenant.createdAt}\n` +
              `allowed callback URL prefixes:\n  ${tenant.callbackUrlPrefixes.join('\n  ')}`,
      );
      return 0;
    }
    if (action === 'rotate-webhook-secret') {
      const { webhookSecret } = await rotateWebhookSecretAudited(platform, CLI_ACTOR, tenantId);
      out(
        flags.json
          ? JSON.stringify({ tenantId, webhookSecret })
          : `new webhook secret: ${webhookSecret}\n(shown only now; webhooks sent from now on are signed with it)`,
      );
      return 0;
    }
    throw new UsageError('tenant commands: create, allow-callback, show, rotate-webhook-secret');
  });
}

export async function keyCommand(
  config: Config,
  args: string[],
  io: CommandOutput = process,
): Promise<number> {
  const print = lines(io.stdout);
  const [action, ...rest] = args;
  const flags = parse(rest, {
    tenant: { type: 'string' },
    label: { type: 'string' },
    key: { type: 'string' },
    json: { type: 'boolean' },
  });
  return withPlatform(config, async (platform) => {
    if (action === 'create') {
      const created = await createApiKeyAudited(
        platform,
        CLI_ACTOR,
        required(flags.tenant, '--tenant'),
        flags.label as string | undefined,
      );
      print(
        flags.json
          ? JSON.stringify(created)
          : `key id:  ${created.keyId}\nAPI key: ${created.apiKey}\n(the key is shown only now; keep it on your server)`,
      );
      return 0;
    }
    if (action === 'list') {
      const keys = await listTenantApiKeys(platform, required(flags.tenant, '--tenant'));
      if (flags.json) print(JSON.stringify(keys));
      else
        for (const key of keys) {
          const state = key.disabledAt ? `disabled ${key.disabledAt}` : 'active';
          print(
            `${key.keyId}  ${key.hint}  ${state}  last used ${key.lastUsedAt ?? 'never'}  ${key.label ?? ''}`,
          );
        }
      return 0;
    }
    if (action === 'disable') {
      const keyId = required(flags.key, '--key');
      await disableApiKeyAudited(platform, CLI_ACTOR, keyId);
      print(`disabled ${keyId}`);
      return 0;
    }
    throw new UsageError('key commands: create, list, disable');
  });
}

/**
 * `mimoto webhooks list --session ID [--json]` and `mimoto webhooks redeliver --event ID [--json]`.
 */
export async function webhooksCommand(
  config: Config,
  args: string[],
  io: CommandOutput = process,
): Promise<number> {
  const out = lines(io.stdout);
  const [action, ...rest] = args;
  const flags = parse(rest, {
    session: { type: 'string' },
    event: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (action === 'list') {
    const sessionId = required(flags.session, '--session');
    return withPlatform(config, async (platform) => {
      const events = await listSessionWebhookEvents(platform, sessionId);
      out(flags.json ? JSON.stringify(events) : formatWebhookEvents(events));
      return 0;
    });
  }
  if (action === 'redeliver') {
    const eventId = required(flags.event, '--event');
    return withPlatform(config, async (platform) => {
      let outcome: Awaited<ReturnType<typeof redeliverWebhookEvent>>;
      try {
        outcome = await redeliverWebhookEvent(platform, eventId);
      } catch (error) {
        if (error instanceof WebhookEventBusyError) {
          io.stderr.write(`mimoto webhooks: ${error.message}; try again in a few seconds\n`);
          return 1;
        }
        throw error;
      }
      if (!outcome) {
        io.stderr.write(`mimoto webhooks: no event '${eventId}'\n`);
        return 1;
      }
      const { result } = outcome;
      out(
        flags.json
          ? JSON.stringify({
              eventId,
              attempt: outcome.attempt,
              outcome: result.outcome,
              httpStatus: result.status,
              errorClass: result.errorClass,
              errorMessage: result.errorMessage,
              durationMs: result.durationMs,
              state: outcome.state,
            })
          : `${eventId} attempt ${outcome.attempt}: ${result.outcome}` +
              `${result.status === null ? '' : ` (HTTP ${result.status})`}` +
              `${result.errorClass ? ` ${result.errorClass}: ${result.errorMessage}` : ''}` +
              ` in ${result.durationMs} ms; event is ${outcome.state}`,
      );
      return result.outcome === 'success' ? 0 : 1;
    });
  }
  throw new UsageError('webhooks commands: list, redeliver');
}
