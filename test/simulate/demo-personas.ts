// `npm run demo:personas [-- --runs N --genuine-runs N --persona P …]` (5 seeds each by default): every `mimoto simulate`
// persona against a real server (in-memory PGlite, or DATABASE_URL) with its pipeline workers, one
// session after another, and the table of what each was decided as. Exit 1 when any session was
// not decided as its persona expects. Slow on a busy machine (tens of seconds per session).
import { parseArgs } from 'node:util';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { isPersona, PERSONAS, type Persona } from '../../src/simulate/persona-media.ts';
import { formatOutcomes, type PersonaOutcome, runPersona } from './run-persona.ts';
import { startSimulateServer } from './simulate-server.ts';

const { values } = parseArgs({
  options: {
    // Seeds 1-5 of every persona by default: the README's decision must hold for each.
    runs: { type: 'string', default: '5' },
    'genuine-runs': { type: 'string' },
    persona: { type: 'string', multiple: true },
    'first-seed': { type: 'string', default: '1' },
  },
});
const personas = (values.persona ?? [...PERSONAS]).filter((p): p is Persona => {
  if (!isPersona(p)) throw new Error(`unknown persona ${p}; one of ${PERSONAS.join(', ')}`);
  return true;
});
const firstSeed = Number(values['first-seed']);

const server = await startSimulateServer({ pipeline: true });
const outcomes: PersonaOutcome[] = [];
try {
  for (const persona of personas) {
    const runs = Number((persona === 'genuine' ? values['genuine-runs'] : undefined) ?? values.runs);
    for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
      const outcome = await runPersona(server, persona, seed);
      outcomes.push(outcome);
      process.stderr.write(
        `${persona} seed ${seed}: ${outcome.status} ${outcome.reason}${outcome.expected ? '' : ' (NOT as expected)'}\n`,
      );
    }
  }
} finally {
  await server.close();
  await terminateOcrEngine();
}
process.stdout.write(`${formatOutcomes(outcomes)}\n`);
for (const persona of personas) {
  const mine = outcomes.filter((o) => o.persona === persona);
  process.stdout.write(`\n${persona}: ${mine.filter((o) => o.expected).length} of ${mine.length}`);
}
const missed = outcomes.filter((o) => !o.expected).length;
process.stdout.write(`\n${outcomes.length - missed} of ${outcomes.length} sessions decided as expected\n`);
process.exitCode = missed > 0 ? 1 : 0;
