// DG2's face as a picture (src/chip/face-image.ts): a JPEG 2000 codestream and the same in a JP2
// file (ISO/IEC 15444-1 Annex I boxes) decode to the pixels encoded, within the codec's loss; what
// is not a JPEG 2000 image, a JP2 file without a codestream, a box that claims more bytes than it
// has, and a damaged codestream are refused as FaceImageError, never a crash.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  chipFaceAsJpeg,
  decodeJpeg2000,
  encodeJpeg2000,
  FaceImageError,
  jpeg2000Codestream,
} from '../../src/chip/index.ts';

const box = (type: string, body: Buffer) => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
};
const SIGNATURE = Buffer.from('0000000c6a5020200d0a870a', 'hex');
const jp2 = (codestream: Buffer) =>
  Buffer.concat([
    SIGNATURE,
    box('ftyp', Buffer.from('jp2 \0\0\0\0jp2 ', 'latin1')),
    box('jp2h', Buffer.alloc(22)),
    box('jp2c', codestream),
  ]);

let pixels: Buffer;
let codestream: Buffer;
before(async () => {
  const { data } = await sharp('test/fixtures/corpus/passport-genuine-0/frames/00.jpg')
    .resize(120, 160, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  pixels = data;
  codestream = await encodeJpeg2000(pixels, { width: 120, height: 160 });
});

const meanDifference = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number));
  return sum / a.length;
};

describe('the chip face as a picture', () => {
  it('decodes a codestream and a JP2 file to the pixels encoded', async () => {
    assert.deepEqual(codestream.subarray(0, 2), Buffer.from([0xff, 0x4f]), 'SOC marker');
    for (const bytes of [codestream, jp2(codestream)]) {
      const decoded = await decodeJpeg2000(bytes);
      assert.deepEqual([decoded.width, decoded.height, decoded.channels], [120, 160, 3]);
      assert.ok(
        meanDifference(decoded.pixels, pixels) < 3,
        `mean difference ${meanDifference(decoded.pixels, pixels)}`,
      );
    }
    assert.deepEqual(jpeg2000Codestream(jp2(codestream)), codestream);
    const jpeg = await chipFaceAsJpeg({ format: 'jpeg2000', image: jp2(codestream) });
    const meta = await sharp(jpeg).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 120, 160]);
  });

  it('passes a JPEG face through as it is', async () => {
    const jpeg = await sharp(pixels, { raw: { width: 120, height: 160, channels: 3 } })
      .jpeg()
      .toBuffer();
    assert.equal(await chipFaceAsJpeg({ format: 'jpeg', image: jpeg }), jpeg);
  });

  it('refuses what cannot be a face picture', async () => {
    const broken: [string, Buffer][] = [
      ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16])],
      ['empty', Buffer.alloc(0)],
      ['a JP2 file without a codestream', Buffer.concat([SIGNATURE, box('ftyp', Buffer.alloc(12))])],
      [
        'a box longer than the file',
        Buffer.concat([
          SIGNATURE,
          Buffer.from([0x7f, 0xff, 0xff, 0xff]),
          Buffer.from('jp2c'),
          Buffer.alloc(8),
        ]),
      ],
      ['a truncated codestream', codestream.subarray(0, 120)],
      [
        'a codestream of zeros after its marker',
        Buffer.concat([Buffer.from([0xff, 0x4f]), Buffer.alloc(64)]),
      ],
    ];
    for (const [name, bytes] of broken) {
      await assert.rejects(decodeJpeg2000(bytes), FaceImageError, name);
    }
  });
});
