// One person, challenge and live scene per seed, as the simulator draws a live scene, for the face
// benches (bench:pad, bench:screen-light): the bona fide capture and each attack of a seed show the
// same face in the same room, so only the presentation differs.
import { LIVENESS_STEPS, type LivenessStep } from '../../src/liveness/index.ts';
import { facePeople, Random } from '../../src/synth/index.ts';
import { fitFaceScene } from '../../src/synth/liveness-capture.ts';

export async function faceBenchScenes(bench: string) {
  const people = await facePeople();
  const names = [...people.keys()].sort();
  return async (seed: number) => {
    const random = new Random(`${bench}:${seed}`);
    const pool: LivenessStep[] = [...LIVENESS_STEPS];
    const steps = [0, 1, 2].map(() => pool.splice(random.int(0, pool.length - 1), 1)[0] as LivenessStep);
    const person = names[(seed - 1) % names.length] as string;
    const photos = people.get(person) ?? [];
    // Photo 0 is the person's ID photo (synth/faces.ts); the live face is another.
    const photo = photos[1] ?? (photos[0] as string);
    const scene = await fitFaceScene(photo, {
      width: 320,
      height: 240,
      faceWidth: Math.round(random.range(1.45, 1.6) * 1000) / 1000,
      centre: [
        Math.round(random.range(0.47, 0.53) * 1000) / 1000,
        Math.round(random.range(0.6, 0.66) * 1000) / 1000,
      ],
      background: { kind: 'stone', colour: [205, 200, 190], seed: random.int(0, 2 ** 30) },
    });
    return { random, steps, person, photo, scene };
  };
}
