// The chip's face (DG2, ISO/IEC 19794-5) as a picture the face checks read: a JPEG as it is, a JPEG
// 2000 (ISO/IEC 15444-1; what many issuers write) decoded by OpenJPEG compiled to WebAssembly
// (@cornerstonejs/codec-openjpeg: MIT, OpenJPEG BSD-2-Clause; the .wasm ships inside the npm
// package, nothing is downloaded) and re-encoded as JPEG by sharp. Both a bare codestream (FF4F…)
// and the JP2 file format (ISO/IEC 15444-1 Annex I: boxes, the codestream in `jp2c`) are read.
// The encoder is here too, for the software card of the tests: a real JPEG 2000 face.
import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { ChipFace } from './lds.ts';

export class FaceImageError extends Error {
  override name = 'FaceImageError';
}

/** The largest picture decoded: a passport face is ~ 480×640; this bounds memory for a hostile one. */
const MAX_PIXELS = 4096 * 4096;

interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
}
interface OpenJpegModule {
  J2KDecoder: new () => {
    getEncodedBuffer(length: number): Uint8Array;
    readHeader(): void;
    decode(): void;
    getFrameInfo(): FrameInfo;
    getDecodedBuffer(): Uint8Array;
    delete(): void;
  };
  J2KEncoder: new () => {
    getDecodedBuffer(info: FrameInfo): Uint8Array;
    setQuality(lossless: boolean, quality: number): void;
    encode(): void;
    getEncodedBuffer(): Uint8Array;
    delete(): void;
  };
}

let codec: Promise<OpenJpegModule> | undefined;
function openJpeg(): Promise<OpenJpegModule> {
  // The package's Emscripten module, its .wasm read from beside it; OpenJPEG's progress lines muted.
  codec ??= (async () => {
    const require = createRequire(import.meta.url);
    const factory = require('@cornerstonejs/codec-openjpeg/wasmjs') as (
      options: object,
    ) => Promise<OpenJpegModule>;
    return factory({ print: () => {}, printErr: () => {} });
  })();
  return codec;
}

const JP2_SIGNATURE = Buffer.from('0000000c6a5020200d0a870a', 'hex');

/** The JPEG 2000 codestream: the JP2 file's `jp2c` box, or the bytes themselves when they are one. */
export function jpeg2000Codestream(bytes: Buffer): Buffer {
  if (bytes[0] === 0xff && bytes[1] === 0x4f) return bytes;
  if (!bytes.subarray(0, 12).equals(JP2_SIGNATURE)) throw new FaceImageError('not a JPEG 2000 image');
  let at = 0;
  while (at + 8 <= bytes.length) {
    let length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    let header = 8;
    if (length === 1) {
      if (at + 16 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (length === 0) length = bytes.length - at;
    if (length < header || at + length > bytes.length) break;
    if (type === 'jp2c') return bytes.subarray(at + header, at + length);
    at += length;
  }
  throw new FaceImageError('the JP2 file holds no codestream');
}

/** Decoded pixels (8-bit, 1 or 3 channels) of a JPEG 2000 image. */
export async function decodeJpeg2000(
  bytes: Buffer,
): Promise<{ pixels: Buffer; width: number; height: number; channels: 1 | 3 }> {
  const stream = jpeg2000Codestream(bytes);
  const { J2KDecoder } = await openJpeg();
  const decoder = new J2KDecoder();
  try {
    decoder.getEncodedBuffer(stream.length).set(stream);
    try {
      decoder.readHeader();
    } catch {
      throw new FaceImageError('the JPEG 2000 header cannot be read');
    }
    const header = decoder.getFrameInfo();
    if (header.width * header.height > MAX_PIXELS)
      throw new FaceImageError(`the JPEG 2000 image is ${header.width}×${header.height}, too large`);
    try {
      decoder.decode();
    } catch {
      throw new FaceImageError('the JPEG 2000 image cannot be decoded');
    }
    const info = decoder.getFrameInfo();
    if (info.bitsPerSample !== 8 || (info.componentCount !== 1 && info.componentCount !== 3))
      throw new FaceImageError(
        `JPEG 2000 with ${info.componentCount} components of ${info.bitsPerSample} bits is not read`,
      );
    return {
      pixels: Buffer.from(decoder.getDecodedBuffer()),
      width: info.width,
      height: info.height,
      channels: info.componentCount as 1 | 3,
    };
  } finally {
    decoder.delete();
  }
}

/** A JPEG 2000 codestream of 8-bit RGB pixels (the tests' software card writes its DG2 so). */
export async function encodeJpeg2000(
  pixels: Buffer,
  size: { width: number; height: number },
): Promise<Buffer> {
  const { J2KEncoder } = await openJpeg();
  const encoder = new J2KEncoder();
  try {
    encoder.getDecodedBuffer({ ...size, bitsPerSample: 8, componentCount: 3, isSigned: false }).set(pixels);
    encoder.setQuality(false, 0);
    encoder.encode();
    return Buffer.from(encoder.getEncodedBuffer());
  } finally {
    encoder.delete();
  }
}

/** The chip's face as a JPEG the face checks read. */
export async function chipFaceAsJpeg(face: ChipFace): Promise<Buffer> {
  if (face.format === 'jpeg') return face.image;
  const { pixels, width, height, channels } = await decodeJpeg2000(face.image);
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 92 }).toBuffer();
}
