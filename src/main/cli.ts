// `mimoto <command> …`: every operator command. Each command module is loaded only when used,
// so `mimoto synth` does not load the database and `mimoto start` does not load the corpus tools.
type Command = (args: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  synth: async () => (await import('../synth/synth.command.ts')).synthCommand,
};

const usage = `usage: mimoto <command> [options]

commands:
  synth     write a synthetic identity corpus (mimoto synth --out DIR --seed N --count K)
`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage);
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`mimoto: unknown command '${name}'\n${usage}`);
    return 2;
  }
  const run = await load();
  return run(rest);
}
