// `mimoto simulate` as a function: one session's hosted flow, completed through
// the same HTTP endpoints the browser app uses (docs/hosted-flow-api.md "Order of steps"), by a
// persona whose media come from the synthetic corpus generator. The server decides everything:
// a refused step ends the run with FlowStepRefused; a failed face check goes on as the server
// allows (3 attempts, then recorded as failed) and is reported.
import sharp from 'sharp';
import { isLivenessStep } from '../liveness/index.ts';
import { DOCUMENT_TYPES, type DocumentType, hasBackSide, Random } from '../synth/index.ts';
import { FlowStepRefused, HostedFlowClient, type LivenessAttemptAnswer } from './hosted-flow-client.ts';
import {
  documentTypesForName,
  type Persona,
  type PersonaMedia,
  type PresentedIdentity,
  preparePersonaMedia,
} from './persona-media.ts';

/** Refusals a person answers by taking the photo again (docs/hosted-flow-api.md, 422). */
const RETAKE_CODES = new Set([
  'ImageBlurred',
  'ImageGlare',
  'DocumentNotFound',
  'ImageTooSmall',
  'DocumentTilted',
  'DocumentTooFar',
  'DocumentUnreadable',
  // Told no document can be seen, a person holding one takes the photo again.
  'DocumentNotRecognised',
]);
const MAX_TAKES = 3;

/**
 * A person's pace (pace 'human'): the server's fraud check rightly flags a flow finished faster
 * than anyone photographs a card, turns their head and types their data (capture_too_fast under
 * 15 s, liveness_too_fast under 2 s, src/checks/fraud-signals). The genuine persona is a person,
 * so it takes at least this long: frames ~0.3 s apart as a browser captures held poses, and the
 * whole flow at least 20 s from the link to the submission.
 */
const HUMAN_FRAME_INTERVAL_MS = 300;
const HUMAN_FLOW_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface SimulateOptions {
  /** The session's verificationUrl (its origin is where every request goes). */
  url: string;
  /** The flow already entered through `url` (HostedFlowClient.enter), else it is entered here. */
  client?: HostedFlowClient;
  persona: Persona;
  seed?: number;
  /** Default: drawn with the seed, among the tenant's allowed types. */
  documentType?: DocumentType;
  /** The name and birth date the persona presents instead of the seed's (persona-media.ts). */
  presented?: PresentedIdentity;
  /** What prepareSimulation made before the link was opened; else it is made here, still before. */
  prepared?: PreparedSimulation;
  /** Accept-Language of every request (the server's messages follow it). */
  language?: 'ja' | 'en';
  /** One line per thing that happened (progress for people). */
  log?: (line: string) => void;
  /**
   * 'human': no faster than a person (see HUMAN_FLOW_MS), what `mimoto simulate` does; 'fast'
   * (default): as fast as the machine, for tests and load benchmarks of the flow itself.
   */
  pace?: 'human' | 'fast';
}

export interface SimulationResult {
  sessionId: string;
  redirectedTo: string;
  persona: Persona;
  seed: number;
  documentType: DocumentType;
  documentPerson: string;
  facePerson: string;
  documentUploads: { side: 'front' | 'back'; take: number; accepted: boolean; refusal: string | null }[];
  liveness: {
    status: 'success' | 'failed' | 'pending';
    attempts: { steps: string[]; answer: LivenessAttemptAnswer }[];
  };
  durationMs: number;
}

function isDocumentType(value: string): value is DocumentType {
  return (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** The type a seed picks among `types` when none was asked for (the same pick before and after the link). */
function seededDocumentType(seed: number, types: readonly DocumentType[]): DocumentType {
  return new Random(`simulate:${seed}:document-type`).pick(types);
}

/**
 * Everything that can be made before the one-time link is opened: the persona's identity, faces
 * and document, and the first photo of each side, rendered. A failure here (missing face photos,
 * fonts, models) leaves the session untouched. What cannot be made before is made in the flow:
 * retakes after a refusal, and the liveness frames, which answer the steps the server draws.
 */
export interface PreparedSimulation {
  persona: Persona;
  seed: number;
  presented: PresentedIdentity;
  /** The type asked for, or the seed's pick among all types (the tenant's list is seen only inside the flow). */
  documentType: DocumentType;
  /** Whether `documentType` was asked for (then it is not swapped for an allowed one). */
  isDocumentTypeChosen: boolean;
  media: PersonaMedia;
}

export async function prepareSimulation(options: {
  persona: Persona;
  seed?: number;
  documentType?: DocumentType;
  presented?: PresentedIdentity;
}): Promise<PreparedSimulation> {
  const seed = options.seed ?? 1;
  const presented = options.presented ?? {};
  const candidates = documentTypesForName(presented);
  if (candidates.length === 0)
    throw new Error('the last and first names must both be in Latin letters, or neither');
  if (options.documentType && !candidates.includes(options.documentType)) {
    throw new Error(
      `a ${options.documentType} does not print that name; ${candidates.join(', ')} would (kanji on a Japanese document, Latin letters on a residence card)`,
    );
  }
  const documentType = options.documentType ?? seededDocumentType(seed, candidates);
  const media = await preparePersonaMediaWithFirstTakes(options.persona, seed, documentType, presented);
  return {
    persona: options.persona,
    seed,
    presented,
    documentType,
    isDocumentTypeChosen: options.documentType !== undefined,
    media,
  };
}

/** The persona's media with the first photo of every side already rendered (and kept). */
async function preparePersonaMediaWithFirstTakes(
  persona: Persona,
  seed: number,
  documentType: DocumentType,
  presented: PresentedIdentity,
): Promise<PersonaMedia> {
  const media = await preparePersonaMedia(persona, seed, documentType, undefined, undefined, presented);
  const sides = hasBackSide(documentType) ? (['front', 'back'] as const) : (['front'] as const);
  const firstTakes = new Map<string, Awaited<ReturnType<PersonaMedia['photographSide']>>>();
  for (const side of sides) firstTakes.set(side, await media.photographSide(side, 0));
  return {
    ...media,
    photographSide: async (side, take) =>
      (take === 0 && firstTakes.get(side)) || media.photographSide(side, take),
  };
}

export async function simulateFlow(options: SimulateOptions): Promise<SimulationResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

  const prepared =
    options.prepared ??
    (await prepareSimulation({
      persona: options.persona,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.documentType ? { documentType: options.documentType } : {}),
      ...(options.presented ? { presented: options.presented } : {}),
    }));
  const seed = prepared.seed;
  const client = options.client ?? (await HostedFlowClient.enter(options.url, options.language ?? 'en'));
  const state = await client.state();
  const sessionId = state.sessionId;
  log(`entered the flow of ${sessionId} (${state.status})`);
  if (state.steps.submitted)
    throw new FlowStepRefused('enter', 409, null, 'the session was already submitted');

  const allowed = state.allowedDocumentTypes.filter(isDocumentType);
  let media = prepared.media;
  let documentType = prepared.documentType;
  if (!allowed.includes(documentType)) {
    if (prepared.isDocumentTypeChosen || allowed.length === 0) {
      throw new FlowStepRefused(
        'document type',
        0,
        'DocumentTypeNotAllowed',
        `${documentType} is not among the tenant's document types (${allowed.join(', ') || 'none'})`,
      );
    }
    // The seed's pick is not one the tenant takes: pick again among those it takes. Everything
    // this needs (faces, models, fonts) was loaded and used in the preparation.
    const usable = allowed.filter((t) => documentTypesForName(prepared.presented).includes(t));
    if (usable.length === 0) {
      throw new FlowStepRefused(
        'document type',
        0,
        'DocumentTypeNotAllowed',
        `the tenant takes ${allowed.join(', ')}, none of which prints the name given`,
      );
    }
    documentType = seededDocumentType(seed, usable);
    media = await preparePersonaMedia(
      prepared.persona,
      seed,
      documentType,
      undefined,
      undefined,
      prepared.presented,
    );
  }
  log(
    `persona ${prepared.persona} (seed ${seed}): ${documentType} of ${media.documentPerson}, face of ${media.facePerson}`,
  );

  await client.giveConsent();
  log('consent given');
  await client.chooseDocumentType(documentType);
  log(`document type: ${documentType}`);

  const documentUploads: SimulationResult['documentUploads'] = [];
  const sides = hasBackSide(documentType) ? (['front', 'back'] as const) : (['front'] as const);
  for (const side of sides) {
    for (let take = 0; ; take++) {
      const photo = await media.photographSide(side, take);
      try {
        const stored = await client.uploadDocument(side, photo.jpeg);
        documentUploads.push({ side, take, accepted: true, refusal: null });
        log(
          `${side}: accepted, ${photo.description}, stored ${stored.width}×${stored.height} (${elapsed()})`,
        );
        break;
      } catch (error) {
        if (!(error instanceof FlowStepRefused) || !RETAKE_CODES.has(error.code ?? '')) throw error;
        documentUploads.push({ side, take, accepted: false, refusal: error.code });
        log(
          `${side}: refused by the server's quality gate: ${error.code} — ${error.serverMessage} (${photo.description})`,
        );
        if (take + 1 >= MAX_TAKES) throw error;
        log(`${side}: taking the photo again`);
      }
    }
  }

  const attempts: SimulationResult['liveness']['attempts'] = [];
  let livenessStatus: SimulationResult['liveness']['status'] = state.steps.liveness.status;
  while (livenessStatus === 'pending') {
    const challenge = await client.requestChallenge();
    const steps = challenge.steps.filter(isLivenessStep);
    log(`liveness challenge ${attempts.length + 1}: ${challenge.steps.join(' → ')}`);
    // Timestamps are when each frame was captured (rendered), as the browser records them.
    const captureStart = performance.now();
    const timestamps: number[] = [];
    const human = options.pace === 'human';
    const frames = await media.captureFrames(
      steps,
      (i) => {
        const t = Math.round(performance.now() - captureStart);
        timestamps.push(Math.max(t, (timestamps.at(-1) ?? -1) + 1, human ? i * HUMAN_FRAME_INTERVAL_MS : 0));
        return timestamps.at(-1) as number;
      },
      challenge.light?.colours,
    );
    // The frames are sent when the last one is captured, not before.
    await sleep((timestamps.at(-1) ?? 0) - (performance.now() - captureStart));
    // The camera as a browser reports it: a webcam's label and the size the frames are filmed at
    // (an injecting attacker reports an ordinary camera too; the screen light is what shows it).
    const { width = 0, height = 0 } = await sharp(frames[0]).metadata();
    const camera = { label: 'Integrated Camera (simulated)', width, height, frameRate: 30 };
    const answer = await client.sendLivenessAttempt(challenge.challengeId, timestamps, frames, camera);
    attempts.push({ steps: challenge.steps, answer });
    livenessStatus = answer.livenessStatus;
    log(
      answer.passed
        ? `liveness passed (confidence ${answer.confidence}, ${frames.length} frames) (${elapsed()})`
        : `liveness attempt failed: ${answer.failures.join(', ')}; ${answer.attemptsLeft} attempt(s) left${
            livenessStatus === 'failed' ? ' — recorded as failed, the flow goes on' : ''
          } (${elapsed()})`,
    );
  }

  await client.savePersonalData(media.personalData);
  log(
    `personal data: ${media.personalData.lastName} ${media.personalData.firstName}, born ${media.personalData.birthDate}`,
  );
  if (options.pace === 'human') await sleep(HUMAN_FLOW_MS - (performance.now() - started));
  const redirectedTo = await client.submit();
  log(`submitted (${elapsed()}); the browser would now go to ${redirectedTo}`);

  return {
    sessionId,
    redirectedTo,
    persona: prepared.persona,
    seed,
    documentType,
    documentPerson: media.documentPerson,
    facePerson: media.facePerson,
    documentUploads,
    liveness: { status: livenessStatus, attempts },
    durationMs: Math.round(performance.now() - started),
  };
}
