// selfieSpoofCheck (docs/spoof-checks.md; result: interface §2.9 SpoofCheck). Cues, strongest first:
//   - the server liveness verification (src/liveness): a failed challenge is a presentation
//     attack (a photo or a replayed recording cannot answer a random pose order; a face that
//     changes mid-capture is a swap);
//   - frame consistency: the frames must differ (a held-up still photo gives near-identical
//     frames) and the face must stay one person (the verification's descriptor distance);
//   - the passive detector (MiniFASNet, liveness/passive-pad.ts) on frames spread over the
//     capture: a printed or screen-shown face, whatever it was made to do;
//   - the screen-light challenge (liveness/screen-light.ts): the face's colour must follow the
//     colours the page showed; frames injected by a virtual camera, or a recording, do not;
//   - screen cues on the face region: isolated spectral peaks (moiré, pixel grid);
//   - Human's antispoof / liveness nets on the first frame (or the caller's scores): weak
//     signals only (docs/decisions.md), never enough on their own to move the risk past low.
import sharp from 'sharp';
import {
  type InjectionSignal,
  isInjectionSignal,
  type LivenessFailure,
  PASSIVE_PAD,
  type PassivePadReading,
  readPassivePad,
  spreadIndices,
} from '../../liveness/index.ts';
import { detectFaceMeshes, detectSpoofScores, type RawImage } from '../../platform/ml/human.ts';
import { type Check, PROVIDER } from '../check.ts';
import { centralRegion, decodeRgbPhoto, measureSpectralPeaks } from '../document-spoof/image-cues.ts';
import type { SpoofCheck } from '../document-spoof/index.ts';
import { combineSpoofCues, roundScore, type SpoofCue } from '../spoof-cues.ts';
import { SELFIE_SPOOF_VERSION, selfieSpoofDefinition } from './definition.ts';

export const SELFIE_SPOOF_MODEL = 'mimoto-selfie-spoof-cues';

export interface SelfieSpoofFrame {
  /** The frame as uploaded (JPEG or PNG). */
  image: Buffer;
  /** Milliseconds since the capture started. */
  t: number;
  /** The pose the capture meant to show at this time, when known. */
  pose?: string;
}

/** The server liveness verification outcome (a structural subset of LivenessVerdict). */
export interface LivenessOutcome {
  passed: boolean;
  confidence: number;
  failures: readonly (LivenessFailure | string)[];
  maxFaceDistance: number | null;
  /**
   * The screen-light reading of the live check (its correlation −1..1, null when the capture could
   * not be measured); null or absent when the challenge showed no colours.
   */
  screenLight?: { correlation: number | null } | null;
  /** Injection signals the attempt's camera report and frame sizes gave (liveness/injection-signals.ts). */
  injectionSignals?: readonly string[];
}

/** What each camera signal scores alone: exactly medium, a review and never a rejection by itself. */
const CAMERA_SIGNAL_CUES: Partial<Record<InjectionSignal, string>> = {
  virtual_camera: 'the camera is a virtual-camera driver (frames may be injected)',
  camera_settings_mismatch:
    'the frames do not have the size or shape the camera reported (frames may be injected)',
};

export interface SelfieSpoofInput {
  frames: readonly SelfieSpoofFrame[];
  liveness: LivenessOutcome;
  /**
   * Human's antispoof ("real") and liveness scores per frame, 0..1, if the caller ran those nets;
   * otherwise the check runs them on the first frame after a passed live check (humanNetScores).
   */
  humanScores?: readonly { antispoof?: number; live?: number }[];
}

export interface SelfieSpoofResult {
  result: SpoofCheck;
  measurements: {
    /** Largest mean absolute grey difference between two frames (0..255, at 64 px wide). */
    maxFrameChange: number;
    /** Strongest off-axis spectral peak on the face region over the frames (log10). */
    screenPeak: number;
    /** The passive detector's median "live" probability over the frames it scored (null: no face). */
    passiveLive: number | null;
    /** The live check's screen-light correlation (null: not measured). */
    screenLight: number | null;
    /** Human's nets per frame scored (the caller's, or the check's own: humanNetScores). */
    humanScores: { antispoof?: number; live?: number }[];
    cues: { name: string; score: number }[];
  };
  /**
   * The injection signals whose cue alone reaches medium (liveness/injection-signals.ts): the
   * decision names them (face_injection_suspected) rather than a generic spoof.
   */
  injectionSignals: InjectionSignal[];
}

export const SELFIE_SPOOF_THRESHOLDS = {
  /** A still photo's frames differ by sensor noise only. */
  frameChange: { from: 3, to: 1.2 },
  /**
   * Same-capture descriptor distances (src/liveness: one person 0.10–0.34, another 0.6+; the
   * live check fails above 0.5). Graded so that a capture the live check passed (≤ 0.5) adds at
   * most 0.17: genuine captures at 0.49 were flagged with a ramp from 0.42 (docs/spoof-checks.md).
   */
  faceDistance: { from: 0.45, to: 0.75 },
  screenPeak: { from: 2.2, to: 3.0 },
  /**
   * Screen-light correlation → cue score, times `screenLightWeight`: a face that does not follow
   * the page's colours at all reaches medium (a review), never high alone — in daylight a screen
   * lights a real face faintly (docs/spoof-checks.md "Screen light").
   */
  screenLight: { from: 0.65, to: 0.3 },
  screenLightWeight: 0.55,
  /**
   * The passive detector's median "live" probability → cue score: 0 at `from`, 1 at 0, so that
   * PASSIVE_PAD.attackBelow (the live check's own cut) scores exactly `medium`.
   */
  passiveLive: { from: PASSIVE_PAD.attackBelow / 0.6, to: 0 },
  /** Frames the passive detector scores, spread over the capture. */
  passiveFrames: 5,
  /** Weak-signal weight of Human's nets: at most this much score. */
  humanWeight: 0.3,
  medium: 0.4,
  high: 0.7,
} as const;

const FAILURE_TEXT: Record<string, string> = {
  pose_order_mismatch: 'live check failed: the poses did not answer the challenge (photo or replay)',
  face_changed: 'live check failed: the face changed during the capture',
  no_face: 'live check failed: no face in a frame',
  no_frontal_start: 'live check failed: no frontal start',
  timestamps_invalid: 'live check failed: frame times invalid',
  presentation_attack: 'live check failed: the passive detector saw a printed or screen-shown face',
};

function ramp(value: number, { from, to }: { from: number; to: number }): number {
  return Math.max(0, Math.min(1, (value - from) / (to - from)));
}

async function thumbnail(image: Buffer): Promise<Uint8Array> {
  const data = await sharp(image).greyscale().resize(64, 48, { fit: 'fill' }).raw().toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

const round = roundScore;

/**
 * Human's antispoof and liveness nets on the first frame: a challenge starts facing the camera,
 * which is how those nets were trained. One frame: in the pipeline benchmark each frame the nets
 * read made the check about 0.15 s slower beside the OCR and face checks, more than a weak signal
 * is worth. Empty when that frame shows no face.
 */
export async function humanNetScores(
  frames: readonly SelfieSpoofFrame[],
): Promise<{ antispoof: number; live: number }[]> {
  const first = frames[0];
  if (!first) return [];
  const { data, info } = await sharp(first.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const score = await detectSpoofScores({ data, width: info.width, height: info.height, channels: 3 });
  return score ? [score] : [];
}

/** The passive detector on frames spread over the capture (each decoded, its face found by Human). */
export async function passiveReading(frames: readonly SelfieSpoofFrame[]): Promise<PassivePadReading> {
  const indices = spreadIndices(frames.length, SELFIE_SPOOF_THRESHOLDS.passiveFrames);
  const images: RawImage[] = [];
  for (const i of indices) {
    // Turned upright by its EXIF orientation, as the face search reads a photo.
    const { data, info } = await sharp((frames[i] as SelfieSpoofFrame).image)
      .rotate()
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    images.push({ data, width: info.width, height: info.height, channels: 3 });
  }
  const reading = await readPassivePad(images, await detectFaceMeshes(images), [...images.keys()]);
  return { ...reading, frames: reading.frames.map((f) => ({ ...f, index: indices[f.index] ?? f.index })) };
}

export function createSelfieSpoofCheck(): Check<SelfieSpoofInput, SelfieSpoofResult> {
  return {
    id: selfieSpoofDefinition.id,
    version: SELFIE_SPOOF_VERSION,
    async run(input) {
      const t = SELFIE_SPOOF_THRESHOLDS;
      const cues: SpoofCue[] = [];
      const { liveness } = input;
      if (!liveness.passed) {
        const reasons = liveness.failures.map((f) => FAILURE_TEXT[f] ?? `live check failed: ${f}`);
        cues.push({ name: reasons.join('; ') || 'live check failed', score: 1, display: true });
      }
      if (liveness.maxFaceDistance !== null)
        cues.push({
          name: 'face identity drifts across frames',
          score: ramp(liveness.maxFaceDistance, t.faceDistance),
        });

      // Frame consistency: a held-up still photo barely changes between frames.
      const thumbs = await Promise.all(input.frames.map((f) => thumbnail(f.image)));
      let maxFrameChange = 0;
      for (let i = 1; i < thumbs.length; i++) {
        const a = thumbs[0] as Uint8Array;
        const b = thumbs[i] as Uint8Array;
        let sum = 0;
        for (let k = 0; k < a.length; k++) sum += Math.abs((a[k] as number) - (b[k] as number));
        maxFrameChange = Math.max(maxFrameChange, sum / a.length);
      }
      if (thumbs.length >= 2)
        cues.push({
          name: 'frames nearly identical (still photo)',
          score: ramp(maxFrameChange, t.frameChange),
          display: true,
        });

      // The passive detector: a cue of its own, strong enough alone to send the capture to review.
      const passive = await passiveReading(input.frames);
      if (passive.live !== null)
        cues.push({
          name: 'passive detector: printed or screen-shown face',
          score: ramp(passive.live, t.passiveLive),
          display: true,
        });

      // The screen-light challenge: measured by the live check on the frames with their times.
      const injectionSignals: InjectionSignal[] = [];
      const screenLight = liveness.screenLight?.correlation ?? null;
      if (screenLight !== null) {
        const score = ramp(screenLight, t.screenLight) * t.screenLightWeight;
        cues.push({
          name: "face does not reflect the page's colour sequence (injected or replayed stream)",
          score,
        });
        if (score >= t.medium) injectionSignals.push('screen_light_not_reflected');
      }
      for (const signal of liveness.injectionSignals ?? []) {
        const name = isInjectionSignal(signal) ? CAMERA_SIGNAL_CUES[signal] : undefined;
        if (!name || injectionSignals.includes(signal as InjectionSignal)) continue;
        cues.push({ name, score: t.medium });
        injectionSignals.push(signal as InjectionSignal);
      }

      // Screen cues on the face region of every other frame (the face fills the middle).
      let screenPeak = 0;
      for (let i = 0; i < input.frames.length; i += 2) {
        const photo = await decodeRgbPhoto((input.frames[i] as SelfieSpoofFrame).image);
        const peaks = measureSpectralPeaks(photo, centralRegion(photo, 0.5), 'luma');
        screenPeak = Math.max(screenPeak, peaks.topRatio);
      }
      cues.push({
        name: 'moiré / pixel grid on the face',
        score: ramp(screenPeak, t.screenPeak),
        display: true,
      });

      // Human's nets: weak signals, capped so they can only tip a case already suspicious.
      // After a failed live check the risk is already high: the nets could add nothing.
      const humanScores = [
        ...(input.humanScores ?? (liveness.passed ? await humanNetScores(input.frames) : [])),
      ];
      const human = humanScores
        .map((s) => Math.min(s.antispoof ?? 1, s.live ?? 1))
        .filter((v) => Number.isFinite(v));
      if (human.length > 0) {
        const mean = human.reduce((a, b) => a + b, 0) / human.length;
        cues.push({
          name: "Human's antispoof/liveness nets doubt the face",
          score: (1 - mean) * t.humanWeight,
        });
      }

      const { score, risk, details, boundaryConfidence } = combineSpoofCues(cues, t, 0.2);
      const confidence = boundaryConfidence * (liveness.passed ? Math.max(0.5, liveness.confidence) : 1);
      const result: SpoofCheck = {
        risk,
        score: round(score),
        confidence: round(confidence),
        details,
        status: 'success',
        provider: PROVIDER,
        model: `${SELFIE_SPOOF_MODEL}@${SELFIE_SPOOF_VERSION}`,
        isDisplayAttack: cues.some((c) => c.display && c.score >= t.medium),
        isForgedOrTampered: false,
      };
      return {
        result,
        measurements: {
          maxFrameChange: round(maxFrameChange),
          screenPeak: round(screenPeak),
          passiveLive: passive.live === null ? null : round(passive.live),
          screenLight,
          humanScores: humanScores.map((h) => ({
            ...(h.antispoof !== undefined ? { antispoof: round(h.antispoof) } : {}),
            ...(h.live !== undefined ? { live: round(h.live) } : {}),
          })),
          cues: cues.map((c) => ({ name: c.name, score: round(c.score) })),
        },
        injectionSignals,
      };
    },
  };
}

export const selfieSpoofCheck = createSelfieSpoofCheck();
