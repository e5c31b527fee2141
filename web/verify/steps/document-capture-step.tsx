// Steps 3–4: front and back of the document (issue 5 item 2) — a live view of the environment
// camera with a card-shaped guide, a file-upload fallback, and quality feedback (too small,
// blurred, glare, no document) before the picture is sent; the server checks again and its 422
// message is shown in the user's language.
import { useEffect, useRef, useState } from 'preact/hooks';
import { canvasToJpeg, grabFrame, openCamera, stopCamera, videoReady } from '../capture/camera.ts';
import { assessDocumentImage, type QualityProblem } from '../capture/document-quality.ts';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

type Candidate = { blob: Blob; url: string; problem: QualityProblem | null };

export function DocumentCaptureStep({
  api,
  t,
  language,
  state,
  side,
  onApiError,
  onDone,
}: StepProps & { side: 'front' | 'back'; onDone(): void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [cameraState, setCameraState] = useState<'starting' | 'on' | 'off' | 'failed'>('starting');
  const [candidate, setCandidate] = useState<Candidate | null>(null);
  const [busy, setBusy] = useState<'checking' | 'uploading' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const isPassport = state.documentType === 'passport';

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
    return () => stopCamera(streamRef.current);
  }, []);

  useEffect(() => () => candidate && URL.revokeObjectURL(candidate.url), [candidate]);

  const judge = async (blob: Blob, source: CanvasImageSource, width: number, height: number) => {
    const problem = assessDocumentImage(source, width, height);
    setCandidate({ blob, url: URL.createObjectURL(blob), problem });
    setBusy(null);
  };

  const takePhoto = async () => {
    const video = videoRef.current;
    if (!video || cameraState !== 'on') return;
    setBusy('checking');
    setError(null);
    const canvas = grabFrame(video);
    const blob = await canvasToJpeg(canvas);
    await judge(blob, canvas, canvas.width, canvas.height);
  };

  const chooseFile = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setBusy('checking');
    setError(null);
    try {
      const bitmap = await createImageBitmap(file);
      await judge(file, bitmap, bitmap.width, bitmap.height);
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
      setError(errorText(e, language, t));
      setBusy(null);
    }
  };

  const title = isPassport
    ? t('capture.title.passport')
    : t(side === 'front' ? 'capture.title.front' : 'capture.title.back');
  const fileInputId = `file-${side}`;

  return (
    <section class="card">
      <h1>{title}</h1>
      <p class="hint">{t('capture.hint')}</p>
      <div class={`viewfinder${candidate ? ' hidden' : ''}`}>
        <video ref={videoRef} muted playsInline autoPlay aria-label={t('capture.cameraLabel')} />
        <div class={`card-guide${isPassport ? ' passport' : ''}`} aria-hidden="true" />
      </div>
      {cameraState === 'failed' && !candidate && (
        <p class="notice" role="status">
          {t('capture.noCamera')}
        </p>
      )}
      {candidate && (
        <div class="preview">
          {candidate.url && <img src={candidate.url} alt={t('capture.preview')} />}
          {/* Once the server has answered, its message replaces the browser's own judgement. */}
          {!error && (
            <p class={candidate.problem ? 'error' : 'ok'} role="status">
              {candidate.problem ? t(`quality.${candidate.problem}`) : t('capture.looksGood')}
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
        {candidate && (
          <>
            <button type="button" class="primary" onClick={upload} disabled={busy !== null}>
              {candidate.problem ? t('capture.useAnyway') : t('capture.use')}
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => setCandidate(null)}
              disabled={busy !== null}
            >
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
          </>
        )}
      </div>
    </section>
  );
}
