// Camera access through getUserMedia: the environment camera for documents, the
// user camera for the face.
export async function openCamera(facing: 'environment' | 'user', ideal: { width: number; height: number }) {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('getUserMedia unavailable');
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: facing }, width: { ideal: ideal.width }, height: { ideal: ideal.height } },
  });
}

/** What the server's injection signals read of the camera (src/liveness/injection-signals.ts). */
export interface CameraReport {
  label: string | null;
  width: number | null;
  height: number | null;
  frameRate: number | null;
}

export function describeCamera(stream: MediaStream | null): CameraReport | null {
  const track = stream?.getVideoTracks()[0];
  if (!track) return null;
  const settings = track.getSettings();
  const whole = (v: number | undefined) => (v !== undefined && Number.isInteger(v) && v > 0 ? v : null);
  return {
    label: track.label ? track.label.slice(0, 200) : null,
    width: whole(settings.width),
    height: whole(settings.height),
    frameRate: settings.frameRate && settings.frameRate > 0 ? settings.frameRate : null,
  };
}

export function stopCamera(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Resolves once the video element shows frames with a known size. */
export function videoReady(video: HTMLVideoElement): Promise<void> {
  if (video.readyState >= 2 && video.videoWidth > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (video.videoWidth > 0) {
        video.removeEventListener('loadeddata', done);
        resolve();
      }
    };
    video.addEventListener('loadeddata', done);
  });
}

/**
 * The current video frame as a canvas at the camera's own resolution (never mirrored), scaled
 * down to at most `maxPixels` when given (a live-check frame's budget: a camera that ignores the
 * asked size must not make the server refuse the attempt).
 */
export function grabFrame(video: HTMLVideoElement, maxPixels = Number.POSITIVE_INFINITY): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  const scale = Math.min(1, Math.sqrt(maxPixels / Math.max(1, video.videoWidth * video.videoHeight)));
  canvas.width = Math.max(1, Math.floor(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.floor(video.videoHeight * scale));
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas;
}

export function canvasToJpeg(canvas: HTMLCanvasElement, quality = 0.92): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))),
      'image/jpeg',
      quality,
    ),
  );
}
