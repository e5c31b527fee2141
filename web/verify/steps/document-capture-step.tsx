// Steps 3–4: front and back of the document — a live view of the environment
// camera with a card-shaped guide, a file-upload fallback (a photo over the upload limit scaled
// down first), and quality feedback (too small, blurred, glare, no document) before the picture is
// sent. Only the server can say that a photo is readable (it reads it): the browser's own check
// warns, never approves; the server's 422 says what to fix, in the user's language.
import { useEffect, useRef, useState } from 'preact/hooks';
import { canvasToJpeg, grabFrame, openCamera, stopCamera, videoReady } from '../capture/camera.ts';
import { assessDocumentImage, type QualityProblem } from '../capture/document-quality.ts';
import { type FaceProblem, faceProblemIn, prepareFaceCheck } from '../capture/face-in-photo.ts';
import { onPhone, overUploadLimits, scaledForUpload } from '../capture/fit-upload.ts';
import { FlowApiError } from '../flow-api.ts';
import type { MessageKey } from '../i18n.ts';
import { errorText } from './error-text.ts';
import { PermissionHelp } from './permission-help.tsx';
import type { StepProps } from './step-props.ts';

/** The photo at most 640 px wide, for the face pre-check. */
function smallCopy(source: CanvasImageSource, width: number, height: number): HTMLCanvasElement {
  const scale = Math.min(1, 640 / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  canvas.getContext('2d')?.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

type Candidate = {
  blob: Blob;
  url: string;
  problem: QualityProblem | FaceProblem | 'cameraTooSmall' | null;
};

/**
 * The server's capture refusals (identify-document-capture.ts): the photo shows the wrong thing,
 * or the document could not be read in it (the message says what to change).
 */
const REFUSALS = [
  'DocumentIsSelfie',
  'DocumentNotRecognised',
  'DocumentTypeMismatch',
  'DocumentSideMismatch',
  'DocumentTilted',
  'DocumentTooFar',
  'DocumentUnreadable',
  'ImageGlare',
  'ImageBlurred',
  'TiltedCardNotFound',
  'TiltedCardNotTilted',
  'TiltedCardNotSame',
] as const;
type Refusal = (typeof REFUSALS)[number];
const isRefusal = (code: string): code is Refusal => (REFUSALS as readonly string[]).includes(code);

export function DocumentCaptureStep({
  api,
  t,
  language,
  state,
  side,
  onApiError,
  onDone,
  onChooseType,
  onHandoff,
}: StepProps & {
  side: 'front' | 'back' | 'tilted';
  onDone(): void;
  onChooseType(): void;
  onHandoff(): void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [cameraState, setCameraState] = useState<'starting' | 'on' | 'off' | 'failed'>('starting');
  const [candidate, setCandidate] = useState<Candidate | null>(null);
  const [busy, setBusy] = useState<'checking' | 'uploading' | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The server refused the photo as the wrong document: only Retake (or another type) helps. */
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const isPassport = state.documentType === 'passport';
  // The thickness capture: the card held tilted, so that its edge (its thickness) shows.
  const isTilted = side === 'tilted';
  const docName = (type: string | null | undefined) =>
    type ? t(`docType.${type}` as MessageKey) : t('docType.legend');

  const startCamera = async () => {
    setCameraState('starting');
    try {
      const stream = await openCamera('environment', { width: 1920, height: 1080 });
      streamRef.current = stream;
      const video = videoRef.current;
      if (!video) return stopCamera(stream);
      video.srcObject = stream;
      await video.play().catch(() => {});
      await videoReady(video);
      setCameraState('on');
    } catch {
      setCameraState('failed');
    }
  };

  useEffect(() => {
    startCamera();
    // The face detector loads while the camera shows, for the pre-check of each photo.
    if (!isTilted) prepareFaceCheck();
    return () => stopCamera(streamRef.current);
  }, []);

  useEffect(() => () => candidate && URL.revokeObjectURL(candidate.url), [candidate]);

  const judge = async (
    blob: Blob,
    source: CanvasImageSource,
    width: number,
    height: number,
    fromCamera: boolean,
  ) => {
    const problem = assessDocumentImage(source, width, height);
    // A camera frame is as large as the camera makes it: "move closer" cannot help, another device can.
    let shown: Candidate['problem'] = fromCamera && problem === 'ImageTooSmall' ? 'cameraTooSmall' : problem;
    // A selfie, or the front as the back, told before the upload (the server's rules; no verdict
    // when the detector is not ready within its budget).
    if (!shown && !isTilted) shown = await faceProblemIn(smallCopy(source, width, height), side);
    setCandidate({ blob, url: URL.createObjectURL(blob), problem: shown });
    setBusy(null);
  };

  const retake = () => {
    setCandidate(null);
    setError(null);
    setRefusal(null);
  };

  const takePhoto = async () => {
    const video = videoRef.current;
    if (!video || cameraState !== 'on') return;
    setBusy('checking');
    setError(null);
    const canvas = grabFrame(video);
    const blob = await canvasToJpeg(canvas);
    await judge(blob, canvas, canvas.width, canvas.height, true);
  };

  const chooseFile = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setBusy('checking');
    setError(null);
    setRefusal(null);
    try {
      // Oriented as EXIF says (the default of createImageBitmap, said here since it matters).
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      const blob = overUploadLimits(file.size, bitmap.width, bitmap.height)
        ? await scaledForUpload(bitmap)
        : file;
      await judge(blob, bitmap, bitmap.width, bitmap.height, false);
      bitmap.close();
    } catch {
      // Not an image the browser can read: let the server say what is wrong with it.
      setCandidate({ blob: file, url: '', problem: null });
      setBusy(null);
    }
  };

  const upload = async () => {
    if (!candidate) return;
    setBusy('uploading');
    setError(null);
    try {
      await api.uploadDocument(side, candidate.blob);
      stopCamera(streamRef.current);
      onDone();
    } catch (e) {
      onApiError(e);
      if (e instanceof FlowApiError && isRefusal(e.code)) {
        const detail = (path: string) => e.details.find((d) => d.path === path)?.message;
        setRefusal(e.code);
        setError(
          t(`capture.refused.${e.code}`, {
            seen: docName(detail('/seen')),
            wanted: docName(detail('/documentType') ?? state.documentType),
          }),
        );
      } else setError(errorText(e, language, t));
      setBusy(null);
    }
  };

  const title = isTilted
    ? t('capture.title.tilted')
    : isPassport
      ? t('capture.title.passport')
      : t(side === 'front' ? 'capture.title.front' : 'capture.title.back');
  const fileInputId = `file-${side}`;

  return (
    <section class="card">
      <h1>{title}</h1>
      {isTilted ? (
        <div class="tilt-instructions">
          <p class="hint">{t('capture.hint.tilted')}</p>
          <ol>
            <li>{t('capture.tilted.step1')}</li>
            <li>{t('capture.tilted.step2')}</li>
            <li>{t('capture.tilted.step3')}</li>
          </ol>
          <div class="tilt-figure" aria-hidden="true">
            <div class="tilt-card" />
          </div>
        </div>
      ) : (
        <p class="hint">{t('capture.hint')}</p>
      )}
      <div class={`viewfinder${candidate ? ' hidden' : ''}`}>
        <video ref={videoRef} muted playsInline autoPlay aria-label={t('capture.cameraLabel')} />
        <div
          class={`card-guide${isPassport ? ' passport' : ''}${isTilted ? ' tilted' : ''}`}
          aria-hidden="true"
        />
      </div>
      {cameraState === 'failed' && !candidate && (
        <div class="notice" role="status">
          <p>{t('capture.noCamera')}</p>
          <PermissionHelp t={t} />
          <button type="button" class="link-button" onClick={startCamera}>
            {t('capture.retryCamera')}
          </button>
        </div>
      )}
      {candidate && (
        <div class="preview">
          {candidate.url && <img src={candidate.url} alt={t('capture.preview')} />}
          {/* Once the server has answered, its message replaces the browser's own judgement. The
              browser only warns: whether the text can be read is the server's to say. */}
          {!error && (
            <p class={candidate.problem ? 'error' : 'status'} role="status">
              {candidate.problem ? t(`quality.${candidate.problem}`) : t('capture.sendToCheck')}
            </p>
          )}
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {busy && (
        <p class="status" aria-live="polite">
          {t(busy === 'checking' ? 'capture.checking' : 'capture.uploading')}
        </p>
      )}
      <div class="actions">
        {!candidate && cameraState === 'on' && (
          <button type="button" class="primary" onClick={takePhoto} disabled={busy !== null}>
            {t('capture.take')}
          </button>
        )}
        {/* A photo with a problem makes Retake the primary action; sending it anyway stays possible
            only for what the browser measured (the server judges again), never after a refusal. */}
        {candidate && (candidate.problem || refusal || error) && (
          <>
            <button type="button" class="primary" onClick={retake} disabled={busy !== null}>
              {t('capture.retake')}
            </button>
            {refusal === 'DocumentTypeMismatch' && (
              <button type="button" class="secondary" onClick={onChooseType} disabled={busy !== null}>
                {t('capture.chooseOtherType')}
              </button>
            )}
            {!refusal && !error && (
              <button type="button" class="secondary" onClick={upload} disabled={busy !== null}>
                {t('capture.useAnyway')}
              </button>
            )}
          </>
        )}
        {candidate && !candidate.problem && !refusal && !error && (
          <>
            <button type="button" class="primary" onClick={upload} disabled={busy !== null}>
              {t('capture.use')}
            </button>
            <button type="button" class="secondary" onClick={retake} disabled={busy !== null}>
              {t('capture.retake')}
            </button>
          </>
        )}
        {!candidate && (
          <>
            <input
              id={fileInputId}
              class="visually-hidden"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              aria-label={t('capture.uploadLabel')}
              onChange={chooseFile}
            />
            <label for={fileInputId} class="secondary file-label">
              {t('capture.upload')}
            </label>
            {/* Where no camera works (a desktop), or the user would rather use the phone's. */}
            {!onPhone() && (
              <button
                type="button"
                class={cameraState === 'failed' ? 'secondary' : 'link-button'}
                onClick={() => {
                  stopCamera(streamRef.current);
                  onHandoff();
                }}
              >
                {t('handoff.open')}
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}
