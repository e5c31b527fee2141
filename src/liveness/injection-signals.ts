// Injection signals (issue 45; CEN/TS 18099 calls them "injection attack detection"): a face fed
// to the browser as a camera rather than filmed by one. Each is a signal with its own code that
// sends the verification to a reviewer, never a rejection on its own: a label or a size can be
// forged by an attacker who controls the browser, and an honest person may use a virtual camera
// (an effects app, a phone used as a webcam).
import { INJECTION_SIGNALS, type InjectionSignal } from '../domain/index.ts';

export { INJECTION_SIGNALS, type InjectionSignal };

/** What the browser reported of the camera that filmed the face (MediaStreamTrack label and settings). */
export interface CameraReport {
  label: string | null;
  width: number | null;
  height: number | null;
  frameRate: number | null;
}

/**
 * Device names virtual-camera software gives its driver, as the browser shows them in
 * MediaStreamTrack.label (from each product's documentation and device listings): streaming
 * tools (OBS, XSplit, Streamlabs, SplitCam, ManyCam, CamTwist, Webcamoid), effects and avatar apps
 * (Snap Camera, mmhmm, NVIDIA Broadcast, Logi Capture, YouCam, FaceRig, Avatarify, AlterCam,
 * e2eSoft VCam) and the Linux loopback driver (v4l2loopback's default "Dummy video device").
 */
const VIRTUAL_CAMERA_LABELS: readonly RegExp[] = [
  /\bOBS\b/i,
  /virtual\s*(cam|camera|webcam)/i,
  /\bXSplit\b/i,
  /\bStreamlabs\b/i,
  /\bSplitCam\b/i,
  /\bManyCam\b/i,
  /\bCamTwist\b/i,
  /\bWebcamoid\b/i,
  /\bSnap Camera\b/i,
  /\bmmhmm\b/i,
  /\bNVIDIA Broadcast\b/i,
  /\bLogi Capture\b/i,
  /\bYouCam\b/i,
  /\bFaceRig\b/i,
  /\bAvatarify\b/i,
  /\bAlterCam\b/i,
  /\bVCam\b/i,
  /\bv4l2loopback\b/i,
  /^Dummy video device/i,
];

export function isVirtualCameraLabel(label: string): boolean {
  return VIRTUAL_CAMERA_LABELS.some((pattern) => pattern.test(label));
}

/**
 * The signals the camera report and the frames' own sizes give (the screen light is measured with
 * the frames: screen-light.ts). The page grabs frames at the camera's resolution, scaled down to
 * the frame pixel budget when the camera films more (web/verify/capture/camera.ts), so a frame
 * larger than the camera's settings, or of another shape, came from elsewhere. A phone may report
 * its settings in the other orientation, so either way round fits.
 */
export function cameraSignals(
  report: CameraReport | null,
  frames: readonly { width: number; height: number }[],
): InjectionSignal[] {
  if (!report) return [];
  const signals: InjectionSignal[] = [];
  if (report.label && isVirtualCameraLabel(report.label)) signals.push('virtual_camera');
  const { width, height } = report;
  if (width !== null && height !== null) {
    const fitsAs = (f: { width: number; height: number }, w: number, h: number) =>
      f.width <= w + 1 &&
      f.height <= h + 1 &&
      Math.abs(f.width / f.height - w / h) <= SHAPE_TOLERANCE * (w / h);
    const fits = (f: { width: number; height: number }) =>
      fitsAs(f, width, height) || fitsAs(f, height, width);
    if (frames.some((f) => !fits(f))) signals.push('camera_settings_mismatch');
  }
  return signals;
}

/** Scaling down rounds each side to whole pixels: the shape may drift this much (relative). */
const SHAPE_TOLERANCE = 0.02;

export function isInjectionSignal(value: string): value is InjectionSignal {
  return (INJECTION_SIGNALS as readonly string[]).includes(value);
}
