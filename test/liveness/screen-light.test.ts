import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  drawLightSequence,
  LIGHT_COLOURS,
  LIGHT_FADE_MS,
  LIGHT_SEGMENT_MS,
  lightAt,
  lightRgb,
  measureScreenLight,
  SCREEN_LIGHT,
} from '../../src/liveness/index.ts';
import type { FaceMesh, RawImage } from '../../src/platform/ml/human.ts';
import { reflectScreenLight } from '../../src/simulate/screen-light-reflection.ts';
import { Random } from '../../src/synth/index.ts';

const SIZE = 64;
/** A face mesh whose box covers the middle of the picture. */
const mesh: FaceMesh = {
  landmarks: [
    { x: 16, y: 12, z: 0 },
    { x: 48, y: 52, z: 0 },
  ],
  box: [16, 12, 32, 40],
  score: 0.9,
  rotation: { yaw: 0, pitch: 0, roll: 0 },
};

/** Skin-coloured frame with sensor noise; its overall brightness drifts as a moving head's does. */
function skinFrame(random: Random, brightness: number): { data: Buffer; width: number; height: number } {
  const data = Buffer.alloc(SIZE * SIZE * 3);
  const skin = [196, 150, 128];
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.max(
      0,
      Math.min(255, Math.round((skin[i % 3] as number) * brightness + random.range(-6, 6))),
    );
  }
  return { data, width: SIZE, height: SIZE };
}

const raw = (image: { data: Buffer; width: number; height: number }): RawImage => ({
  data: image.data,
  width: image.width,
  height: image.height,
  channels: 3,
});

/** 15 frames 300 ms apart, the face lit (or not) by the colour shown at each frame's time. */
function capture(colours: readonly string[], strength: number | null, seed: string) {
  const random = new Random(seed);
  return Array.from({ length: 15 }, (_, i) => {
    const t = i * 300 + 40;
    const frame = skinFrame(random, random.range(0.85, 1.1));
    const colour = lightAt(colours, t);
    const lit =
      strength !== null && colour ? reflectScreenLight(frame, lightRgb(colour), strength, [0.5, 0.5]) : frame;
    return { t, image: raw(lit) };
  });
}

const sequence = (seed: string) => {
  const random = new Random(seed);
  return drawLightSequence(undefined, (below) => random.int(0, below - 1));
};

describe('screen-light challenge', () => {
  it('draws colours of the palette only, never the same twice in a row', () => {
    const colours = drawLightSequence();
    assert.ok(colours.length * LIGHT_SEGMENT_MS >= 50_000, 'covers the longest capture the app makes');
    for (const [i, c] of colours.entries()) {
      assert.ok((LIGHT_COLOURS as readonly string[]).includes(c));
      if (i > 0) assert.notEqual(c, colours[i - 1]);
    }
  });

  it('changes colour at most twice a second, so never three flashes in a second (WCAG 2.3.1)', () => {
    assert.ok(LIGHT_SEGMENT_MS >= 500);
  });

  it('names no colour during a cross-fade or after the sequence', () => {
    const colours = ['#ff6e6e', '#6e8cff'];
    assert.equal(lightAt(colours, 10), '#ff6e6e');
    assert.equal(lightAt(colours, LIGHT_SEGMENT_MS + LIGHT_FADE_MS / 2), null);
    assert.equal(lightAt(colours, LIGHT_SEGMENT_MS + LIGHT_FADE_MS + 1), '#6e8cff');
    assert.equal(lightAt(colours, 2 * LIGHT_SEGMENT_MS + LIGHT_FADE_MS + 1), null);
    assert.equal(lightAt(colours, -1), null);
  });

  it('finds a face lit by the shown colours following them', () => {
    const colours = sequence('lit');
    const frames = capture(colours, 0.12, 'lit-frames');
    const reading = measureScreenLight(
      colours,
      frames,
      frames.map(() => mesh),
    );
    assert.ok(
      reading.correlation !== null && reading.correlation > 0.8,
      `correlation ${reading.correlation}`,
    );
  });

  it('finds an unlit face (frames made before the sequence existed) not following them', () => {
    const colours = sequence('unlit');
    const frames = capture(colours, null, 'unlit-frames');
    const reading = measureScreenLight(
      colours,
      frames,
      frames.map(() => mesh),
    );
    assert.ok(
      reading.correlation !== null && reading.correlation < 0.45,
      `correlation ${reading.correlation}`,
    );
  });

  it('finds a face lit by another sequence than the one issued not following it', () => {
    const frames = capture(sequence('recorded earlier'), 0.2, 'replay-frames');
    const reading = measureScreenLight(
      sequence('issued now'),
      frames,
      frames.map(() => mesh),
    );
    assert.ok(
      reading.correlation !== null && reading.correlation < 0.45,
      `correlation ${reading.correlation}`,
    );
  });

  it('gives no reading without enough frames with a face', () => {
    const colours = sequence('few');
    const frames = capture(colours, 0.2, 'few-frames');
    const reading = measureScreenLight(
      colours,
      frames,
      frames.map((_, i) => (i < 4 ? mesh : null)),
    );
    assert.equal(reading.correlation, null);
    assert.ok(reading.frames <= 4 && reading.frames < SCREEN_LIGHT.minFrames);
  });
});
