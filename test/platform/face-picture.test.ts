// The face nets' pictures outside tfjs (src/platform/ml/face-picture.ts): what the detector is fed
// must be what face-api makes of the picture's tensor, bit for bit, or every face found and every
// descriptor would move; a bordered picture must be what sharp's extend makes; and describing a
// large photo whose face is searched with borders must not grow the tfjs heap, which never shrinks
// (a worker's memory).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type * as Tf from '@tensorflow/tfjs';
import sharp from 'sharp';
import { computeFaceDescriptor, DEFAULT_FACE_SEARCH, warmUpFaceApi } from '../../src/platform/ml/face-api.ts';
import {
  borderedPicture,
  detectorInput,
  type Picture,
  rgbPicture,
} from '../../src/platform/ml/face-picture.ts';
import { loadTfjs } from '../../src/platform/ml/tfjs.ts';
import { packagedFacePeople } from '../../src/synth/faces.ts';

let tf: typeof Tf;
before(async () => {
  tf = await loadTfjs();
});

/** Deterministic noise: every pixel differs from its neighbours, so any resampling slip shows. */
function noise(width: number, height: number, seed = 1): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s >>> 24;
  }
  return data;
}

/** face-api's NetInput.toBatchTensor(size, false) on the picture's int32 tensor, as tfjs computes it. */
function faceApiInput(picture: Picture, size: number): Float32Array {
  const { width, height } = picture;
  return tf.tidy(() => {
    let x = tf.cast(
      tf.tensor4d(picture.read(0, 0, width, height), [1, height, width, 3], 'int32'),
      'float32',
    ) as Tf.Tensor4D;
    if (width !== height) {
      const shape: [number, number, number, number] = [1, height, width, 3];
      const axis = height > width ? 2 : 1;
      shape[axis] = Math.abs(height - width);
      x = tf.concat([x, tf.zeros(shape, 'float32')], axis);
    }
    if (Math.max(width, height) !== size) x = tf.image.resizeBilinear(x, [size, size], false, false);
    return x.dataSync() as Float32Array;
  });
}

function assertSameValues(actual: Float32Array, expected: Float32Array) {
  assert.equal(actual.length, expected.length);
  let differing = 0;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) differing++;
  assert.equal(differing, 0, `${differing} of ${actual.length} values differ`);
}

describe('the detector input computed outside tfjs', () => {
  for (const [width, height] of [
    [640, 480],
    [333, 500],
    [1024, 724],
    [416, 300],
    [150, 150],
    [416, 416],
  ] as const) {
    it(`is tfjs's pad-and-resize bit for bit on a ${width}x${height} picture`, () => {
      const picture = rgbPicture(noise(width, height, width * height), width, height);
      assertSameValues(detectorInput(picture, 416), faceApiInput(picture, 416));
    });
  }

  it('is the same bit for bit on a bordered picture (3x the size each way)', () => {
    for (const fill of ['grey', 'copy'] as const) {
      const picture = borderedPicture(rgbPicture(noise(300, 200), 300, 200), 300, fill);
      assertSameValues(detectorInput(picture, 416), faceApiInput(picture, 416));
    }
  });
});

describe('a bordered picture', () => {
  for (const fill of ['grey', 'copy'] as const) {
    it(`is what sharp's extend makes (${fill})`, async () => {
      const [width, height, pad] = [37, 23, 19];
      const data = noise(width, height, 7);
      const extended = await sharp(data, { raw: { width, height, channels: 3 } })
        .extend({
          top: pad,
          bottom: pad,
          left: pad,
          right: pad,
          ...(fill === 'grey' ? { background: '#808080' } : { extendWith: 'copy' as const }),
        })
        .raw()
        .toBuffer();
      const picture = borderedPicture(rgbPicture(data, width, height), pad, fill);
      assert.deepEqual(Buffer.from(picture.read(0, 0, picture.width, picture.height)), extended);
      // A rectangle reaching into the border, as a face crop cut by the frame does.
      const [x0, y0, w, h] = [5, 30, 40, 20];
      const rows = [];
      for (let y = y0; y < y0 + h; y++) {
        rows.push(extended.subarray((y * picture.width + x0) * 3, (y * picture.width + x0 + w) * 3));
      }
      assert.deepEqual(Buffer.from(picture.read(x0, y0, w, h)), Buffer.concat(rows));
    });
  }

  it('refuses a rectangle outside it', () => {
    const picture = borderedPicture(rgbPicture(noise(10, 10), 10, 10), 10, 'grey');
    assert.throws(() => picture.read(25, 0, 10, 5), /not inside/);
  });
});

describe('describing a large photo searched with borders', () => {
  it('leaves the tfjs heap as it was (it never shrinks once grown)', async () => {
    await warmUpFaceApi();
    const people = await packagedFacePeople();
    const [file] = [...people.values()][0] ?? [];
    assert.ok(file, 'a face photo from the package');
    // A photo (decoded at 1024x731) whose face is cut by the left edge: not confident as given, so
    // the bordered views (DEFAULT_FACE_SEARCH.borders, one picture width each side) are searched.
    const face = await sharp(file).resize(700, 700).toBuffer();
    const photo = await sharp({ create: { width: 1400, height: 1000, channels: 3, background: '#c8c0b8' } })
      .composite([{ input: face, left: -200, top: 150 }])
      .jpeg()
      .toBuffer();
    assert.ok(DEFAULT_FACE_SEARCH.borders.length > 0);
    const heapMb = () =>
      (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer.byteLength / 2 ** 20;
    // A first description of a small picture brings the heap to its working size (the warm-up's
    // blank inputs do not reach it).
    assert.ok(await computeFaceDescriptor(await sharp(file).resize(300, 300).jpeg().toBuffer()));
    const before = heapMb();
    const described = await computeFaceDescriptor(photo);
    assert.ok(described, 'the face is found');
    // As one tensor a bordered view was 3072x2779 int32 (~100 MB), about three times that while
    // face-api padded and resized it.
    assert.ok(heapMb() - before < 16, `tfjs heap grew from ${before} to ${heapMb()} MB`);
  });
});
