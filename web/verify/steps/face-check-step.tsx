// Step 5: the live face check (docs/hosted-flow-api.md). The server issues three movements; the
// browser shows them one by one on the user camera's live view, runs Human's face mesh to see when
// each pose is held, and captures timestamped frames: frontal first, each held pose in order,
// frontal last. The server re-runs face mesh on the frames and decides. If Human cannot load (no
// WebGL nor WebAssembly), each instruction is shown for a fixed time and frames are taken on a
// timer.
import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_LIVENESS_FRAME_PIXELS } from '../../../src/hosted-flow/upload-limits.ts';
import {
  canvasToJpeg,
  describeCamera,
  grabFrame,
  openCamera,
  stopCamera,
  videoReady,
} from '../capture/camera.ts';
import { type FaceReading, loadFaceGuide, readFace } from '../capture/face-guide.ts';
import { onPhone } from '../capture/fit-upload.ts';
import type { LivenessResult, LivenessStep } from '../flow-api.ts';
import type { MessageKey } from '../i18n.ts';
import { errorText } from './error-text.ts';
import { PermissionHelp } from './permission-help.tsx';
import type { StepProps } from './step-props.ts';

type Target = 'center' | LivenessStep;
type Phase = 'intro' | 'preparing' | 'capturing' | 'uploading' | 'result' | 'noCamera';

/** Frames kept per held pose (and for the frontal start and end). */
const FRAMES_PER_POSE = 2;
/** The server accepts a 60 s span; stop a little before and let it judge what was captured. */
const CAPTURE_DEADLINE_MS = 50_000;
const TIMER_STEP_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function FaceCheckStep({
  api,
  t,
  language,
  state,
  onApiError,
  onDone,
  onHandoff,
}: StepProps & { onDone(): void; onHandoff(): void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const cancelled = useRef(false);
  const [phase, setPhase] = useState<Phase>('intro');
  const [instruction, setInstruction] = useState<{ target: Target; index: number; total: number } | null>(
    null,
  );
  const [feedback, setFeedback] = useState<'noFace' | 'hold' | null>(null);
  const [timerMode, setTimerMode] = useState(false);
  const [result, setResult] = useState<LivenessResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attemptsLeft, setAttemptsLeft] = useState(state.steps.liveness.attemptsLeft);
  // The screen-light challenge's colour now shown around the camera view (null: none).
  const [light, setLight] = useState<string | null>(null);
  const lightTimer = useRef<ReturnType<typeof setInterval> | null>(null);
  const stopLight = () => {
    if (lightTimer.current) clearInterval(lightTimer.current);
    lightTimer.current = null;
    setLight(null);
  };

  useEffect(
    () => () => {
      cancelled.current = true;
      if (lightTimer.current) clearInterval(lightTimer.current);
      stopCamera(streamRef.current);
    },
    [],
  );

  const run = async () => {
    setError(null);
    setResult(null);
    setPhase('preparing');
    const video = videoRef.current!;
    try {
      if (!streamRef.current) {
        streamRef.current = await openCamera('user', { width: 640, height: 480 });
        video.srcObject = streamRef.current;
      }
      await video.play().catch(() => {});
      await videoReady(video);
    } catch {
      setPhase('noCamera');
      return;
    }
    const human = await loadFaceGuide().catch(() => null);
    setTimerMode(!human);
    let challenge: Awaited<ReturnType<typeof api.challenge>>;
    try {
      challenge = await api.challenge();
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
      setPhase('intro');
      return;
    }
    setPhase('capturing');
    const start = performance.now();
    // The page shows the server's colours in turn, counted from the same start as the frames'
    // times; the CSS cross-fade (challenge.light.fadeMs) keeps every change gentle.
    const sequence = challenge.light;
    if (sequence && sequence.colours.length > 0) {
      const show = () => {
        const segment = Math.floor((performance.now() - start) / sequence.segmentMs);
        setLight(sequence.colours[Math.min(segment, sequence.colours.length - 1)] ?? null);
      };
      show();
      lightTimer.current = setInterval(show, 40);
    }
    const frames: { t: number; image: Blob }[] = [];
    let lastT = -1;
    // The frame is grabbed first and judged afterwards: what is kept is exactly what was judged,
    // however long detection takes while the head keeps moving.
    const grab = () => ({
      canvas: grabFrame(video, MAX_LIVENESS_FRAME_PIXELS),
      t: Math.round(performance.now() - start),
    });
    const keep = async (frame: { canvas: HTMLCanvasElement; t: number }) => {
      const t = Math.max(lastT + 1, frame.t);
      lastT = t;
      frames.push({ t, image: await canvasToJpeg(frame.canvas, 0.9) });
    };
    const targets: Target[] = ['center', ...challenge.steps, 'center'];
    let baseline: number | null = null;
    for (const [index, target] of targets.entries()) {
      if (cancelled.current) return;
      setInstruction({ target, index, total: targets.length });
      setFeedback(null);
      if (!human) {
        await sleep(TIMER_STEP_MS / 2);
        for (let i = 0; i < FRAMES_PER_POSE; i++) {
          await keep(grab());
          await sleep(TIMER_STEP_MS / 2 / FRAMES_PER_POSE);
        }
        continue;
      }
      let held = 0;
      while (held < FRAMES_PER_POSE && performance.now() - start < CAPTURE_DEADLINE_MS) {
        if (cancelled.current) return;
        const frame = grab();
        const reading: FaceReading | null = await readFace(human, frame.canvas, baseline).catch(() => null);
        if (!reading) {
          setFeedback('noFace');
        } else if (reading.pose === target) {
          if (target === 'center' && baseline === null) baseline = reading.width;
          setFeedback('hold');
          await keep(frame);
          held++;
        } else {
          setFeedback(null);
        }
        await sleep(30);
      }
    }
    setInstruction(null);
    stopLight();
    setPhase('uploading');
    try {
      const outcome = await api.submitLiveness(
        challenge.challengeId,
        frames,
        describeCamera(streamRef.current),
      );
      setResult(outcome);
      setAttemptsLeft(outcome.attemptsLeft);
      setPhase('result');
      if (outcome.passed || outcome.livenessStatus === 'failed') stopCamera(streamRef.current);
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
      setPhase('intro');
    }
  };

  const instructionKey = (target: Target): MessageKey =>
    target === 'center' ? 'face.lookStraight' : `face.${target}`;
  const exhausted =
    result?.livenessStatus === 'failed' || (result && !result.passed && result.attemptsLeft === 0);
  const showVideo = phase === 'preparing' || phase === 'capturing' || phase === 'uploading';

  return (
    <section class={`card${light ? ' lit' : ''}`}>
      {light && <div class="screen-light" style={{ backgroundColor: light }} aria-hidden="true" />}
      <h1>{t('face.title')}</h1>
      {phase === 'intro' && (
        <>
          <p>{t('face.intro')}</p>
          <p class="hint">{t('face.lightNote')}</p>
        </>
      )}
      <div class={`viewfinder face${showVideo ? '' : ' hidden'}`}>
        <video ref={videoRef} muted playsInline autoPlay aria-label={t('face.cameraLabel')} />
        <div class="face-guide" aria-hidden="true" />
      </div>
      {phase === 'preparing' && (
        <p class="status" aria-live="polite">
          {t('face.preparing')}
        </p>
      )}
      {phase === 'capturing' && instruction && (
        <div class="instruction" aria-live="assertive">
          {/* The count is of the movements the intro announced; looking straight opens and closes them. */}
          {instruction.target !== 'center' && (
            <p class="step-count">
              {t('face.stepOf', { current: instruction.index, total: instruction.total - 2 })}
            </p>
          )}
          <p class="big" data-target={instruction.target}>
            {t(instructionKey(instruction.target))}
          </p>
          {feedback && (
            <p class={feedback === 'noFace' ? 'error' : 'ok'}>
              {t(feedback === 'noFace' ? 'face.noFace' : 'face.hold')}
            </p>
          )}
          {timerMode && <p class="hint">{t('face.timerMode')}</p>}
        </div>
      )}
      {phase === 'uploading' && (
        <p class="status" aria-live="polite">
          {t('face.uploading')}
        </p>
      )}
      {phase === 'noCamera' && (
        <div role="alert">
          <p class="error">{t('face.noCamera')}</p>
          <PermissionHelp t={t} />
        </div>
      )}
      {phase === 'result' && result && (
        <div role="status">
          {result.passed ? (
            <p class="ok">{t('face.passed')}</p>
          ) : (
            <>
              <p class="error">{t('face.failed')}</p>
              <ul>
                {result.messages.map((m) => (
                  <li key={m.key}>{m.message}</li>
                ))}
              </ul>
              <p>{exhausted ? t('face.exhausted') : t('face.attemptsLeft', { count: attemptsLeft })}</p>
            </>
          )}
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        {(phase === 'intro' || phase === 'noCamera') && (
          <button type="button" class="primary" onClick={run}>
            {phase === 'intro' ? t('face.start') : t('face.tryAgain')}
          </button>
        )}
        {phase === 'noCamera' && !onPhone() && (
          <button type="button" class="secondary" onClick={onHandoff}>
            {t('handoff.open')}
          </button>
        )}
        {phase === 'result' && result && !result.passed && !exhausted && (
          <button type="button" class="primary" onClick={run}>
            {t('face.tryAgain')}
          </button>
        )}
        {phase === 'result' && (result?.passed || exhausted) && (
          <button type="button" class="primary" onClick={onDone}>
            {t('face.continue')}
          </button>
        )}
      </div>
    </section>
  );
}
