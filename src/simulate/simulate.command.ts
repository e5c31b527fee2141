// `mimoto simulate`: a tenant's test tool. It plays an end user through a session's hosted flow
// over HTTP, and can create that session itself (as the tenant's server would) and wait for the
// decision. Progress lines go to stdout, or to stderr with --json, whose one stdout line is the
// result (or the error) as JSON. Exit 0 when the flow reached the callback redirect (and, with
// --wait, a decision was read), 1 when something failed, 2 on a usage error.
//
// Order matters because the verification link is one-time and valid 10 s (docs/api-reference.md
// §8): every argument is checked and the media are prepared (faces, document photos) before the
// session is created or the link opened, so a failure up to then leaves the session untouched.
// After the link is used, a failure is one line naming the step (never a stack trace).
import { parseArgs } from 'node:util';
import { type Config, ConfigError, parseConfig } from '../config.ts';
import { DOCUMENT_TYPES, type DocumentType } from '../synth/document-record.ts';
import { FlowStepRefused, HostedFlowClient } from './hosted-flow-client.ts';
import {
  documentTypesForName,
  isPersona,
  PERSONAS,
  type Persona,
  type PresentedIdentity,
} from './personas.ts';
import { type SessionDetail, TenantApiClient, TenantApiRefused } from './tenant-api-client.ts';

const usage = `usage: mimoto simulate --persona P --api-key KEY --callback-url URL [options]
       mimoto simulate --persona P --url VERIFICATION_URL [options]

Plays an end user through a verification session's hosted flow, headlessly, through the same
HTTP endpoints the browser uses, with synthetic documents and faces, at a person's pace (about
20 s). With --api-key and --callback-url it first creates the session on the service, as your
server would, and opens its one-time link at once (the link is valid 10 s).

session:
  --api-key KEY          a tenant API key (mmt_test_…): creates the session; with --wait, reads its result
  --callback-url URL     the session's callbackUrl (on the tenant's allow list). The user's browser
                         is sent there (GET ?sessionId=…&state=…) and the result webhook is POSTed there
  --state S              the session's state, returned in the callback redirect
  --pre-registered       send the persona's name, birth date and address as the session's
                         preRegisteredInfo (with the identity flags below: those values)
  --base-url URL         the service (default MIMOTO_PUBLIC_URL, else http://127.0.0.1:8080)
  --url URL              instead of creating one: the verificationUrl of a session created
                         elsewhere, used within 10 s of its creation (media are prepared first)

persona:
  --persona P            ${PERSONAS.join(' | ')}
  --seed N               integer seed of the made-up person and media (default 1)
  --document-type T      ${DOCUMENT_TYPES.join(' | ')}
                         (default: the seed's pick among the tenant's allowed types)
  --last-name NAME       the name the persona presents: printed on its document and typed into
  --first-name NAME      the form. Kanji for a Japanese national's document (drivers_license,
                         my_number_card, passport), Latin letters for a residence_card; without
                         --document-type, the document follows the name
  --last-name-kana K     its reading as typed into the form (hiragana or katakana)
  --first-name-kana K
  --birth-date DATE      YYYY-MM-DD
  --address A            the address on the document and in the form
  --lang ja|en           language of the server's messages (default en)

result:
  --wait                 wait for the decision (needs --api-key) and print its status and reason
  --timeout SECONDS      how long --wait waits (default 300)
  --json                 one JSON line on stdout (progress on stderr); on failure
                         {"sessionId","linkUsed","error":{"step","status","code","message"}}

The webhook's delivery status is not part of the tenant API: see the console's Webhooks page
(tenant admin) or 'mimoto webhooks list --session ID' on the service.
`;

const WEBHOOK_DELIVERY_NOTE =
  "not part of the tenant API: the console's Webhooks page (tenant admin) or 'mimoto webhooks list --session ID' on the service";

class UsageError extends Error {
  override name = 'SimulateUsageError';
}

/** A failure that is not a server's answer (no decision in time, a session that expired). */
class SimulationFailed extends Error {
  override name = 'SimulationFailed';
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(message);
  }
}

interface Arguments {
  persona: Persona;
  seed: number;
  documentType: DocumentType | undefined;
  presented: PresentedIdentity;
  language: 'ja' | 'en';
  json: boolean;
  wait: boolean;
  timeoutMs: number;
  /** Create the session (api-key mode) or use a link made elsewhere (url mode). */
  session:
    | { kind: 'create'; callbackUrl: string; state: string | undefined; preRegistered: boolean }
    | { kind: 'url'; url: string };
  api: TenantApiClient | null;
}

/** As the API's own text fields (session.schemas.ts): no C0/C1 control characters. */
function hasControlCharacters(value: string): boolean {
  return [...value].some((c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
}

function text(values: Record<string, unknown>, name: string, maxLength: number): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const trimmed = String(value).trim();
  if (trimmed === '' || trimmed.length > maxLength || hasControlCharacters(trimmed)) {
    throw new UsageError(`--${name} must be 1 to ${maxLength} characters, without control characters`);
  }
  return trimmed;
}

function httpUrl(value: unknown, name: string): string {
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new UsageError(`--${name} must be an absolute URL`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${name} must be http(s)`);
  return value;
}

function isRealPastDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && date < new Date();
}

function parseArguments(args: string[], readConfig: () => Config): Arguments {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        'api-key': { type: 'string' },
        'callback-url': { type: 'string' },
        state: { type: 'string' },
        'pre-registered': { type: 'boolean' },
        'base-url': { type: 'string' },
        url: { type: 'string' },
        persona: { type: 'string' },
        seed: { type: 'string' },
        'document-type': { type: 'string' },
        'last-name': { type: 'string' },
        'first-name': { type: 'string' },
        'last-name-kana': { type: 'string' },
        'first-name-kana': { type: 'string' },
        'birth-date': { type: 'string' },
        address: { type: 'string' },
        lang: { type: 'string' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  const persona = String(values.persona ?? '');
  if (!isPersona(persona)) throw new UsageError(`--persona must be one of ${PERSONAS.join(', ')}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!/^-?\d+$/.test(String(values.seed ?? '1')) || !Number.isSafeInteger(seed))
    throw new UsageError('--seed must be an integer');
  const documentType = values['document-type'];
  if (documentType !== undefined && !(DOCUMENT_TYPES as readonly unknown[]).includes(documentType)) {
    throw new UsageError(`--document-type must be one of ${DOCUMENT_TYPES.join(', ')}`);
  }
  const language = values.lang ?? 'en';
  if (language !== 'ja' && language !== 'en') throw new UsageError('--lang must be ja or en');

  const presented: PresentedIdentity = {};
  const lastName = text(values, 'last-name', 100);
  const firstName = text(values, 'first-name', 100);
  const lastNameKana = text(values, 'last-name-kana', 100);
  const firstNameKana = text(values, 'first-name-kana', 100);
  const address = text(values, 'address', 300);
  if (lastName) presented.lastName = lastName;
  if (firstName) presented.firstName = firstName;
  for (const [name, kana] of [
    ['last-name-kana', lastNameKana],
    ['first-name-kana', firstNameKana],
  ] as const) {
    if (kana !== undefined && !/^[\u3041-\u3096\u30A1-\u30FA\u30FC\u30FB\u3000 ー]+$/.test(kana)) {
      throw new UsageError(`--${name} must be written in hiragana or katakana`);
    }
  }
  if (lastNameKana) presented.lastNameKana = lastNameKana;
  if (firstNameKana) presented.firstNameKana = firstNameKana;
  if (values['birth-date'] !== undefined) {
    const birthDate = String(values['birth-date']);
    if (!isRealPastDate(birthDate)) throw new UsageError('--birth-date must be a real past date, YYYY-MM-DD');
    presented.birthDate = birthDate;
  }
  if (address) presented.address = address;
  const nameDocuments = documentTypesForName(presented);
  if (nameDocuments.length === 0) {
    throw new UsageError(
      '--last-name and --first-name: both in Latin letters (a residence card) or both not',
    );
  }
  if (documentType !== undefined && !nameDocuments.includes(documentType as DocumentType)) {
    throw new UsageError(
      `a ${documentType} does not print that name; ${nameDocuments.join(', ')} would (kanji on a Japanese document, Latin letters on a residence card)`,
    );
  }

  const wait = values.wait === true;
  const timeoutSeconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > 86_400) {
    throw new UsageError('--timeout must be a number of seconds from 1 to 86400');
  }

  const apiKey = text(values, 'api-key', 200);
  const url = values.url;
  let session: Arguments['session'];
  let baseUrl: string | undefined =
    values['base-url'] === undefined
      ? undefined
      : httpUrl(values['base-url'], 'base-url').replace(/\/+$/, '');
  if (url !== undefined) {
    for (const flag of ['callback-url', 'state', 'pre-registered'] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} is for a session simulate creates; --url names one created already`);
    }
    session = { kind: 'url', url: httpUrl(url, 'url') };
    baseUrl ??= new URL(session.url).origin;
  } else {
    if (!apiKey) throw new UsageError('give --api-key KEY --callback-url URL (or --url VERIFICATION_URL)');
    if (values['callback-url'] === undefined) throw new UsageError('--callback-url is needed with --api-key');
    session = {
      kind: 'create',
      callbackUrl: httpUrl(values['callback-url'], 'callback-url'),
      state: text(values, 'state', 512),
      preRegistered: values['pre-registered'] === true,
    };
    if (baseUrl === undefined) {
      try {
        baseUrl = readConfig().publicUrl;
      } catch (error) {
        if (error instanceof ConfigError)
          throw new UsageError(`${error.problems.join('; ')} (or give --base-url)`);
        throw error;
      }
    }
  }
  if (wait && !apiKey) throw new UsageError('--wait reads the decision through the API: give --api-key');

  return {
    persona,
    seed,
    documentType: documentType as DocumentType | undefined,
    presented,
    language,
    json: values.json === true,
    wait,
    timeoutMs: timeoutSeconds * 1000,
    session,
    api: apiKey ? new TenantApiClient(baseUrl, apiKey) : null,
  };
}

/** Polls GET detail until a decision exists, or the session ended without one. */
async function waitForDecision(
  api: TenantApiClient,
  sessionId: string,
  timeoutMs: number,
): Promise<SessionDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = await api.getSession(sessionId);
    if (detail.verification?.decision) return detail;
    if (detail.status === 'failed' || detail.status === 'expired') {
      throw new SimulationFailed(
        'wait for the decision',
        `the session ended ${detail.status} without a decision`,
      );
    }
    if (Date.now() >= deadline) {
      throw new SimulationFailed(
        'wait for the decision',
        `no decision within ${Math.round(timeoutMs / 1000)} s (session ${detail.status}, verification ${detail.verification?.status ?? 'none'}); are the service's workers running?`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export async function simulateCommand(
  args: string[],
  output: CommandOutput = process,
  readConfig: () => Config = () => parseConfig(),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.stdout.write(usage);
    return 0;
  }
  const wantsJson = args.includes('--json');
  let parsed: Arguments;
  try {
    parsed = parseArguments(args, readConfig);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr.write(`mimoto simulate: ${error.message}\n(mimoto simulate --help for the options)\n`);
    if (wantsJson) {
      const failure = { step: 'arguments', status: 0, code: 'UsageError', message: error.message };
      output.stdout.write(`${JSON.stringify({ sessionId: null, linkUsed: false, error: failure })}\n`);
    }
    return 2;
  }

  const progress = parsed.json ? output.stderr : output.stdout;
  const log = (line: string) => progress.write(`${line}\n`);
  let sessionId: string | null = null;
  let linkUsed = false;
  let phase = 'prepare the media';
  try {
    // Before any session is touched: the media generator, the persona's faces and documents.
    log(`preparing the ${parsed.persona} persona's media (seed ${parsed.seed})`);
    const { prepareSimulation, simulateFlow } = await import('./simulate-flow.ts');
    const prepared = await prepareSimulation({
      persona: parsed.persona,
      seed: parsed.seed,
      ...(parsed.documentType ? { documentType: parsed.documentType } : {}),
      presented: parsed.presented,
    });
    const identity = prepared.media.personalData;

    let url: string;
    phase = 'create the session';
    if (parsed.session.kind === 'create') {
      const api = parsed.api as TenantApiClient;
      const created = await api.createSession({
        callbackUrl: parsed.session.callbackUrl,
        ...(parsed.session.state ? { state: parsed.session.state } : {}),
        ...(parsed.session.preRegistered
          ? {
              preRegisteredInfo: {
                lastName: identity.lastName,
                firstName: identity.firstName,
                birthDate: identity.birthDate,
                address: identity.address,
              },
            }
          : {}),
      });
      sessionId = created.sessionId;
      url = created.verificationUrl;
      log(`created session ${sessionId} on ${api.baseUrl}`);
    } else {
      url = parsed.session.url;
      sessionId = new URL(url).searchParams.get('sessionId');
    }

    phase = 'complete the flow';
    const client = await HostedFlowClient.enter(url, parsed.language);
    linkUsed = true;
    const result = await simulateFlow({
      url,
      client,
      persona: parsed.persona,
      prepared,
      language: parsed.language,
      // A person's pace: the server's fraud check flags flows faster than anyone could do them.
      pace: 'human',
      log,
    });
    sessionId = result.sessionId;
    log(
      `done in ${(result.durationMs / 1000).toFixed(1)} s: liveness ${result.liveness.status} after ${result.liveness.attempts.length} attempt(s)`,
    );
    const summary: Record<string, unknown> = {
      sessionId: result.sessionId,
      redirectedTo: result.redirectedTo,
      persona: result.persona,
      seed: result.seed,
      documentType: result.documentType,
      liveness: result.liveness.status,
    };
    if (!parsed.json) output.stdout.write(`redirected to ${result.redirectedTo}\n`);

    if (parsed.wait) {
      phase = 'wait for the decision';
      log(`waiting for the decision (at most ${Math.round(parsed.timeoutMs / 1000)} s)`);
      const detail = await waitForDecision(parsed.api as TenantApiClient, result.sessionId, parsed.timeoutMs);
      const v = detail.verification!;
      const decision = v.decision!;
      Object.assign(summary, {
        sessionStatus: detail.status,
        decision: { status: decision.status, reason: decision.reason },
        ...(v.preRegisteredInfoMatch ? { preRegisteredInfoMatch: v.preRegisteredInfoMatch } : {}),
        ...(v.userInputMatch === undefined ? {} : { userInputMatch: v.userInputMatch }),
        webhook: { deliveryStatus: null, note: WEBHOOK_DELIVERY_NOTE },
      });
      if (!parsed.json) {
        output.stdout.write(`decision: ${decision.status} (${decision.reason}); session ${detail.status}\n`);
        if (v.preRegisteredInfoMatch)
          output.stdout.write(`preRegisteredInfoMatch: ${JSON.stringify(v.preRegisteredInfoMatch)}\n`);
        output.stdout.write(`webhook delivery status: ${WEBHOOK_DELIVERY_NOTE}\n`);
      }
    }
    if (parsed.json) output.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  } catch (error) {
    const failure = describeFailure(error, parsed, phase);
    const where = linkUsed
      ? sessionId
        ? ` (the link of ${sessionId} was used: the session stays as far as it got)`
        : ''
      : sessionId
        ? ` (session ${sessionId} untouched)`
        : ' (no session was touched)';
    output.stderr.write(`mimoto simulate: ${failure.step}: ${failure.message}${where}\n`);
    if (parsed.json) output.stdout.write(`${JSON.stringify({ sessionId, linkUsed, error: failure })}\n`);
    return 1;
  }
}

function describeFailure(
  error: unknown,
  parsed: Arguments,
  phase: string,
): { step: string; status: number; code: string | null; message: string } {
  if (error instanceof FlowStepRefused || error instanceof TenantApiRefused) {
    const hint =
      error instanceof FlowStepRefused && error.status === 410
        ? ': the link was used already or has expired (it is one-time and valid 10 s); let simulate create the session (--api-key, --callback-url)'
        : '';
    return {
      step: error.step,
      status: error.status,
      code: error.code,
      // The link pages are HTML for people; the 410's meaning is said here in one line instead.
      message: `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}${hint ? '' : error.serverMessage ? `: ${error.serverMessage}` : ''}${hint}`,
    };
  }
  if (error instanceof SimulationFailed)
    return { step: error.step, status: 0, code: null, message: error.message };
  // fetch reports an unreachable server as TypeError('fetch failed') with the reason as its cause.
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const target =
      parsed.api?.baseUrl ?? (parsed.session.kind === 'url' ? new URL(parsed.session.url).origin : '');
    const cause = (error as Error & { cause?: Error }).cause?.message ?? error.message;
    return { step: 'connect', status: 0, code: null, message: `cannot reach ${target}: ${cause}` };
  }
  return {
    step: phase,
    status: 0,
    code: null,
    message: error instanceof Error ? error.message : String(error),
  };
}
