// The recognisers' answers to one reading of a photo (Tesseract's passes, the second recogniser's lines), kept so that reading the same photo again does not
// ask again. The capture check reads each front as the pipeline's OCR check later does (same photo
// as stored, same check, same version): it records every pass it makes, keyed by the pass's exact
// input (the crop's bytes, the languages, the options), and the pipeline's run replays them, asking
// Tesseract only for what is new — the back, and any pass the capture did not make. The check's
// steps are the same code on the same pixels, so a replayed pass is the pass it would have made: the
// result is the one a fresh reading gives (the read budget counts passes, not time).
import { createHash } from 'node:crypto';
import {
  createOcrCheck,
  type DocumentGeometry,
  getOcrEngineFor,
  OCR_CHECK_VERSION,
  type OcrCheckInput,
  type OcrCheckResult,
} from '../checks/ocr/index.ts';

type Engine = Awaited<ReturnType<typeof getOcrEngineFor>>;
type Recognition = Awaited<ReturnType<Engine['recognize']>>;

/** What a capture recorded, with what it was recorded on: replayed only on the same photo and version. */
export interface OcrAnswers {
  /** SHA-256 (hex) of the photo read, as stored. */
  imageSha256: string;
  checkVersion: string;
  expectedDocumentType: string;
  /** Pass key → Tesseract's answer. */
  passes: Record<string, Recognition>;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function passKey(languages: readonly string[], method: string, image: Buffer, options: unknown): string {
  return sha256(`${languages.join('+')}\n${method}\n${sha256(image)}\n${JSON.stringify(options ?? {})}`);
}

/** `engine`, answering from `replay` when it holds the pass, and noting each answer in `record`. */
function answeringEngine(
  engine: Engine,
  languages: readonly string[],
  replay: Record<string, Recognition>,
  record: Record<string, Recognition>,
  tally: { replayed: number; asked: number },
): Engine {
  const pass =
    (method: 'recognize' | 'readLines' | 'secondOpinion') =>
    async (image: Buffer, options?: object): Promise<Recognition> => {
      const key = passKey(languages, method, image, options);
      const known = replay[key];
      if (known) {
        tally.replayed++;
        record[key] = known;
        return structuredClone(known);
      }
      tally.asked++;
      const answer = await (engine[method] as (i: Buffer, o?: object) => Promise<Recognition>)(
        image,
        options,
      );
      record[key] = structuredClone(answer);
      return answer;
    };
  // The engine's other members (model, health, threads, terminate) are the engine's own.
  return new Proxy(engine, {
    get(target, property, receiver) {
      if (property === 'recognize') return pass('recognize');
      if (property === 'readLines') return pass('readLines');
      if (property === 'secondOpinion' && target.secondOpinion) return pass('secondOpinion');
      return Reflect.get(target, property, receiver);
    },
  });
}

export interface AnsweredOcrRun {
  outcome: OcrCheckResult;
  /** Every pass this run made, replayed or asked: what a later run of the same photo can replay. */
  answers: OcrAnswers;
  replayed: number;
  asked: number;
}

/**
 * One OCR check run on `input`, replaying the passes of `previous` when it was recorded on the
 * same front photo, by this version, for the same chosen type; `previous` of another photo or
 * version is ignored (the run asks Tesseract for everything).
 */
export async function runOcrWithAnswers(
  input: OcrCheckInput,
  options: {
    geometry: DocumentGeometry;
    previous?: OcrAnswers | null;
    /** The engine asked for what is not replayed (default: the OCR's own). */
    engine?: (languages: Parameters<typeof getOcrEngineFor>[0]) => Promise<Engine>;
  },
): Promise<AnsweredOcrRun> {
  const engineFor = options.engine ?? getOcrEngineFor;
  const imageSha256 = sha256(input.front);
  const previous = options.previous;
  const usable =
    previous &&
    previous.imageSha256 === imageSha256 &&
    previous.checkVersion === OCR_CHECK_VERSION &&
    previous.expectedDocumentType === input.expectedDocumentType;
  const replay = usable ? previous.passes : {};
  const record: Record<string, Recognition> = {};
  const tally = { replayed: 0, asked: 0 };
  const check = createOcrCheck({
    geometry: options.geometry,
    engine: async (languages) =>
      answeringEngine(await engineFor(languages), languages, replay, record, tally),
  });
  const outcome = await check.run(input);
  return {
    outcome,
    answers: {
      imageSha256,
      checkVersion: OCR_CHECK_VERSION,
      expectedDocumentType: input.expectedDocumentType,
      passes: record,
    },
    ...tally,
  };
}
