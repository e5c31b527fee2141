// `mimoto simulate --url VERIFICATION_URL --persona P [--seed N] [--json]` (issue 5 item 7).
// Progress lines go to stdout, or to stderr with --json, whose last stdout line is
// {"sessionId","redirectedTo"}. Exit 0 when the flow reached the callback redirect, 1 when the
// server refused a step (the message says which and why), 2 on a usage error.
// Only light modules are loaded before the one-time link is opened: it is valid 10 s, and loading
// the media generator (sharp, the synth corpus, Human) takes longer than that on a busy machine.
import { parseArgs } from 'node:util';
import { DOCUMENT_TYPES, type DocumentType } from '../synth/document-record.ts';
import { FlowStepRefused, HostedFlowClient } from './hosted-flow-client.ts';
import { isPersona, PERSONAS } from './personas.ts';

const usage = `usage: mimoto simulate --url VERIFICATION_URL --persona P [options]

Completes a session's hosted flow headlessly, through the endpoints the browser uses, with
synthetic documents and faces. The verification URL is single-use and valid 10 s.

options:
  --url URL             the session's verificationUrl
  --persona P           ${PERSONAS.join(' | ')}
  --seed N              integer seed of the media (default 1); the same seed gives the same media
  --document-type T     ${DOCUMENT_TYPES.join(' | ')} (default: drawn from the tenant's allowed types)
  --lang ja|en          language of the server's messages (default en)
  --json                last stdout line {"sessionId","redirectedTo"}; progress on stderr
`;

function fail(message: string): number {
  process.stderr.write(`mimoto simulate: ${message}\n${usage}`);
  return 2;
}

export async function simulateCommand(args: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        persona: { type: 'string' },
        seed: { type: 'string' },
        'document-type': { type: 'string' },
        lang: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const url = values.url;
  if (typeof url !== 'string' || !URL.canParse(url)) return fail('--url must be the verification URL');
  const persona = String(values.persona ?? '');
  if (!isPersona(persona)) return fail(`--persona must be one of ${PERSONAS.join(', ')}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isSafeInteger(seed)) return fail('--seed must be an integer');
  const documentType = values['document-type'];
  if (documentType !== undefined && !(DOCUMENT_TYPES as readonly unknown[]).includes(documentType)) {
    return fail(`--document-type must be one of ${DOCUMENT_TYPES.join(', ')}`);
  }
  const language = values.lang ?? 'en';
  if (language !== 'ja' && language !== 'en') return fail('--lang must be ja or en');
  const json = values.json === true;
  const progress = json ? process.stderr : process.stdout;
  const sessionIdOfUrl = new URL(url).searchParams.get('sessionId');

  try {
    const client = await HostedFlowClient.enter(url, language);
    const { simulateFlow } = await import('./simulate-flow.ts');
    const result = await simulateFlow({
      url,
      client,
      persona,
      seed,
      ...(documentType ? { documentType: documentType as DocumentType } : {}),
      language,
      // A person's pace: the server's fraud check flags flows faster than anyone could do them.
      pace: 'human',
      log: (line) => progress.write(`${line}\n`),
    });
    progress.write(
      `done in ${(result.durationMs / 1000).toFixed(1)} s: liveness ${result.liveness.status} after ${result.liveness.attempts.length} attempt(s)\n`,
    );
    if (json)
      process.stdout.write(
        `${JSON.stringify({ sessionId: result.sessionId, redirectedTo: result.redirectedTo })}\n`,
      );
    else process.stdout.write(`redirected to ${result.redirectedTo}\n`);
    return 0;
  } catch (error) {
    // fetch reports an unreachable server as TypeError('fetch failed') with the reason as cause.
    const isUnreachable = error instanceof TypeError && error.message === 'fetch failed';
    if (!(error instanceof FlowStepRefused) && !isUnreachable) throw error;
    const message =
      error instanceof FlowStepRefused
        ? `the server refused a step: ${error.message}`
        : `cannot reach ${new URL(url).origin}: ${(error as Error & { cause?: Error }).cause?.message ?? error.message}`;
    process.stderr.write(`mimoto simulate: ${message}\n`);
    if (json) {
      const refused =
        error instanceof FlowStepRefused
          ? { step: error.step, status: error.status, error: error.code, message: error.serverMessage }
          : { step: 'connect', status: 0, error: null, message: error.message };
      process.stdout.write(`${JSON.stringify({ sessionId: sessionIdOfUrl, redirectedTo: null, refused })}\n`);
    }
    return 1;
  }
}
