// The data groups the service reads (ICAO 9303 Part 10 §4.7): DG1, the MRZ as printed (tag 61
// around 5F1F), parsed by the `mrz` package the OCR's MRZ reader builds on — without the reader's
// look-alike corrections, since a chip's bytes are exact —; DG2, the face (tag 75, biometric
// information template 7F61/7F60, data block 5F2E or 7F2E holding an ISO/IEC 19794-5 record).
import { parse } from 'mrz';
import { children, type DerNode, parseDer } from './der.ts';

export class DataGroupFormatError extends Error {
  override name = 'DataGroupFormatError';
}

export interface ChipMrz {
  format: 'TD1' | 'TD2' | 'TD3';
  lines: string[];
  valid: boolean;
  documentCode: string | null;
  issuingState: string | null;
  documentNumber: string | null;
  lastName: string | null;
  firstName: string | null;
  /** YYMMDD as in the MRZ. */
  birthDate: string | null;
  expiryDate: string | null;
  nationality: string | null;
  sex: string | null;
}

const LAYOUTS: Readonly<Record<number, [ChipMrz['format'], number]>> = {
  90: ['TD1', 30],
  72: ['TD2', 36],
  88: ['TD3', 44],
};

function inner(bytes: Buffer, tag: number, what: string): DerNode {
  let outer: DerNode;
  try {
    outer = parseDer(bytes);
  } catch (error) {
    throw new DataGroupFormatError(`${what} is malformed: ${(error as Error).message}`);
  }
  if (outer.tag !== tag)
    throw new DataGroupFormatError(`${what} does not start with tag ${tag.toString(16)}`);
  return outer;
}

export function parseDg1(bytes: Buffer): ChipMrz {
  const outer = inner(bytes, 0x61, 'DG1');
  let data: DerNode | undefined;
  try {
    data = children(outer, 4).find((c) => c.tag === 0x5f1f);
  } catch {
    data = undefined;
  }
  if (!data) throw new DataGroupFormatError('DG1 holds no MRZ (tag 5F1F)');
  const text = data.value.toString('latin1');
  const layout = LAYOUTS[text.length];
  if (!layout || !/^[A-Z0-9<]+$/.test(text))
    throw new DataGroupFormatError('DG1 MRZ is not 90, 72 or 88 MRZ characters');
  const [format, width] = layout;
  const lines = text.match(new RegExp(`.{${width}}`, 'g')) as string[];
  let parsed: ReturnType<typeof parse> | undefined;
  try {
    parsed = parse(lines);
  } catch {
    parsed = undefined;
  }
  const f = parsed?.fields;
  return {
    format,
    lines,
    valid: parsed?.valid ?? false,
    documentCode: f?.documentCode ?? null,
    issuingState: f?.issuingState ?? null,
    documentNumber: f?.documentNumber ?? null,
    lastName: f?.lastName ?? null,
    firstName: f?.firstName ?? null,
    birthDate: f?.birthDate ?? null,
    expiryDate: f?.expirationDate ?? null,
    nationality: f?.nationality ?? null,
    sex: f?.sex ?? null,
  };
}

export interface ChipFace {
  format: 'jpeg' | 'jpeg2000';
  image: Buffer;
}

/** ISO/IEC 19794-5:2005 §5.4–5.7: general header, facial information, feature points, image information. */
function faceImage(block: Buffer): ChipFace {
  if (block.subarray(0, 4).toString('latin1') !== 'FAC\0')
    throw new DataGroupFormatError('DG2 biometric data is not an ISO/IEC 19794-5 record');
  const header = 14;
  if (block.length < header + 20 + 12) throw new DataGroupFormatError('DG2 face record truncated');
  const featurePoints = block.readUInt16BE(header + 4);
  const imageInfo = header + 20 + featurePoints * 8;
  if (block.length < imageInfo + 12) throw new DataGroupFormatError('DG2 face record truncated');
  const dataType = block[imageInfo + 1];
  const image = block.subarray(imageInfo + 12);
  if (dataType === 0 && image[0] === 0xff && image[1] === 0xd8) return { format: 'jpeg', image };
  if (dataType === 1) return { format: 'jpeg2000', image };
  throw new DataGroupFormatError('DG2 face image is neither JPEG nor JPEG 2000');
}

/** The first face image DG2 holds. */
export function parseDg2(bytes: Buffer): ChipFace {
  const outer = inner(bytes, 0x75, 'DG2');
  try {
    const group = children(outer, 4).find((c) => c.tag === 0x7f61);
    const template = group && children(group, 16).find((c) => c.tag === 0x7f60);
    const block = template && children(template, 8).find((c) => c.tag === 0x5f2e || c.tag === 0x7f2e);
    if (!block) throw new DataGroupFormatError('DG2 holds no biometric data block');
    return faceImage(block.value);
  } catch (error) {
    if (error instanceof DataGroupFormatError) throw error;
    throw new DataGroupFormatError(`DG2 is malformed: ${(error as Error).message}`);
  }
}
