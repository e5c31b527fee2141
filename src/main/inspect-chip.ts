// `mimoto inspect chip`: Passive Authentication of an eMRTD's files as read from its chip (EF.SOD
// with its 77 tag, EF.DG1 with 61, optionally EF.DG2 with 75) against CSCA certificates given as
// PEM files, and DG1's MRZ. The JSON is a stable contract:
// {"passiveAuthentication": {valid, chainValid, signatureValid, dataGroups: {"1": bool, "2": bool}},
//  "mrz": {lines, valid} | null}. Exit 0 whether or not the files are valid; unusable input
// (a missing or oversized file, an SOD that is not one, no usable CSCA) is ChipInputError, exit 2.
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  CHIP_FILE_LIMITS,
  type ChipFileName,
  parseDg1,
  parseTrustAnchors,
  SodFormatError,
  TrustStoreError,
  UnsupportedAlgorithmError,
  verifyPassiveAuthentication,
} from '../chip/index.ts';

export class ChipInputError extends Error {
  override name = 'ChipInputError';
}

export const chipUsage = `usage:
  mimoto inspect chip --sod FILE --dg1 FILE [--dg2 FILE] --csca FILE.pem [--csca …] [--json]

chip: Passive Authentication of an eMRTD's files as read from its chip (EF.SOD, EF.DG1, EF.DG2):
  the SOD's signature by its Document Signer, the DS certificate chained to one of the CSCA
  certificates given (PEM, one or a bundle per file), each data group's hash; and DG1's MRZ.
  Prints {passiveAuthentication: {valid, chainValid, signatureValid, dataGroups}, mrz: {lines, valid} | null}.
  Revocation is not checked. Exit 0 whether or not valid, 2 for unusable input.
`;

function readLimited(file: string, label: string, limit: number): Buffer {
  try {
    const size = statSync(file).size;
    if (size > limit)
      throw new ChipInputError(`${label} ${file}: ${size} bytes, more than the ${limit} accepted`);
    return readFileSync(file);
  } catch (error) {
    if (error instanceof ChipInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : 'cannot be read';
    throw new ChipInputError(`${label} ${file}: ${why}`);
  }
}

export interface ChipInspection {
  passiveAuthentication: {
    valid: boolean;
    chainValid: boolean;
    signatureValid: boolean;
    dataGroups: Record<string, boolean>;
  };
  mrz: { lines: string[]; valid: boolean } | null;
}

export function inspectChip(args: string[], now = new Date()): { inspection: ChipInspection; json: boolean } {
  let values: { sod?: string; dg1?: string; dg2?: string; csca?: string[]; json?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        sod: { type: 'string' },
        dg1: { type: 'string' },
        dg2: { type: 'string' },
        csca: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ChipInputError(`${(error as Error).message}\n${chipUsage}`);
  }
  if (!values.sod) throw new ChipInputError('--sod FILE is required');
  if (!values.dg1) throw new ChipInputError('--dg1 FILE is required');
  if (!values.csca?.length) throw new ChipInputError('at least one --csca FILE.pem is required');
  const file = (name: ChipFileName, path: string) => readLimited(path, `--${name}`, CHIP_FILE_LIMITS[name]);
  const sod = file('sod', values.sod);
  const dataGroups: Record<number, Buffer> = { 1: file('dg1', values.dg1) };
  if (values.dg2) dataGroups[2] = file('dg2', values.dg2);
  const trustAnchors = values.csca.flatMap((path) => {
    const text = readLimited(path, '--csca', 1024 * 1024).toString('utf8');
    try {
      return parseTrustAnchors(text, `--csca ${path}`);
    } catch (error) {
      if (error instanceof TrustStoreError) throw new ChipInputError(error.message);
      throw error;
    }
  });
  let pa: ReturnType<typeof verifyPassiveAuthentication>;
  try {
    pa = verifyPassiveAuthentication({ sod, dataGroups, trustAnchors, now });
  } catch (error) {
    if (error instanceof SodFormatError || error instanceof UnsupportedAlgorithmError)
      throw new ChipInputError(`--sod ${values.sod}: ${error.message}`);
    throw error;
  }
  let mrz: ChipInspection['mrz'] = null;
  try {
    const read = parseDg1(dataGroups[1] as Buffer);
    mrz = { lines: read.lines, valid: read.valid };
  } catch {
    mrz = null;
  }
  return {
    json: values.json === true,
    inspection: {
      passiveAuthentication: {
        valid: pa.valid,
        chainValid: pa.chainValid,
        signatureValid: pa.signatureValid,
        dataGroups: pa.dataGroups,
      },
      mrz,
    },
  };
}

export function inspectChipOutput(args: string[]): string {
  if (args.includes('--help') || args.includes('-h')) return chipUsage;
  const { inspection, json } = inspectChip(args);
  if (json) return `${JSON.stringify(inspection)}\n`;
  const pa = inspection.passiveAuthentication;
  const yes = (b: boolean) => (b ? 'valid' : 'INVALID');
  return [
    `passive authentication: ${yes(pa.valid)}`,
    `  signature (Document Signer): ${yes(pa.signatureValid)}`,
    `  chain to a configured CSCA:  ${yes(pa.chainValid)}`,
    ...Object.entries(pa.dataGroups).map(([n, ok]) => `  DG${n} hash:                   ${yes(ok)}`),
    '  revocation:                  not checked',
    inspection.mrz
      ? `mrz: check digits ${inspection.mrz.valid ? 'valid' : 'INVALID'}\n${inspection.mrz.lines.map((l) => `  ${l}`).join('\n')}`
      : 'mrz: DG1 holds no readable MRZ',
    '',
  ].join('\n');
}
