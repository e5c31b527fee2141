// The thickness capture's check at upload (the tenant option tenants/capture-options.ts): the
// tilted photo, measured against the stored front in the geometry thread (card-thickness.ts),
// is refused when no card can be seen in it, when the card is not tilted, or when it is plainly
// another object than the front — the user is told at once and retakes. Whether the card's edge
// shows is not judged here: a copy or a screen would then be told how to get past it; the
// documentSpoofCheck reads that from the stored photo, and a missing edge sends the verification
// to review.
import { type TiltedCaptureProblem, tiltedCaptureProblem } from '../checks/document-spoof/card-thickness.ts';
import { measureCardThicknessInWorker } from '../inference/index.ts';

export type TiltedCheck = (
  tilted: Buffer,
  front: Buffer,
) => Promise<{ refusal: TiltedCaptureProblem | null }>;

/** Past this the photo is taken unjudged (the pipeline still judges it). Measured: 0.2–1.5 s at load 10–14. */
export const TILTED_CHECK_BUDGET_MS = 20_000;

export const checkTiltedCapture: TiltedCheck = async (tilted, front) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), TILTED_CHECK_BUDGET_MS);
  });
  const evidence = await Promise.race([measureCardThicknessInWorker(front, tilted).catch(() => null), late]);
  clearTimeout(timer);
  return { refusal: evidence ? tiltedCaptureProblem(evidence) : null };
};
