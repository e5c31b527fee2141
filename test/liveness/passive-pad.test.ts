// Passive detection on a live capture's frames: which frames are scored, and a printed face
// refused where the same face rendered live is not (the simulator's own captures: no evaluation images needed).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { passiveReading } from '../../src/checks/selfie-spoof/index.ts';
import { PASSIVE_PAD, spreadIndices } from '../../src/liveness/index.ts';
import { renderFaceAttackFrames } from '../../src/simulate/face-attack-frames.ts';
import { renderChallengeFrames } from '../../src/simulate/render-challenge-frames.ts';
import { facePeople } from '../../src/synth/index.ts';
import { fitFaceScene } from '../../src/synth/liveness-capture.ts';

describe('passive detection', () => {
  it('spreads the scored frames over the capture, the first and last included', () => {
    assert.deepEqual(spreadIndices(15, 3), [0, 7, 14]);
    assert.deepEqual(spreadIndices(15, 5), [0, 4, 7, 11, 14]);
    assert.deepEqual(spreadIndices(2, 5), [0, 1]);
    assert.deepEqual(spreadIndices(1, 3), [0]);
  });

  it('never passes a printed photo held up to the camera as live, and passes the same face rendered live', async () => {
    const people = await facePeople();
    // A person the nets read as clearly live when rendered (bench:pad seed 2).
    const photos = people.get('sample3a');
    assert.ok(photos?.[1], 'the packaged faces include sample3a');
    const photo = photos[1];
    const scene = await fitFaceScene(photo, {
      width: 320,
      height: 240,
      faceWidth: 1.5,
      centre: [0.5, 0.63],
      background: { kind: 'stone', colour: [205, 200, 190], seed: 7 },
    });
    const steps = ['turn_left', 'look_up', 'turn_right'] as const;
    const encode = (f: { data: Buffer; width: number; height: number }) =>
      sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
        .jpeg({ quality: 88 })
        .toBuffer();
    const live = await renderChallengeFrames(photo, steps, scene);
    const printed = await renderFaceAttackFrames('printed-photo', photo, steps, scene, 'test');
    const asFrames = async (images: { data: Buffer; width: number; height: number }[]) =>
      (await Promise.all(images.map(encode))).map((image, t) => ({ image, t }));
    const genuine = await passiveReading(await asFrames(live.map((f) => f.image)));
    const attack = await passiveReading(await asFrames(printed));
    assert.equal(genuine.frames.length, 5);
    assert.ok(genuine.live !== null && genuine.live >= PASSIVE_PAD.attackBelow, `live ${genuine.live}`);
    // Refused, or (the halftone hiding the face from Human) no face to pass: never read as live.
    assert.ok(attack.live === null || attack.live < PASSIVE_PAD.attackBelow, `printed ${attack.live}`);
  });
});
