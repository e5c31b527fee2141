// The face presentation-attack nets (MiniFASNet, models/face-antispoof): the authors' crop
// geometry, the BGR 80×80 input, and the converted graphs run on tfjs as PyTorch runs them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ANTISPOOF_SIDE,
  antispoofInput,
  loadFaceAntispoof,
  runNet,
  scaledFaceBox,
  scoreFaceAntispoof,
} from '../../src/platform/ml/face-antispoof.ts';

describe('face antispoof: the crop', () => {
  it('scales the box about its centre, and shifts it inside the picture at an edge', () => {
    // A 100×100 face centred at (320, 240) in 640×480, scale 2.7: 270 px around the centre.
    assert.deepEqual(scaledFaceBox(640, 480, { x: 270, y: 190, width: 100, height: 100 }, 2.7), {
      x0: 185,
      y0: 105,
      x1: 455,
      y1: 375,
    });
    // Near the left edge: moved right by what overhangs, keeping its size.
    assert.deepEqual(scaledFaceBox(640, 480, { x: 0, y: 190, width: 100, height: 100 }, 2.7), {
      x0: 0,
      y0: 105,
      x1: 270,
      y1: 375,
    });
    // Scale 5 does not fit 480 high: limited to what does ((480 − 1) / 100).
    const big = scaledFaceBox(640, 480, { x: 270, y: 190, width: 100, height: 100 }, 5);
    assert.equal(big.y0, 0);
    assert.equal(big.y1, 479);
  });

  it('resizes to 80×80 with the channels turned to BGR', () => {
    // Red = x, green = y, blue = 7 on 160×160; a box whose scaled crop is the whole picture.
    const width = 160;
    const height = 160;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 7], (y * width + x) * 3);
    const input = antispoofInput({ data, width, height }, { x: 40, y: 40, width: 80, height: 80 }, 2);
    const at = (x: number, y: number, c: number) => input[(y * ANTISPOOF_SIDE + x) * 3 + c]!;
    assert.equal(input.length, ANTISPOOF_SIDE * ANTISPOOF_SIDE * 3);
    // Output pixel 10 covers source pixels 20 and 21 (centres aligned): their mean.
    assert.ok(Math.abs(at(10, 30, 2) - 20.5) < 1e-4, 'red is the last channel');
    assert.ok(Math.abs(at(10, 30, 1) - 60.5) < 1e-4, 'green stays in the middle');
    assert.ok(Math.abs(at(10, 30, 0) - 7) < 1e-4, 'blue is the first channel');
  });
});

describe('face antispoof: the networks', () => {
  it('compute what PyTorch computes from the authors\u2019 weights for the same input', async () => {
    // The probe and PyTorch 1.13's outputs are printed by models/face-antispoof/convert.py.
    const probe = new Float32Array(ANTISPOOF_SIDE * ANTISPOOF_SIDE * 3);
    for (let c = 0; c < 3; c++)
      for (let y = 0; y < ANTISPOOF_SIDE; y++)
        for (let x = 0; x < ANTISPOOF_SIDE; x++)
          probe[(y * ANTISPOOF_SIDE + x) * 3 + c] = (c * 6400 + y * 80 + x) % 251;
    const pytorch = [
      [1.6e-5, 0.000125, 0.999859],
      [0.005723, 0.670682, 0.323595],
    ];
    const { tf, nets } = await loadFaceAntispoof();
    assert.equal(nets.length, 2);
    for (const [i, { graph }] of nets.entries()) {
      const got = await runNet(tf, graph, probe);
      for (let k = 0; k < 3; k++)
        assert.ok(Math.abs(got[k]! - pytorch[i]![k]!) < 2e-4, `net ${i} class ${k}`);
    }
  });

  it('scores a face box of a picture as three probabilities that sum to one', async () => {
    const width = 120;
    const height = 160;
    const data = new Uint8Array(width * height * 3).map((_, i) => (i * 37) % 256);
    const score = await scoreFaceAntispoof({ data, width, height }, { x: 30, y: 40, width: 60, height: 80 });
    assert.ok(Math.abs(score.live + score.print + score.screen - 1) < 1e-5);
    for (const v of [score.live, score.print, score.screen]) assert.ok(v >= 0 && v <= 1);
  });
});
