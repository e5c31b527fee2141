// `mimoto inspect document|faces …`: the checks on image files, without a server or a database,
// for operators and for measurement. The JSON output is a stable contract: the OCR and spoof
// check objects are exactly what the API returns (interface §2.6, §2.9).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHECKS, type CheckDefinition } from '../checks/index.ts';
import { terminateOcrEngine } from '../checks/ocr/index.ts';
import { resolveThresholds } from '../decision/index.ts';
import {
  assertReadableImage,
  DOCUMENT_TYPES,
  type DocumentInspection,
  type DocumentType,
  engineInThisThread,
  type InspectedCheck,
  inspectDocument,
  inspectFaces,
  inspectRegisteredChecks,
  UnreadableImageFileError,
} from './inspect.ts';
import type { CommandOutput } from './operator-commands.ts';

const usage = `usage:
  mimoto inspect document --type TYPE --front FILE [--back FILE] [--reference-date YYYY-MM-DD] [--json]
  mimoto inspect faces FILE_A FILE_B [--type TYPE] [--json]
  mimoto inspect selfie FILE [--json]
  mimoto inspect chip --sod FILE --dg1 FILE [--dg2 FILE] --csca FILE.pem [--csca …] [--json]

document: runs ocr and documentSpoofCheck as the pipeline does for a session of that document type
  and prints {ocr, fields, mrz, documentSpoofCheck}. TYPE: ${DOCUMENT_TYPES.join(', ')}
  (a passport, ID card or visa of any state with an MRZ: passport). --reference-date: the day
  the document is judged on (expiry; default today).
faces: faceMatch of FILE_A (the document side; with --type, a photo of that document whose printed
  portrait is cut out first) against FILE_B (the selfie), at the service's default thresholds;
  prints {similarity, isSamePerson, status, reason}.
selfie: selfieSpoofCheck on one still as the pipeline runs it (the live check given as passed);
  prints {risk, score, signals}: risk low|medium|high|unknown (unknown: no face to judge).
chip: Passive Authentication of an eMRTD's files against the CSCA certificates given, and DG1's
  MRZ (mimoto inspect chip --help).
Document and faces add a "checks" key when the check registry holds checks beyond its five built-in ones: each
  run through its definition when the command has what it declares ({result}), else {notRun: why}.
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

export function parse<T extends Options>(args: string[], options: T) {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return {
      values: values as { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string },
      positionals,
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function documentType(value: unknown): DocumentType {
  if (typeof value !== 'string' || !(DOCUMENT_TYPES as readonly string[]).includes(value))
    throw new UsageError(`--type must be one of ${DOCUMENT_TYPES.join(', ')}`);
  return value as DocumentType;
}

/** The file's bytes, decodable as an image, or one clear line on stderr (exit 1). */
export async function readImage(file: string, label: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : 'cannot be read';
    throw new UnreadableImageFileError(`${label} ${file}: ${why}`);
  }
  await assertReadableImage(bytes, `${label} ${file}`);
  return bytes;
}

const show = (v: string | null) => v ?? '—';

function documentSummary(r: DocumentInspection): string {
  const o = r.ocr;
  const s = r.documentSpoofCheck;
  const lines = [
    `ocr: ${o.status}${o.reason ? ` (${o.reason})` : ''}, confidence ${o.confidence ?? '—'}, detected ${o.detectedDocumentType ?? '—'}${o.detectedDocumentTypeConfidence !== undefined ? ` (${o.detectedDocumentTypeConfidence})` : ''}`,
    `  name:            ${show(r.fields.lastName)} ${show(r.fields.firstName)}`,
    `  birth date:      ${show(r.fields.birthDate)}`,
    `  address:         ${show(r.fields.address)}`,
    `  document number: ${show(r.fields.documentNumber)}`,
    `  expiry date:     ${show(r.fields.expiryDate)}`,
    r.mrz
      ? `mrz: ${r.mrz.format}, check digits ${r.mrz.valid ? 'valid' : 'INVALID'}\n${r.mrz.lines.map((l) => `  ${l}`).join('\n')}`
      : 'mrz: none read',
    `documentSpoofCheck: risk ${s.risk ?? '—'}, score ${s.score ?? '—'}, status ${s.status ?? '—'}${s.details ? `\n  ${s.details}` : ''}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** One line per registered check beyond the built-in ones; nothing when there is none. */
function checksSummary(checks: Record<string, InspectedCheck> | undefined): string {
  if (!checks) return '';
  return Object.entries(checks)
    .map(([id, c]) =>
      'result' in c ? `${id}: ${JSON.stringify(c.result)}\n` : `${id}: not run (${c.notRun})\n`,
    )
    .join('');
}

async function documentCommand(args: string[], registered: readonly CheckDefinition[]): Promise<string> {
  const { values, positionals } = parse(args, {
    type: { type: 'string' },
    front: { type: 'string' },
    back: { type: 'string' },
    'reference-date': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const type = documentType(values.type);
  if (typeof values.front !== 'string' || values.front === '')
    throw new UsageError('--front FILE is required');
  let referenceDate: Date | undefined;
  if (values['reference-date'] !== undefined) {
    const text = String(values['reference-date']);
    referenceDate = new Date(`${text}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(referenceDate.getTime()))
      throw new UsageError('--reference-date must be YYYY-MM-DD');
  }
  const front = await readImage(values.front, '--front');
  const back = typeof values.back === 'string' ? await readImage(values.back, '--back') : undefined;
  // The OCR's Tesseract threads would keep the process alive: stopped once read.
  const detail = await inspectDocument(engineInThisThread, {
    documentType: type,
    front,
    ...(back ? { back } : {}),
    ...(referenceDate ? { referenceDate } : {}),
  }).finally(terminateOcrEngine);
  const { inspection } = detail;
  // What the pipeline's runners would have stored for these two checks, for a check that waits for them.
  const checks = await inspectRegisteredChecks(
    {
      command: 'inspect document',
      inputs: {
        documentImages: { front, ...(back ? { back } : {}) },
        documentType: type,
        thresholds: { ...resolveThresholds(null) },
      },
      results: {
        ocr: { result: { ...inspection.ocr }, extras: { ...detail.ocrExtras } },
        documentSpoofCheck: {
          result: { ...inspection.documentSpoofCheck },
          extras: { measurements: detail.spoofMeasurements },
        },
      },
      now: referenceDate ?? new Date(),
    },
    registered,
  );
  return values.json
    ? `${JSON.stringify(checks ? { ...inspection, checks } : inspection)}\n`
    : documentSummary(inspection) + checksSummary(checks);
}

async function facesCommand(args: string[], registered: readonly CheckDefinition[]): Promise<string> {
  const { values, positionals } = parse(args, {
    type: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 2) throw new UsageError('give two picture files: FILE_A FILE_B');
  const type = values.type === undefined ? null : documentType(values.type);
  const [fileA, fileB] = positionals as [string, string];
  const a = await readImage(fileA, 'FILE_A');
  const b = await readImage(fileB, 'FILE_B');
  const thresholds = resolveThresholds(null);
  const decided = await inspectFaces(engineInThisThread, {
    a,
    b,
    documentType: type,
    threshold: thresholds.faceSimilarityThreshold,
    nearThresholdBand: thresholds.faceNearThresholdBand,
  });
  const { similarity, isSamePerson, status, reason, ...extras } = decided;
  // FILE_A is a photo of a document only when its type is given.
  const checks = await inspectRegisteredChecks(
    {
      command: 'inspect faces',
      inputs: {
        referenceImage: b,
        thresholds: { ...thresholds },
        ...(type ? { documentImages: { front: a }, documentType: type } : {}),
      },
      results: { faceMatch: { result: { similarity, isSamePerson, status, reason }, extras } },
      now: new Date(),
    },
    registered,
  );
  if (values.json) {
    const printed = { similarity, isSamePerson, status, reason };
    return `${JSON.stringify(checks ? { ...printed, checks } : printed)}\n`;
  }
  return (
    `faceMatch: ${status}, similarity ${similarity.toFixed(3)} (threshold ${decided.threshold}, review band ±${decided.nearThresholdBand}), ${isSamePerson ? 'same person' : 'not the same person'}, ${reason}\n` +
    checksSummary(checks)
  );
}

/**
 * What `mimoto inspect …args` prints, the registry's checks being `registered` (a test declares
 * checks of its own). Throws UnreadableImageFileError, or a UsageError.
 */
export async function inspectOutput(
  args: string[],
  registered: readonly CheckDefinition[] = CHECKS,
): Promise<string> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h' || sub === 'help') return usage;
  if (sub === 'document') return documentCommand(rest, registered);
  if (sub === 'faces') return facesCommand(rest, registered);
  if (sub === 'selfie') return (await import('./inspect-selfie.ts')).selfieCommand(rest);
  if (sub === 'chip') return (await import('./inspect-chip.ts')).inspectChipOutput(rest);
  throw new UsageError(`inspect commands: document, faces, selfie, chip\n${usage}`);
}

export async function inspectCommand(args: string[], io: CommandOutput = process): Promise<number> {
  try {
    io.stdout.write(await inspectOutput(args));
    return 0;
  } catch (error) {
    if (error instanceof UnreadableImageFileError) {
      io.stderr.write(`mimoto inspect: ${error.message}\n`);
      return 1;
    }
    // Files a chip reading cannot be made of: exit 2, as `inspect chip` promises.
    if ((error as Error).name === 'ChipInputError') {
      io.stderr.write(`mimoto inspect chip: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}
