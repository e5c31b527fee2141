// The live face check's movements (docs/hosted-flow-api.md): the server draws 3 of 5, in a random
// order.
import { randomInt } from 'node:crypto';

export const LIVENESS_STEPS = ['turn_left', 'turn_right', 'look_up', 'look_down', 'move_closer'] as const;
export type LivenessStep = (typeof LIVENESS_STEPS)[number];

export const CHALLENGE_LENGTH = 3;
/** From issue to upload: long enough for a person on a phone, short enough to stop a prepared replay. */
export const CHALLENGE_VALIDITY_MS = 120_000;
/** Liveness attempts per session (docs/hosted-flow-api.md "Order of steps", step 6). */
export const MAX_LIVENESS_ATTEMPTS = 3;

export function isLivenessStep(value: string): value is LivenessStep {
  return (LIVENESS_STEPS as readonly string[]).includes(value);
}

/** A uniformly random ordered choice of `count` distinct steps (crypto random: not guessable). */
export function drawChallengeSteps(count = CHALLENGE_LENGTH): LivenessStep[] {
  const pool = [...LIVENESS_STEPS];
  const out: LivenessStep[] = [];
  while (out.length < count && pool.length > 0) {
    out.push(pool.splice(randomInt(pool.length), 1)[0] as LivenessStep);
  }
  return out;
}
